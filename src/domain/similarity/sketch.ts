/**
 * SimHash sketches of a page's main text (docs/similarity.md): 64 bits, as 16 hex characters, such that pages whose
 * text is almost the same come out a few bits apart and different pages about half of them apart. Each feature (a
 * run of three tokens inside a line, counted once) votes on each bit by its hash; a bit of the sketch is set when
 * most votes are. Features never cross a line, so blocks in another order (a list re-sorted) give the same sketch.
 */
import { fmix32, foldIn, popcount32, toHex, tokenKey } from './hash';
import { templateTokens } from './template';
import { type Tokens, tokenize } from './tokens';

/** How a text is turned into features: the measured choice is SKETCH_DESIGN; measure:similarity compares others. */
export interface SketchDesign {
  /** Shingle sizes: runs of n tokens inside one line (a line shorter than n is one feature). */
  shingles: readonly number[];
  /** A feature's weight: its count (tf), 1 however often it occurs (binary), or 1 + ln(count) (log). */
  weight: 'tf' | 'binary' | 'log';
  /** A text of fewer tokens is sketched by the hash of its exact tokens (see exactSketch). */
  minTokens: number;
}

/**
 * Word 3-shingles, each counted once, exact below 8 tokens: chosen by `COMPARE=1 npm run measure:similarity` on
 * 3,754 real pages (docs/similarity.md). Within 3 bits, words by count put 103 truly different pairs, words counted
 * once 3; 3-shingles counted once none (the closest at 8 bits) and 2 template siblings, finding 86% of the counters
 * changed; 2- and 4-shingles and mixes found 83-86% with 4 to 19 siblings; log weights (1 sibling, 88%) were within
 * what other hash seeds move (over four seeds, 2 to 9 siblings counted once, 1 to 16 with log weights). Under 8
 * tokens SimHash found 0.1% of one-word changes: exact hashing loses nothing there, and keeps identical short texts (a
 * not-found page) comparable.
 */
export const SKETCH_DESIGN: SketchDesign = { shingles: [3], weight: 'binary', minTokens: 8 };

/** The lanes of every shingle of every line (a line shorter than a size is one shingle of that size). */
function shingleLanes(tokens: Tokens, shingles: readonly number[]): { a: Int32Array; b: Int32Array } {
  const a = new Int32Array(tokens.a.length * shingles.length);
  const b = new Int32Array(a.length);
  let count = 0;
  let start = 0;
  for (const end of tokens.lineEnds) {
    for (const n of shingles) {
      const width = Math.min(n, end - start);
      for (let i = start; i + width <= end; i++) {
        // Each token's lanes rotated by its place in the shingle, so that order counts; then mixed.
        let x = Math.imul(n, 0x9e3779b9) ^ width;
        let y = Math.imul(n, 0x85ebca6b) ^ width;
        for (let j = 0; j < width; j++) {
          const r = (11 * j) & 31;
          const ta = tokens.a[i + j] ?? 0;
          const tb = tokens.b[i + j] ?? 0;
          x ^= r === 0 ? ta : (ta << r) | (ta >>> (32 - r));
          y ^= r === 0 ? tb : (tb << r) | (tb >>> (32 - r));
        }
        a[count] = fmix32(x);
        b[count++] = fmix32(y);
      }
    }
    start = end;
  }
  return { a: a.subarray(0, count), b: b.subarray(0, count) };
}

/** The distinct features (open addressing on both lanes) and how often each occurs. */
class FeatureTable {
  readonly a: Int32Array;
  readonly b: Int32Array;
  readonly counts: Uint32Array;
  private readonly mask: number;

  constructor(features: { a: Int32Array; b: Int32Array }) {
    const slots = 2 ** Math.ceil(Math.log2(Math.max(16, features.a.length * 2)));
    [this.a, this.b, this.counts] = [new Int32Array(slots), new Int32Array(slots), new Uint32Array(slots)];
    this.mask = slots - 1;
    for (let i = 0; i < features.a.length; i++) this.add(features.a[i] ?? 0, features.b[i] ?? 0);
  }

  private add(a: number, b: number): void {
    let i = b & this.mask;
    while (this.counts[i] !== 0 && (this.a[i] !== a || this.b[i] !== b)) i = (i + 1) & this.mask;
    this.a[i] = a;
    this.b[i] = b;
    this.counts[i] = (this.counts[i] ?? 0) + 1;
  }
}

/**
 * Votes of features of weight 1 on each of the 64 bits, counted bit-sliced: plane p holds bit p of every bit's count
 * (a ripple-carry add of the feature's bits, about two planes a feature instead of 64 counters).
 */
class UnitVotes {
  private readonly planes = new Int32Array(64);
  /** Planes in use: counts are below 2^(used / 2). */
  private used = 0;
  private total = 0;

  add(a: number, b: number): void {
    let carryA = a;
    let carryB = b;
    let p = 0;
    for (; (carryA | carryB) !== 0; p += 2) {
      const pa = this.planes[p] ?? 0;
      const pb = this.planes[p + 1] ?? 0;
      this.planes[p] = pa ^ carryA;
      this.planes[p + 1] = pb ^ carryB;
      carryA &= pa;
      carryB &= pb;
    }
    if (p > this.used) this.used = p;
    this.total++;
  }

  /** Each bit's count, from its planes. */
  count(bit: number): number {
    const word = bit < 32 ? 0 : 1;
    const shift = bit & 31;
    let count = 0;
    for (let p = 0; p < this.used; p += 2) count += (((this.planes[p + word] ?? 0) >>> shift) & 1) * 2 ** (p / 2);
    return count;
  }

  sketch(): string {
    return majority((bit) => this.count(bit), this.total);
  }
}

/** The sketch whose bit i is set when votes(i) is over half the total weight. */
function majority(votes: (bit: number) => number, total: number): string {
  let [high, low] = [0, 0];
  for (let i = 0; i < 32; i++) {
    if (votes(i) * 2 > total) high |= 1 << i;
    if (votes(32 + i) * 2 > total) low |= 1 << i;
  }
  return toHex(high, low);
}

/** The features' votes, each feature weighted by the design. */
function vote(tokens: Tokens, design: SketchDesign): string {
  const features = shingleLanes(tokens, design.shingles);
  const unit = new UnitVotes();
  if (design.weight === 'tf') {
    for (let i = 0; i < features.a.length; i++) unit.add(features.a[i] ?? 0, features.b[i] ?? 0);
    return unit.sketch();
  }
  const table = new FeatureTable(features);
  if (design.weight === 'binary') {
    for (let i = 0; i < table.counts.length; i++) if (table.counts[i]) unit.add(table.a[i] ?? 0, table.b[i] ?? 0);
    return unit.sketch();
  }
  const votes = new Float64Array(64);
  let total = 0;
  for (let i = 0; i < table.counts.length; i++) {
    const count = table.counts[i] ?? 0;
    if (count === 0) continue;
    const weight = 1 + Math.log(count);
    for (let bit = 0; bit < 32; bit++) {
      votes[bit] = (votes[bit] ?? 0) + weight * (((table.a[i] ?? 0) >>> bit) & 1);
      votes[32 + bit] = (votes[32 + bit] ?? 0) + weight * (((table.b[i] ?? 0) >>> bit) & 1);
    }
    total += weight;
  }
  return majority((bit) => votes[bit] ?? 0, total);
}

/** The hash of a short text's exact tokens, line breaks included, as a sketch: equal only for the same tokens. */
function exactSketch(tokens: Tokens): string {
  let [a, b, line] = [0x3c6ef372, 0x0a5b1f6d, 0];
  for (let i = 0; i < tokens.a.length; i++) {
    a = foldIn(a, tokens.a[i] ?? 0);
    b = foldIn(b, tokens.b[i] ?? 0);
    if (i + 1 === tokens.lineEnds[line]) {
      [a, b] = [foldIn(a, 0x0a), foldIn(b, 0x0a)];
      line++;
    }
  }
  return toHex(fmix32(a), fmix32(b));
}

/** The sketch of a text's tokens by a design: null when there is no token at all. */
export function sketchTokens(tokens: Tokens, design: SketchDesign = SKETCH_DESIGN): string | null {
  if (tokens.a.length === 0) return null;
  if (tokens.a.length < design.minTokens) return exactSketch(tokens);
  return vote(tokens, design);
}

/** The features of a text's tokens as exact keys (53 bits), for measuring how much two texts share. */
export function featureKeys(tokens: Tokens, design: SketchDesign = SKETCH_DESIGN): Set<number> {
  const { a, b } = shingleLanes(tokens, design.shingles);
  const keys = new Set<number>();
  for (let i = 0; i < a.length; i++) keys.add(tokenKey(a[i] ?? 0, b[i] ?? 0));
  return keys;
}

/** The SimHash of a text (its main text, as extraction gives it), or null for a text without a word. */
export function sketch(text: string): string | null {
  return sketchTokens(tokenize(text));
}

/**
 * The template sketch of a page's text: the same sketch after digits, month and weekday names are masked and the
 * tokens of the page's own URL dropped (template.ts), for telling the pages of a generated series from a catalog.
 */
export function templateSketch(text: string, url: string): string | null {
  return sketchTokens(templateTokens(tokenize(text), url));
}

/** Bits that differ between two sketches (0 to 64). */
export function hammingDistance(a: string, b: string): number {
  const high = Number.parseInt(a.slice(0, 8), 16) ^ Number.parseInt(b.slice(0, 8), 16);
  const low = Number.parseInt(a.slice(8, 16), 16) ^ Number.parseInt(b.slice(8, 16), 16);
  return popcount32(high) + popcount32(low);
}

/** 1 - distance / 64: 1 for equal sketches, about 0.5 for unrelated texts. */
export function similarity(a: string, b: string): number {
  return 1 - hammingDistance(a, b) / 64;
}

/**
 * Near-duplicates: plain sketches at most this many bits apart. Measured (`npm run measure:similarity`, 3,754 pages
 * of the shared corpora and 13 documentation sets, 7.0 M pairs): within 3 bits are 90 pairs of the same text (Jaccard
 * of their word 3-shingles >= 0.9), 2 template siblings (different pages sharing 71% and 86% of them) and no truly
 * different pair (under 50% shared): the closest is at 8 bits, a margin of 4. At 3 bits a list re-sorted is found
 * always, a view counter changed on 86% of pages (99% of those over 1,000 tokens), a sentence added on 41%.
 */
export const NEAR_DUPLICATE_DISTANCE = 3;
export const NEAR_DUPLICATE_SIMILARITY = 1 - NEAR_DUPLICATE_DISTANCE / 64;

/**
 * Template sketches of one series (trap evidence) at most this many bits apart. Measured on the same pages: within 3
 * bits are no template siblings and no truly different pair (the closest at 10 bits, a margin of 6; the closest
 * sibling at 5); a calendar's months, facets of one list re-sorted and session ids are found always, not-found pages
 * echoing their paths 93%; short product pages of one template (synthetic, 8 to 60 words of their own) never.
 */
export const TEMPLATE_DISTANCE = 3;
export const TEMPLATE_SIMILARITY = 1 - TEMPLATE_DISTANCE / 64;
