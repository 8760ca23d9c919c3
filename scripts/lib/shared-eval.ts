/**
 * bench:extract on the shared sets (../shared/corpora): trafilatura-eval (990 pages with human-chosen snippets of main
 * content, "with", and of boilerplate, "without") and web-content-2025 (604 modern pages, the same snippets plus each
 * page's whole main text, `main_content`, labelled by language models). Each page is extracted by each Worker (pages
 * interleaved, so both see the same machine), its text written one file per page and scored by the corpus's own
 * score.py: its summary lines per Worker. Then (lib/shared-report.ts), scored the same way here, checked against
 * score.py's counts:
 * - by half: dev (even index in evaldata.json's order) and held-out (odd), as measure:extract splits the sets, and all;
 *   snippet P, R, F1 and, on a set with main texts, score.py's token P, R, F1 (micro-averaged over pages); per Worker
 *   and after - before;
 * - by page type (lib/page-type.ts labels each page from its own markup and address, not from the eval's labels):
 *   pages, P, R, F1 (token F1) and median CPU per type;
 * - the collapses (lib/collapse.ts, as measure:extract counts them): pages whose text lost the main text, per Worker
 *   (and this tree in Node), and each page collapsed in any with every Worker's tokens kept (or snippets found).
 * CPU: each request's workerd CPU, from the scheduler's count of the workerd threads' run time
 * (/proc/<pid>/task/<tid>/schedstat, in nanoseconds) read just before and after it. Requests are sequential and the
 * Workers otherwise idle, so the difference is that page's; schedstat, unlike /proc's user + system times (10 ms
 * ticks, too coarse for one page), is exact, and the isolate's own clocks stand still during CPU work. It includes
 * the request's own handling (HTTP, the JSON answer): the floor, an empty page's CPU (median of 20), is printed beside
 * it. RUNS passes (each page's CPU: the median of its runs), PAGES the first n pages only; mean, median, p90, p99, max
 * and the slowest pages. Then, unless NODE_CPU=0, this tree in Node, timed as measure:extract times it (process CPU
 * around extractPage, formats text), against the goal: median <= 12 ms, p99 <= 100 ms, no page under 4 MiB over 250 ms.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { type BenchWorker, median } from './local.ts';
import { nodeCpu } from './node-extract-cpu.ts';
import { classifyPage, type PageType } from './page-type.ts';
import { cpuNanos, processesNamed } from './proc.ts';
import {
  CPU_HEAD,
  type EvalPage,
  type Outcome,
  printCollapses,
  printCpu,
  printHalves,
  printTypes,
  type Summary,
  scoreOutcome,
  summarize,
} from './shared-report.ts';

interface Timed {
  label: string;
  worker: BenchWorker;
  pids: number[];
}

const textName = (file: string) => `${file.replace(/\.html?$/, '')}.txt`;
const htmlOf = (corpus: string, page: { file: string }) =>
  gunzipSync(readFileSync(join(corpus, 'html', `${page.file}.gz`)));

/**
 * The pages in evaldata.json's order, each with its half and its type (read from the page, before any timing); and
 * how many the set has.
 */
function pagesOf(corpus: string, limit: number): { pages: EvalPage[]; total: number } {
  const data = JSON.parse(readFileSync(join(corpus, 'evaldata.json'), 'utf8')) as Record<
    string,
    { file: string; with: string[]; without: string[]; main_content?: string }
  >;
  const entries = Object.entries(data);
  const pages = entries.slice(0, limit).map(([url, { main_content, ...item }], i): EvalPage => {
    const html = htmlOf(corpus, item);
    // The markers the classifier reads are ASCII: UTF-8 decoding, whatever the page's charset, reads them alike.
    const type: PageType = classifyPage(new TextDecoder().decode(html), url).type;
    const half = i % 2 === 0 ? 'dev' : 'held-out';
    return { url, ...item, mainContent: main_content, half, type, bytes: html.byteLength };
  });
  return { pages, total: entries.length };
}

/** One extraction by one Worker and the workerd CPU milliseconds it took. */
async function timed(t: Timed, page: { url: string; file: string }, html: Uint8Array) {
  // No charset named: the page's BOM, <meta> or detection decides, as for a server that sends none.
  const query = new URLSearchParams({ variant: 'edgecrawl', n: '1', url: page.url, type: 'text/html' });
  const before = cpuNanos(t.pids);
  const res = await fetch(`${t.worker.url}/?${query}`, { method: 'POST', body: html });
  if (!res.ok) throw new Error(`${page.file}: http ${res.status}`);
  const text = ((await res.json()) as { text: string }).text;
  return { text, ms: (cpuNanos(t.pids) - before) / 1e6 };
}

/** RUNS passes over the pages, each page through every Worker in turn: texts and per-page CPU (median of runs). */
async function measure(corpus: string, pages: EvalPage[], workers: Timed[], runs: number): Promise<Outcome[]> {
  for (const page of pages.slice(0, 20)) for (const t of workers) await timed(t, page, htmlOf(corpus, page)); // warm-up
  const outcomes = workers.map((t): Outcome => ({ label: t.label, texts: new Map(), cpuMs: new Map() }));
  const runsMs = workers.map(() => new Map<string, number[]>());
  for (let r = 0; r < runs; r++)
    for (const page of pages) {
      const html = htmlOf(corpus, page);
      for (const [i, t] of workers.entries()) {
        const { text, ms } = await timed(t, page, html);
        outcomes[i]?.texts.set(page.file, text);
        const seen = runsMs[i]?.get(page.file) ?? [];
        runsMs[i]?.set(page.file, [...seen, ms]);
      }
    }
  for (const [i, o] of outcomes.entries()) for (const [file, ms] of runsMs[i] ?? []) o.cpuMs.set(file, median(ms));
  return outcomes;
}

/** A request's CPU with nothing to extract: what every page's figure includes besides extraction. */
async function floorMs(t: Timed): Promise<number> {
  const ms: number[] = [];
  for (let i = 0; i < 20; i++)
    ms.push((await timed(t, { url: 'http://fakehost/', file: 'empty' }, new Uint8Array())).ms);
  return median(ms);
}

/** The corpus's score.py on one Worker's texts: its summary lines (not its list of the worst pages, indented). */
function score(corpus: string, texts: Map<string, string>): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'edgecrawl-score-'));
  try {
    for (const [file, text] of texts) writeFileSync(join(dir, textName(file)), text);
    const out = execFileSync('python3', [join(corpus, 'score.py'), dir], { encoding: 'utf8' });
    return out.split('\n').filter((line) => line !== '' && !line.startsWith(' '));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** CPU per page: each Worker's, beside its floor; then, when measured, this tree's in Node. */
function printCpus(pages: EvalPage[], outcomes: Outcome[], floors: number[], node: Outcome | null, runs: number) {
  console.log(
    `\n  workerd CPU ms per page (schedstat of the workerd threads around each request; median of ${runs} runs)`,
  );
  console.log(CPU_HEAD);
  for (const [i, o] of outcomes.entries()) printCpu(pages, o, `(floor: an empty page ${floors[i]?.toFixed(1)} ms)`);
  if (!node) return;
  console.log('\n  Node CPU ms per page (process CPU around extractPage, formats text, as measure:extract)');
  console.log(CPU_HEAD);
  printCpu(pages, node, '(goal: median <= 12, p99 <= 100, none under 4 MiB over 250)', 250);
}

/** One shared set (a directory of ../shared/corpora with evaldata.json, html/ and score.py) through the Workers. */
export async function benchSharedSet(
  corpus: string,
  workers: { label: string; worker: BenchWorker }[],
  runs: number,
): Promise<Summary[]> {
  const { pages, total } = pagesOf(corpus, Number(process.env.PAGES ?? Number.POSITIVE_INFINITY));
  const timedWorkers = workers.map((w) => ({ ...w, pids: processesNamed(w.worker.pgid, /workerd/) }));
  const outcomes = (await measure(corpus, pages, timedWorkers, runs)).map((o) => scoreOutcome(pages, o));
  const floors: number[] = [];
  for (const t of timedWorkers) floors.push(await floorMs(t));
  const node = process.env.NODE_CPU === '0' ? null : scoreOutcome(pages, await nodeCpu(corpus, pages, runs));
  const name = corpus.split('/').at(-1);
  console.log(`\n${name}: ${pages.length} pages, ${runs} passes, pages interleaved between the Workers`);
  const lines = outcomes.map((o) => score(corpus, o.texts));
  for (const [i, o] of outcomes.entries())
    for (const [j, line] of (lines[i] ?? []).entries()) console.log(`  ${(j ? '' : o.label).padEnd(24)} ${line}`);
  const [first, ...others] = outcomes;
  for (const other of others) {
    const differ = pages.filter((p) => first?.texts.get(p.file) !== other.texts.get(p.file)).length;
    console.log(`  pages whose text differs, ${first?.label} vs ${other.label}: ${differ}`);
  }
  printHalves(pages, outcomes, lines, pages.length === total);
  printTypes(pages, outcomes);
  printCollapses(pages, node ? [...outcomes, node] : outcomes);
  printCpus(pages, outcomes, floors, node, runs);
  return summarize(pages, outcomes);
}
