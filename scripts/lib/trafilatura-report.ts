/**
 * bench:extract's report on trafilatura's set (lib/trafilatura-eval.ts): snippets scored as the corpus's score.py scores
 * them, by half and by page type, per Worker and after - before; CPU per page as percentiles with the slowest pages.
 */
import type { PageType } from './page-type.ts';

export interface EvalPage {
  url: string;
  file: string;
  with: string[];
  without: string[];
  /** dev: even index in evaldata.json's order, held-out: odd (as measure:extract splits it). */
  half: 'dev' | 'held-out';
  type: PageType;
  bytes: number;
}

/** A Worker's (or Node's) outcome: each page's text and CPU milliseconds. */
export interface Outcome {
  label: string;
  texts: Map<string, string>;
  cpuMs: Map<string, number>;
}

interface Counts {
  tp: number;
  fp: number;
  fn: number;
  tn: number;
}

const TYPES: PageType[] = ['article', 'docs', 'product', 'forum', 'listing'];

/**
 * score.py's normalization: Python's `\s` and str.strip() are str.isspace(), which takes U+001C..U+001F and U+0085
 * where JavaScript's `\s` takes U+FEFF instead; a lone surrogate is written to its file as U+FFFD.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: U+001C..U+001F are whitespace to Python, as said above.
const PY_SPACE = /[\t\n\v\f\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/g;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const norm = (s: string) => s.replace(LONE_SURROGATE, '\uFFFD').replace(PY_SPACE, ' ').replace(/^ | $/g, '');

function count(pages: EvalPage[], texts: Map<string, string>): Counts {
  const c: Counts = { tp: 0, fp: 0, fn: 0, tn: 0 };
  for (const page of pages) {
    const text = norm(texts.get(page.file) ?? '');
    const found = page.with.filter((w) => text.includes(norm(w))).length;
    const leaked = page.without.filter((w) => text.includes(norm(w))).length;
    c.tp += found;
    c.fn += page.with.length - found;
    c.fp += leaked;
    c.tn += page.without.length - leaked;
  }
  return c;
}

const prf = (c: Counts) => ({
  p: c.tp + c.fp ? c.tp / (c.tp + c.fp) : 0,
  r: c.tp + c.fn ? c.tp / (c.tp + c.fn) : 0,
  f: 2 * c.tp + c.fp + c.fn ? (2 * c.tp) / (2 * c.tp + c.fp + c.fn) : 0,
});
const fixed = (x: number) => x.toFixed(3).padStart(6);
const signed = (x: number) => `${x >= 0 ? '+' : ''}${x.toFixed(3)}`.padStart(6);

/** P, R, F1 by half and overall, per Worker; then after - before; then a check of "all" against score.py's line. */
export function printHalves(pages: EvalPage[], outcomes: Outcome[], scorePyLines: string[]): void {
  const halves: [string, EvalPage[]][] = [
    ['dev', pages.filter((p) => p.half === 'dev')],
    ['held-out', pages.filter((p) => p.half === 'held-out')],
    ['all', pages],
  ];
  console.log('\n  by half (dev: even index in evaldata.json, held-out: odd), scored as score.py scores');
  console.log(`  ${'worker'.padEnd(24)} ${'half'.padEnd(9)} pages      P      R     F1  found      leaked`);
  const scores = outcomes.map(({ label, texts }, w) =>
    halves.map(([half, subset]) => {
      const c = count(subset, texts);
      const s = prf(c);
      const found = `${c.tp}/${c.tp + c.fn}`.padEnd(10);
      const name = half === 'dev' ? label : '';
      console.log(
        `  ${name.padEnd(24)} ${half.padEnd(9)} ${String(subset.length).padStart(5)} ${fixed(s.p)} ${fixed(s.r)} ${fixed(s.f)}  ${found} ${c.fp}/${c.fp + c.tn}`,
      );
      if (half === 'all') checkScorePy(c, scorePyLines[w] ?? '');
      return s;
    }),
  );
  const [after, before] = scores;
  if (!after || !before) return;
  for (const [i, [half]] of halves.entries()) {
    const a = after[i] ?? prf({ tp: 0, fp: 0, fn: 0, tn: 0 });
    const b = before[i] ?? a;
    const name = i === 0 ? 'after - before' : '';
    console.log(
      `  ${name.padEnd(24)} ${half.padEnd(9)} ${''.padStart(5)} ${signed(a.p - b.p)} ${signed(a.r - b.r)} ${signed(a.f - b.f)}`,
    );
  }
}

/** Says so when our counts are not score.py's (its line: "(tp of n text snippets found, fp of m ...)"). */
function checkScorePy(c: Counts, line: string): void {
  const m = /\((\d+) of (\d+) text snippets found, (\d+) of (\d+) boilerplate/.exec(line);
  if (!m) {
    console.log('  (score.py line not read: the counts above are not checked against it)');
    return;
  }
  // Found and leaked only: with PAGES, score.py still counts every page's snippets (a missing page finds none).
  const same = Number(m[1]) === c.tp && Number(m[3]) === c.fp;
  if (!same)
    console.log(`  ! counts differ from score.py's: ${c.tp} found and ${c.fp} leaked here, its: ${m[1]}, ${m[3]}`);
}

/** Pages, P, R, F1 and median CPU per page type, per Worker, and the F1 difference. */
export function printTypes(pages: EvalPage[], outcomes: Outcome[]): void {
  console.log('\n  by page type (scripts/lib/page-type.ts: what the page says it is), P R F1 and median CPU ms');
  const head = outcomes.map((o) => o.label.slice(0, 29).padEnd(29)).join(' | ');
  console.log(`  ${'type'.padEnd(8)} pages | ${head}${outcomes.length > 1 ? ' |    dF1' : ''}`);
  for (const type of TYPES) {
    const subset = pages.filter((p) => p.type === type);
    if (subset.length === 0) {
      console.log(`  ${type.padEnd(8)} ${'0'.padStart(5)}`);
      continue;
    }
    const s = outcomes.map((o) => prf(count(subset, o.texts)));
    const cols = outcomes.map((o, i) => {
      const x = s[i] ?? prf({ tp: 0, fp: 0, fn: 0, tn: 0 });
      const ms = subset.map((p) => o.cpuMs.get(p.file) ?? 0);
      return `${fixed(x.p)} ${fixed(x.r)} ${fixed(x.f)} ${quantile(ms, 0.5).toFixed(1).padStart(7)}`;
    });
    const delta = s.length > 1 ? ` | ${signed((s[0]?.f ?? 0) - (s[1]?.f ?? 0))}` : '';
    console.log(`  ${type.padEnd(8)} ${String(subset.length).padStart(5)} | ${cols.join(' | ')}${delta}`);
  }
}

/** The q-quantile as measure:extract takes it: the value at floor(q * n) of the sorted values. */
const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
};

/** CPU ms per page: mean, median, p90, p99, max; the slowest pages; pages over `limitMs` among those under 4 MiB. */
export function printCpu(pages: EvalPage[], outcome: Outcome, note: string, limitMs?: number): void {
  const ms = pages.map((p) => outcome.cpuMs.get(p.file) ?? 0);
  const mean = ms.reduce((a, b) => a + b, 0) / Math.max(1, ms.length);
  const cols = [mean, ...[0.5, 0.9, 0.99, 1].map((q) => quantile(ms, q))].map((x) => x.toFixed(1).padStart(7));
  console.log(`  ${outcome.label.padEnd(24)} ${cols.join(' ')}  ${note}`);
  const slowest = [...pages].sort((a, b) => (outcome.cpuMs.get(b.file) ?? 0) - (outcome.cpuMs.get(a.file) ?? 0));
  const name = (p: EvalPage) =>
    `${p.file} ${(outcome.cpuMs.get(p.file) ?? 0).toFixed(0)} ms (${Math.round(p.bytes / 1024)} KiB)`;
  console.log(`  ${''.padEnd(24)} slowest: ${slowest.slice(0, 5).map(name).join(', ')}`);
  if (limitMs === undefined) return;
  const over = pages.filter((p) => p.bytes < 4 * 1024 * 1024 && (outcome.cpuMs.get(p.file) ?? 0) > limitMs);
  console.log(`  ${''.padEnd(24)} pages under 4 MiB over ${limitMs} ms: ${over.length}`);
}

export const CPU_HEAD = `  ${'worker'.padEnd(24)}    mean  median     p90     p99     max`;
