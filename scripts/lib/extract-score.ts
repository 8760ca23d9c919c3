/**
 * The figures fit:blocks reports for a half of a set, as measure:extract counts them: snippet P, R and F1 (a `with`
 * snippet in the whitespace-collapsed text found, a `without` one leaked), and on pages with a main text, token F1
 * micro-averaged over the pages (web-content-2025's score.py: lower-cased \w+ words as bags).
 */
import { norm, type Page } from './block-pages.ts';

export interface Tally {
  tp: number;
  fp: number;
  fn: number;
  /** Tokens: in both, extracted, in the main text. */
  both: number;
  got: number;
  truth: number;
}

export const emptyTally = (): Tally => ({ tp: 0, fp: 0, fn: 0, both: 0, got: 0, truth: 0 });

const bag = (text: string): Map<string, number> => {
  const counts = new Map<string, number>();
  for (const t of text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []) counts.set(t, (counts.get(t) ?? 0) + 1);
  return counts;
};
const size = (b: Map<string, number>) => [...b.values()].reduce((a, n) => a + n, 0);

/** Adds one page's extracted text to a tally. */
export function tallyPage(tally: Tally, page: Page, text: string): void {
  const normal = norm(text);
  const found = page.with.filter((s) => normal.includes(s)).length;
  tally.tp += found;
  tally.fn += page.with.length - found;
  tally.fp += page.without.filter((s) => normal.includes(s)).length;
  if (page.main === undefined) return;
  const got = bag(text);
  const truth = bag(page.main);
  for (const [t, n] of got) tally.both += Math.min(n, truth.get(t) ?? 0);
  tally.got += size(got);
  tally.truth += size(truth);
}

export interface Figures {
  p: number;
  r: number;
  f1: number;
  /** Token F1 (null without main texts). */
  tokens: number | null;
}

export function figuresOf(t: Tally): Figures {
  const p = t.tp / (t.tp + t.fp || 1);
  const r = t.tp / (t.tp + t.fn || 1);
  const tp = t.both / (t.got || 1);
  const tr = t.both / (t.truth || 1);
  return {
    p,
    r,
    f1: (2 * t.tp) / (2 * t.tp + t.fp + t.fn || 1),
    tokens: t.truth === 0 ? null : (2 * tp * tr) / (tp + tr || 1),
  };
}

export const shown = (f: Figures) =>
  `P ${f.p.toFixed(3)} R ${f.r.toFixed(3)} F1 ${f.f1.toFixed(3)}${f.tokens === null ? '' : ` tokens F1 ${f.tokens.toFixed(3)}`}`;
