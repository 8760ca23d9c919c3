/**
 * npm run measure:extract -- main-content quality and cost in Node, fast enough to iterate on (bench:extract is the
 * authoritative figure, inside workerd). Each page goes through extractPage (text output, main content detected):
 * - trafilatura's evaluation set (../shared/corpora/trafilatura-eval): scored as its score.py scores (a 'with'
 *   snippet found in the whitespace-normalized text is a true positive, a 'without' snippet found a false positive),
 *   split into a dev half (even index in evaldata.json order: tune on it) and a held-out half (odd index);
 * - Readability's test pages: token F1 of the text against expected.html;
 * - documentation truth (/work/corpora/docs-truth/<set>.jsonl, when present): token F1 against its text.
 * CPU ms per page (process CPU time around extractPage): median, p90, p99 and the most (with the page that took it).
 * - web-content-2025 (604 modern pages): the snippet F1 and score.py's token F1 against each page's main text, by
 *   half (even index dev, odd held out), and the collapses: pages keeping under a fifth of their main text's tokens
 *   (lib/collapse.ts, as bench:extract counts them; trafilatura's set: pages whose text holds none of its snippets);
 * CORPUS=trafilatura|web|readability|docs runs one;
 * WORST=n lists the n worst dev pages; DUMP=dir writes each trafilatura text to dir.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { register } from 'node:module';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { mainTextCollapsed, snippetsCollapsed, tokenCounts } from './lib/collapse.ts';
import { tokenF1 as tokenScore } from './lib/token-f1.ts';

// src/ imports without extensions, as the bundler resolves them (lib/ts-resolve.mjs adds `.ts` or `/index.ts`).
register('./lib/ts-resolve.mjs', import.meta.url);
const { extractPage } = await import('../src/domain/extract/index.ts');
const { parseHTML } = await import('linkedom');

const root = new URL('../', import.meta.url).pathname;
const corpora = join(root, '../shared/corpora');
const only = process.env.CORPUS;
const SPEC = {
  formats: ['text' as const],
  mainContent: true,
  include: [],
  exclude: [],
  fields: {},
};

interface Timed {
  text: string;
  ms: number;
  warnings: string[];
}

async function extract(html: Uint8Array, url: string, type = 'text/html'): Promise<Timed> {
  const start = process.cpuUsage();
  const result = await extractPage(html, type, url, SPEC);
  const used = process.cpuUsage(start);
  return { text: result.outputs.text ?? '', ms: (used.user + used.system) / 1000, warnings: result.record.warnings };
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
};
/** A page's CPU ms, and its name. */
type Cost = [ms: number, page: string];
function cpu(costs: Cost[]): string {
  const ms = costs.map(([m]) => m);
  const [most, page] = costs.reduce((a, b) => (b[0] > a[0] ? b : a), [0, ''] as Cost);
  const q = (x: number) => quantile(ms, x).toFixed(2);
  return `CPU ms/page median ${q(0.5)} p90 ${q(0.9)} p99 ${q(0.99)} max ${most.toFixed(2)} (${page})`;
}
const norm = (s: string) => s.replace(/\s+/g, ' ').trim();

interface Counts {
  tp: number;
  fp: number;
  fn: number;
  tn: number;
  ms: Cost[];
}

function line(name: string, c: Counts): string {
  const p = c.tp / (c.tp + c.fp || 1);
  const r = c.tp / (c.tp + c.fn || 1);
  const f = (2 * c.tp) / (2 * c.tp + c.fp + c.fn);
  return `${name.padEnd(9)} P ${p.toFixed(3)} R ${r.toFixed(3)} F1 ${f.toFixed(3)} (${c.tp}/${c.tp + c.fn} found, ${c.fp}/${c.fp + c.tn} leaked) ${cpu(c.ms)}`;
}

async function trafilatura() {
  const dir = join(corpora, 'trafilatura-eval');
  const data = JSON.parse(readFileSync(join(dir, 'evaldata.json'), 'utf8')) as Record<
    string,
    { file: string; with: string[]; without: string[] }
  >;
  const halves: Counts[] = [0, 1].map(() => ({ tp: 0, fp: 0, fn: 0, tn: 0, ms: [] }));
  const worst: [number, string, string][] = [];
  const collapses: string[] = [];
  const dump = process.env.DUMP;
  if (dump) mkdirSync(dump, { recursive: true });
  for (const [i, [url, item]] of Object.entries(data).entries()) {
    const html = gunzipSync(readFileSync(join(dir, 'html', `${item.file}.gz`)));
    const { text, ms } = await extract(html, url);
    if (dump) writeFileSync(join(dump, `${item.file.replace(/\.html?$/, '')}.txt`), text);
    const normal = norm(text);
    const a = item.with.filter((w) => normal.includes(norm(w))).length;
    const b = item.without.filter((w) => normal.includes(norm(w))).length;
    const half = halves[i % 2] as Counts;
    half.tp += a;
    half.fp += b;
    half.fn += item.with.length - a;
    half.tn += item.without.length - b;
    half.ms.push([ms, item.file]);
    if (i % 2 === 0) worst.push([item.with.length - a + b, `${item.file} (-${item.with.length - a} +${b})`, url]);
    if (snippetsCollapsed(text, a, item.with.length)) collapses.push(`${item.file} ${i % 2 ? 'held' : 'dev'}`);
  }
  const [dev, held] = halves as [Counts, Counts];
  const all = {
    tp: dev.tp + held.tp,
    fp: dev.fp + held.fp,
    fn: dev.fn + held.fn,
    tn: dev.tn + held.tn,
    ms: [...dev.ms, ...held.ms],
  };
  console.log('trafilatura-eval (990 pages)');
  console.log(`  ${line('dev', dev)}\n  ${line('held-out', held)}\n  ${line('all', all)}`);
  const listed = collapses.length ? ` (${collapses.join(', ')})` : '';
  console.log(`  collapses (lib/collapse.ts: none of 2+ snippets found, or nothing): ${collapses.length}${listed}`);
  const n = Number(process.env.WORST ?? 0);
  for (const [miss, file] of worst.sort((x, y) => y[0] - x[0]).slice(0, n))
    if (miss) console.log(`    ${miss} ${file}`);
}

interface WebCounts extends Counts {
  /** Token counts, micro-averaged over pages as score.py does: overlap, extracted, truth. */
  ttp: number;
  tgot: number;
  ttruth: number;
}

function webLine(name: string, c: WebCounts): string {
  const p = c.ttp / (c.tgot || 1);
  const r = c.ttp / (c.ttruth || 1);
  return `${line(name, c)}\n            tokens P ${p.toFixed(3)} R ${r.toFixed(3)} F1 ${((2 * p * r) / (p + r || 1)).toFixed(3)}`;
}

/** web-content-2025 (604 modern pages): snippet F1 and token F1 as its score.py, by half, and its collapses. */
async function webContent() {
  const dir = join(corpora, 'web-content-2025');
  if (!existsSync(dir)) return console.log(`web-content-2025: not at ${dir}`);
  const data = JSON.parse(readFileSync(join(dir, 'evaldata.json'), 'utf8')) as Record<
    string,
    { file: string; with: string[]; without: string[]; main_content: string }
  >;
  const halves: WebCounts[] = [0, 1].map(() => ({ tp: 0, fp: 0, fn: 0, tn: 0, ms: [], ttp: 0, tgot: 0, ttruth: 0 }));
  const collapses: string[] = [];
  const dump = process.env.DUMP;
  if (dump) mkdirSync(dump, { recursive: true });
  for (const [i, [url, item]] of Object.entries(data).entries()) {
    const html = gunzipSync(readFileSync(join(dir, 'html', `${item.file}.gz`)));
    const { text, ms } = await extract(html, url);
    if (dump) writeFileSync(join(dump, `${item.file.replace(/\.html?$/, '')}.txt`), text);
    const normal = norm(text);
    const a = item.with.filter((w) => normal.includes(norm(w))).length;
    const b = item.without.filter((w) => normal.includes(norm(w))).length;
    const tokens = tokenCounts(text, item.main_content);
    const half = halves[i % 2] as WebCounts;
    Object.assign(half, {
      tp: half.tp + a,
      fp: half.fp + b,
      fn: half.fn + item.with.length - a,
      tn: half.tn + item.without.length - b,
      ttp: half.ttp + tokens.kept,
      tgot: half.tgot + tokens.got,
      ttruth: half.ttruth + tokens.truth,
    });
    half.ms.push([ms, item.file]);
    if (mainTextCollapsed(tokens))
      collapses.push(
        `${item.file} ${i % 2 ? 'held' : 'dev'} kept ${tokens.kept}/${tokens.truth} tokens (${tokens.got} out) ${url}`,
      );
  }
  const [dev, held] = halves as [WebCounts, WebCounts];
  const all: WebCounts = {
    tp: dev.tp + held.tp,
    fp: dev.fp + held.fp,
    fn: dev.fn + held.fn,
    tn: dev.tn + held.tn,
    ms: [...dev.ms, ...held.ms],
    ttp: dev.ttp + held.ttp,
    tgot: dev.tgot + held.tgot,
    ttruth: dev.ttruth + held.ttruth,
  };
  console.log(`web-content-2025 (${Object.keys(data).length} pages)`);
  console.log(`  ${webLine('dev', dev)}\n  ${webLine('held-out', held)}\n  ${webLine('all', all)}`);
  console.log(`  collapses (lib/collapse.ts: under a fifth of the main text's tokens, or none): ${collapses.length}`);
  for (const c of collapses) console.log(`    ${c}`);
}

/** Token F1 with the short names the report uses. */
function tokenF1(got: string, want: string): { p: number; r: number; f: number } {
  const { precision, recall, f1 } = tokenScore(got, want);
  return { p: precision, r: recall, f: f1 };
}

function summary(name: string, scores: { p: number; r: number; f: number; name: string }[], ms: Cost[]) {
  const mean = (k: 'p' | 'r' | 'f') => scores.reduce((s, x) => s + x[k], 0) / (scores.length || 1);
  console.log(
    `${name}: ${scores.length} pages, token F1 ${mean('f').toFixed(3)} (P ${mean('p').toFixed(3)} R ${mean('r').toFixed(3)}), under 0.9: ${scores.filter((s) => s.f < 0.9).length}; ${cpu(ms)}`,
  );
  const n = Number(process.env.WORST ?? 0);
  for (const s of [...scores].sort((a, b) => a.f - b.f).slice(0, n))
    console.log(`    ${s.f.toFixed(3)} P ${s.p.toFixed(3)} R ${s.r.toFixed(3)} ${s.name}`);
}

async function readability() {
  const dir = join(corpora, 'readability-test-pages');
  const scores: { p: number; r: number; f: number; name: string }[] = [];
  const ms: Cost[] = [];
  for (const name of readdirSync(dir).sort()) {
    if (!existsSync(join(dir, name, 'source.html'))) continue;
    // As bench:extract posts them: declared UTF-8.
    const got = await extract(
      readFileSync(join(dir, name, 'source.html')),
      'http://fakehost/test/page.html',
      'text/html; charset=utf-8',
    );
    const want = parseHTML(readFileSync(join(dir, name, 'expected.html'), 'utf8')).document.documentElement;
    scores.push({ ...tokenF1(got.text, want?.textContent ?? ''), name });
    ms.push([got.ms, name]);
  }
  summary('readability-test-pages', scores, ms);
}

async function docs() {
  const dir = process.env.DOCS_TRUTH ?? '/work/corpora/docs-truth';
  if (!existsSync(dir)) return console.log(`docs: no truth at ${dir}`);
  for (const set of readdirSync(dir).filter((f) => f.endsWith('.jsonl'))) {
    const scores: { p: number; r: number; f: number; name: string }[] = [];
    const ms: Cost[] = [];
    let h1First = 0;
    let leaks = 0;
    for (const row of readFileSync(join(dir, set), 'utf8').split('\n').filter(Boolean)) {
      const truth = JSON.parse(row) as { file: string; url?: string; text: string; h1?: string; navTexts?: string[] };
      if (!existsSync(truth.file)) continue;
      const got = await extract(readFileSync(truth.file), truth.url ?? `file://${truth.file}`);
      scores.push({ ...tokenF1(got.text, truth.text), name: truth.file });
      ms.push([got.ms, truth.file]);
      if (truth.h1 && norm(got.text).startsWith(norm(truth.h1))) h1First++;
      if ((truth.navTexts ?? []).some((nav) => norm(got.text).includes(norm(nav)))) leaks++;
    }
    summary(`docs ${set}`, scores, ms);
    console.log(`    h1 first: ${h1First}/${scores.length}; pages leaking navigation: ${leaks}`);
  }
}

if (!existsSync(corpora)) {
  console.log(`measure:extract: no corpora at ${corpora}; nothing to measure.`);
  process.exit(0);
}
if (!only || only === 'trafilatura') await trafilatura();
if (!only || only === 'web') await webContent();
if (!only || only === 'readability') await readability();
if (!only || only === 'docs') await docs();
