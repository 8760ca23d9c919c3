/**
 * bench:extract's report on a shared set (lib/shared-eval.ts: trafilatura-eval, web-content-2025): snippets scored as
 * the corpus's score.py scores them and, where the set labels each page's whole main text, score.py's token F1; by
 * half and by page type, per Worker and after - before; the collapses (lib/collapse.ts); CPU per page as percentiles
 * with the slowest pages.
 */
import { mainTextCollapsed, snippetsCollapsed, type TokenCounts, tokenCounts } from './collapse.ts';
import type { PageType } from './page-type.ts';

export interface EvalPage {
  url: string;
  file: string;
  with: string[];
  without: string[];
  /** The page's whole main text, where the set labels it (web-content-2025's `main_content`). */
  mainContent?: string;
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

/** One page's text against its labels: snippets found and leaked, tokens (with a main text), collapsed or not. */
interface PageScore {
  found: number;
  leaked: number;
  tokens: TokenCounts | null;
  collapsed: boolean;
}

/** An outcome with each page scored. */
interface Scored extends Outcome {
  scores: Map<string, PageScore>;
}

interface Counts {
  tp: number;
  fp: number;
  fn: number;
  tn: number;
  kept: number;
  got: number;
  truth: number;
}

/** A shared set's figures per Worker, for the summary of a run over both sets. */
export interface Summary {
  label: string;
  f1: number;
  tokenF1: number | null;
  collapses: number;
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

/** Each page's score against its labels: the text as score.py reads it back from its file. */
export function scoreOutcome(pages: EvalPage[], outcome: Outcome): Scored {
  const scores = new Map<string, PageScore>();
  for (const page of pages) {
    const raw = (outcome.texts.get(page.file) ?? '').replace(LONE_SURROGATE, '\uFFFD');
    const text = norm(raw);
    const found = page.with.filter((w) => text.includes(norm(w))).length;
    const leaked = page.without.filter((w) => text.includes(norm(w))).length;
    const tokens = page.mainContent === undefined ? null : tokenCounts(raw, page.mainContent);
    const collapsed = tokens ? mainTextCollapsed(tokens) : snippetsCollapsed(text, found, page.with.length);
    scores.set(page.file, { found, leaked, tokens, collapsed });
  }
  return { ...outcome, scores };
}

function count(pages: EvalPage[], scored: Scored): Counts {
  const c: Counts = { tp: 0, fp: 0, fn: 0, tn: 0, kept: 0, got: 0, truth: 0 };
  for (const page of pages) {
    const s = scored.scores.get(page.file);
    if (!s) continue;
    c.tp += s.found;
    c.fn += page.with.length - s.found;
    c.fp += s.leaked;
    c.tn += page.without.length - s.leaked;
    c.kept += s.tokens?.kept ?? 0;
    c.got += s.tokens?.got ?? 0;
    c.truth += s.tokens?.truth ?? 0;
  }
  return c;
}

/** Snippet P, R, F1 (score.py's) and token P, R, F1 (micro-averaged over pages, as web-content-2025's score.py). */
const prf = (c: Counts) => {
  const tp = c.got ? c.kept / c.got : 0;
  const tr = c.truth ? c.kept / c.truth : 0;
  return {
    p: c.tp + c.fp ? c.tp / (c.tp + c.fp) : 0,
    r: c.tp + c.fn ? c.tp / (c.tp + c.fn) : 0,
    f: 2 * c.tp + c.fp + c.fn ? (2 * c.tp) / (2 * c.tp + c.fp + c.fn) : 0,
    tp,
    tr,
    tf: tp + tr ? (2 * tp * tr) / (tp + tr) : 0,
  };
};
type Prf = ReturnType<typeof prf>;
const fixed = (x: number) => x.toFixed(3).padStart(6);
const signed = (x: number) => `${x >= 0 ? '+' : ''}${x.toFixed(3)}`.padStart(6);
const hasTokens = (pages: EvalPage[]) => pages.some((p) => p.mainContent !== undefined);

const HALVES = ['dev', 'held-out', 'all'] as const;
const halfOf = (pages: EvalPage[], half: (typeof HALVES)[number]) =>
  half === 'all' ? pages : pages.filter((p) => p.half === half);

/** One row of the table by half: snippets, then tokens where the set has them. */
function halfRow(name: string, half: string, subset: EvalPage[], c: Counts, tokens: boolean): Prf {
  const s = prf(c);
  const found = `${c.tp}/${c.tp + c.fn}`.padEnd(10);
  const leaked = `${c.fp}/${c.fp + c.tn}`.padEnd(10);
  const t = tokens ? ` ${fixed(s.tp)} ${fixed(s.tr)} ${fixed(s.tf)}` : '';
  const row = `  ${name.padEnd(24)} ${half.padEnd(9)} ${String(subset.length).padStart(5)} ${fixed(s.p)} ${fixed(s.r)} ${fixed(s.f)}  ${found} ${leaked}${t}`;
  console.log(row.trimEnd());
  return s;
}

/**
 * P, R, F1 by half and overall, per Worker (and tokens' where the set has a main text); then after - before; then a
 * check of "all" against score.py's lines (`complete`: every page of the set extracted, so its recall is ours too).
 */
export function printHalves(pages: EvalPage[], outcomes: Scored[], scorePyLines: string[][], complete: boolean) {
  const tokens = hasTokens(pages);
  console.log('\n  by half (dev: even index in evaldata.json, held-out: odd), scored as score.py scores');
  const tokenHead = tokens ? '     tP     tR    tF1' : '';
  console.log(
    `  ${'worker'.padEnd(24)} ${'half'.padEnd(9)} pages      P      R     F1  found      leaked    ${tokenHead}`.trimEnd(),
  );
  const scores = outcomes.map((o, w) =>
    HALVES.map((half) => {
      const c = count(halfOf(pages, half), o);
      const s = halfRow(half === 'dev' ? o.label : '', half, halfOf(pages, half), c, tokens);
      if (half === 'all') checkScorePy(c, scorePyLines[w] ?? [], complete);
      return s;
    }),
  );
  const [after, before] = scores;
  if (!after || !before) return;
  for (const [i, half] of HALVES.entries()) {
    const a = after[i] as Prf;
    const b = before[i] as Prf;
    const t = tokens ? ` ${signed(a.tp - b.tp)} ${signed(a.tr - b.tr)} ${signed(a.tf - b.tf)}` : '';
    const name = i === 0 ? 'after - before' : '';
    const row = `  ${name.padEnd(24)} ${half.padEnd(9)} ${''.padStart(5)} ${signed(a.p - b.p)} ${signed(a.r - b.r)} ${signed(a.f - b.f)}  ${''.padEnd(21)}${t}`;
    console.log(row.trimEnd());
  }
}

/**
 * Says so when our counts are not score.py's: its snippet line "(tp of n text snippets found, fp [of m] boilerplate
 * ...)" and, where it scores tokens, "tokens: precision P recall R F1 F".
 */
function checkScorePy(c: Counts, lines: string[], complete: boolean): void {
  const text = lines.join('\n');
  const m = /\((\d+) of (\d+) text snippets found, (\d+) (?:of \d+ )?boilerplate/.exec(text);
  if (!m) {
    console.log('  (score.py line not read: the counts above are not checked against it)');
    return;
  }
  // Found and leaked only: with PAGES, score.py still counts every page's snippets (a missing page finds none).
  if (Number(m[1]) !== c.tp || Number(m[3]) !== c.fp)
    console.log(`  ! counts differ from score.py's: ${c.tp} found and ${c.fp} leaked here, its: ${m[1]}, ${m[3]}`);
  const t = /tokens: precision ([\d.]+) recall ([\d.]+) F1 ([\d.]+)/.exec(text);
  if (!t) return;
  const s = prf(c);
  const ours = complete ? [s.tp, s.tr, s.tf] : [s.tp];
  if (ours.some((x, i) => x.toFixed(3) !== t[i + 1]))
    console.log(`  ! token scores differ from score.py's: ${ours.map((x) => x.toFixed(3)).join(' ')} here`);
}

/** Pages, P, R, F1 (token F1 where the set has a main text) and median CPU per page type, per Worker; dF1. */
export function printTypes(pages: EvalPage[], outcomes: Scored[]): void {
  const tokens = hasTokens(pages);
  const what = tokens ? 'P R F1, token F1' : 'P R F1';
  console.log(`\n  by page type (scripts/lib/page-type.ts: what the page says it is), ${what} and median CPU ms`);
  const width = tokens ? 36 : 29;
  const head = outcomes.map((o) => o.label.slice(0, width).padEnd(width)).join(' | ');
  const deltas = outcomes.length > 1 ? ` |    dF1${tokens ? '   dtF1' : ''}` : '';
  console.log(`  ${'type'.padEnd(8)} pages | ${head}${deltas}`.trimEnd());
  for (const type of TYPES) {
    const subset = pages.filter((p) => p.type === type);
    if (subset.length === 0) {
      console.log(`  ${type.padEnd(8)} ${'0'.padStart(5)}`);
      continue;
    }
    const s = outcomes.map((o) => prf(count(subset, o)));
    const cols = outcomes.map((o, i) => {
      const x = s[i] as Prf;
      const ms = subset.map((p) => o.cpuMs.get(p.file) ?? 0);
      const t = tokens ? ` ${fixed(x.tf)}` : '';
      return `${fixed(x.p)} ${fixed(x.r)} ${fixed(x.f)}${t} ${quantile(ms, 0.5).toFixed(1).padStart(7)}`;
    });
    const [a, b] = s;
    const delta = a && b ? ` | ${signed(a.f - b.f)}${tokens ? ` ${signed(a.tf - b.tf)}` : ''}` : '';
    console.log(`  ${type.padEnd(8)} ${String(subset.length).padStart(5)} | ${cols.join(' | ')}${delta}`);
  }
}

/** A page's figure in the list of collapses: tokens kept of the main text's, or snippets found of its `with`. */
function kept(page: EvalPage, o: Scored): string {
  const s = o.scores.get(page.file);
  const figure = s?.tokens ? `${s.tokens.kept}/${s.tokens.truth}` : `${s?.found ?? 0}/${page.with.length}`;
  return `${figure}${s?.collapsed ? '*' : ''}`;
}

/** The collapses per outcome (all, dev, held-out), then each page collapsed in any, with every outcome's figure. */
export function printCollapses(pages: EvalPage[], outcomes: Scored[]): void {
  const tokens = hasTokens(pages);
  const rule = tokens
    ? 'under a fifth of a main text of 50+ tokens kept, or no token of one'
    : 'none of 2+ snippets found, or an empty text';
  console.log(`\n  collapses (scripts/lib/collapse.ts: ${rule})`);
  const collapsed = (o: Scored, subset: EvalPage[]) => subset.filter((p) => o.scores.get(p.file)?.collapsed).length;
  for (const o of outcomes)
    console.log(
      `  ${o.label.padEnd(24)} ${String(collapsed(o, pages)).padStart(4)}  (dev ${collapsed(o, halfOf(pages, 'dev'))}, held-out ${collapsed(o, halfOf(pages, 'held-out'))})`,
    );
  const any = pages.filter((p) => outcomes.some((o) => o.scores.get(p.file)?.collapsed));
  if (any.length === 0) return;
  const unit = tokens ? 'tokens kept/main text' : 'snippets found/with';
  console.log(`  pages collapsed in any (${unit}; * collapsed): ${outcomes.map((o) => o.label).join(' | ')}`);
  const width = Math.max(...any.map((p) => p.file.length));
  for (const page of any) {
    const figures = outcomes.map((o) => kept(page, o).padStart(12)).join(' ');
    console.log(`    ${page.file.padEnd(width)} ${page.half.padEnd(8)} ${page.type.padEnd(8)} ${figures}  ${page.url}`);
  }
}

/** Each outcome's snippet F1, token F1 and collapses over the whole set, for the run's summary. */
export function summarize(pages: EvalPage[], outcomes: Scored[]): Summary[] {
  const tokens = hasTokens(pages);
  return outcomes.map((o) => {
    const s = prf(count(pages, o));
    const collapses = pages.filter((p) => o.scores.get(p.file)?.collapsed).length;
    return { label: o.label, f1: s.f, tokenF1: tokens ? s.tf : null, collapses };
  });
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
