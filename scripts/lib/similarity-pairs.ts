/**
 * All pairs of a list of sketches, for measure:similarity: the histogram of their Hamming distances and the pairs
 * closer than a window, each with the truth it is judged by: the Jaccard similarity of the two texts' sets of
 * features, exactly the word 3-shingles the sketch estimates it from (featureKeys). A pair is the same text when that
 * Jaccard is at least SAME_TEXT, truly different under DIFFERENT (no such pair may come within the threshold), and a
 * template sibling between the two.
 */

/** Jaccard of the feature sets from which two texts count as the same text (a true near-duplicate). */
export const SAME_TEXT = 0.9;
/**
 * Jaccard under which two texts are truly different (they share under half their word 3-shingles). Between the two:
 * template siblings, different pages whose texts share most of their words (one trait documented for lower and upper
 * case, release notes of one fix for two versions, one stub under two names).
 */
export const DIFFERENT = 0.5;

export interface Close {
  i: number;
  j: number;
  distance: number;
  jaccard: number;
}

export interface PairStats {
  /** Pairs at each distance, 0 to 64. */
  histogram: number[];
  /** Pairs with a distance up to the window, nearest first. */
  close: Close[];
  pairs: number;
}

/** Jaccard similarity of two sets of features. */
export function jaccard(a: Set<number>, b: Set<number>): number {
  const [small, large] = a.size < b.size ? [a, b] : [b, a];
  let shared = 0;
  for (const x of small) if (large.has(x)) shared++;
  const union = a.size + b.size - shared;
  return union === 0 ? 1 : shared / union;
}

function popcount(value: number): number {
  let v = value - ((value >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/** Sketches as two arrays of 32-bit halves; a null sketch (no token) is left out of every pair. */
function halves(sketches: (string | null)[]) {
  const high = new Uint32Array(sketches.length);
  const low = new Uint32Array(sketches.length);
  const present = new Uint8Array(sketches.length);
  for (const [i, s] of sketches.entries()) {
    if (s === null) continue;
    high[i] = Number.parseInt(s.slice(0, 8), 16);
    low[i] = Number.parseInt(s.slice(8, 16), 16);
    present[i] = 1;
  }
  return { high, low, present };
}

/**
 * Every pair (i < j) of `sketches` that `include` accepts: the histogram, and the pairs within `window` with their
 * Jaccard (`truth` gives a pair's, from the two texts' feature sets).
 */
export function allPairs(
  sketches: (string | null)[],
  truth: (i: number, j: number) => number,
  window: number,
  include: (i: number, j: number) => boolean = () => true,
): PairStats {
  const { high, low, present } = halves(sketches);
  const histogram = new Array<number>(65).fill(0);
  const near: [number, number, number][] = [];
  let pairs = 0;
  for (let i = 0; i < sketches.length; i++) {
    if (!present[i]) continue;
    const hi = high[i] ?? 0;
    const lo = low[i] ?? 0;
    for (let j = i + 1; j < sketches.length; j++) {
      if (!present[j] || !include(i, j)) continue;
      const d = popcount(hi ^ (high[j] ?? 0)) + popcount(lo ^ (low[j] ?? 0));
      histogram[d] = (histogram[d] ?? 0) + 1;
      pairs++;
      if (d <= window) near.push([i, j, d]);
    }
  }
  const close = near
    .map(([i, j, distance]) => ({ i, j, distance, jaccard: truth(i, j) }))
    .sort((a, b) => a.distance - b.distance || b.jaccard - a.jaccard);
  return { histogram, close, pairs };
}
