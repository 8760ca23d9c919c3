/**
 * Selectors written by the model for one page template (extract.json.learnSelectors, issue 33): the model reads the
 * template's sample pages with its own answers for them and writes declared fields; they are kept only when they read
 * those answers back (checkLearned). A first attempt refused is followed by one more listing what it got wrong.
 */
import type { FieldSpec } from '../../domain/extract/spec-schema';
import { LEARN } from '../../domain/model/learn-limits';
import { checkLearned, expectedOf, type LearnSample } from '../../domain/model/learned';
import { readSelectorReply, selectorRequest } from '../../domain/model/selector-prompt';
import { simplifyHtml } from '../../domain/model/simplify-html';
import { type JsonSchema, type ModelClient, ModelError, type ModelUsage } from '../../domain/model/types';

export interface Learned {
  /** The fields to read the template's other pages with, or null (then every page is the model's). */
  fields: Record<string, FieldSpec> | null;
  /** The properties a page must give for its reading to be trusted (expectedOf). */
  expected: string[];
  /** The last attempt's agreement with the samples' answers (0..1). */
  agreement: number;
  calls: number;
  usage: ModelUsage;
  why?: string;
}

const percent = (share: number) => `${Math.round(share * 1000) / 10}%`;

/**
 * Asks `client` for selectors for `schema` from `samples` (their whole HTML and the model's JSON for each): at most
 * LEARN.attempts requests. A ModelError rate_limited or unavailable propagates (the caller tries later); refused
 * ends the learning with why.
 */
export async function learnSelectors(
  client: ModelClient,
  schema: JsonSchema,
  samples: LearnSample[],
): Promise<Learned> {
  const shown = samples.map((sample) => ({ ...sample, html: simplifyHtml(sample.html) }));
  const expected = expectedOf(schema, samples);
  const usage: ModelUsage = { tokensIn: 0, tokensOut: 0 };
  const learned = (fields: Learned['fields'], agreement: number, calls: number, why?: string): Learned =>
    why === undefined
      ? { fields, expected, agreement, calls, usage }
      : { fields, expected, agreement, calls, usage, why };
  let mismatches: string[] = [];
  let agreement = 0;
  let why = 'no attempt';
  for (let calls = 1; calls <= LEARN.attempts; calls++) {
    let text: string;
    try {
      const reply = await client.complete(selectorRequest(schema, shown, mismatches));
      usage.tokensIn += reply.usage.tokensIn;
      usage.tokensOut += reply.usage.tokensOut;
      text = reply.text;
    } catch (error) {
      if (error instanceof ModelError && error.kind === 'refused')
        return learned(null, agreement, calls, `the model refused: ${error.message}`);
      throw error;
    }
    const reply = readSelectorReply(text, schema);
    if (!reply.ok) {
      [why, mismatches] = [reply.why, [reply.why]];
      continue;
    }
    const check = checkLearned(reply.fields, samples, schema, expected);
    agreement = check.agreement;
    if (check.accepted) return learned(reply.fields, agreement, calls);
    why = `the selectors read ${percent(agreement)} of the samples' fields as answered (${LEARN.agreement * 100}% and every expected one needed)${check.mismatches[0] ? `; first: ${check.mismatches[0]}` : ''}`;
    mismatches = [...reply.problems, ...check.mismatches];
  }
  return learned(null, agreement, LEARN.attempts, why);
}
