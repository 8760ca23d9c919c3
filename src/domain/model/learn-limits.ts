/**
 * Bounds of selectors written by the model (extract.json.learnSelectors, issue 33): how many pages of one template the
 * model reads, how much of each, how often it may try, and how close its selectors must come to its own answers.
 */
export const LEARN = {
  /** Sample pages of one template the model answers and then writes selectors from. */
  samples: 3,
  /** Characters of one sample's HTML sent, after simplification (simplify-html.ts). */
  sampleChars: 12_000,
  /** Characters kept of one text node, and of one attribute's value, in a simplified sample. */
  textChars: 200,
  attrChars: 80,
  /** Requests for selectors: the first, and one more listing what the first got wrong. */
  attempts: 2,
  /** Share of the samples' fields the selectors must read as the model answered them (after normalising). */
  agreement: 0.9,
  /** Mismatches listed back to the model in its second attempt. */
  mismatchesListed: 20,
  /** Tokens the model may answer with when writing selectors. */
  maxTokens: 2_000,
  /** A template `learning` this long without a result (its learner's invocation died) is sampled, and learned, again. */
  learningTimeoutMs: 10 * 60_000,
} as const;
