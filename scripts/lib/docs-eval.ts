/**
 * bench:extract on the docs truth (CORPUS=docs, lib/docs-truth.ts): every sampled page of every installed
 * documentation set is extracted by each Worker (the bench Worker's `docs` variant: Markdown and text, main content
 * detected), pages interleaved between the Workers, and scored (lib/docs-score.ts). CPU per page is the workerd
 * threads' CPU time from the scheduler (/proc schedstat) read before and after each request, the Workers otherwise
 * idle: the isolate's clocks stand still during CPU work, so it is measured from outside. SAMPLE pages per set
 * (default 100), RUNS passes (each page's CPU: the median), SETS=a,b to measure only those sets; DUMP=<dir> writes
 * each Worker's Markdown of each page there (<dir>/<worker n>/<set>/<page>.md). The page-type classifier
 * (lib/page-type.ts) labels every page too, and its counts are printed: a check of it, all of these being docs.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { printSummary, writeWorst } from './docs-report.ts';
import { type Extraction, type PageScore, scorePage } from './docs-score.ts';
import { type DocsPage, installedSets, sampleSet } from './docs-truth.ts';
import { type BenchWorker, median } from './local.ts';
import { classifyPage } from './page-type.ts';
import { cpuNanos, processesNamed } from './proc.ts';

interface Timed {
  worker: BenchWorker;
  pids: number[];
}

async function extract(worker: BenchWorker, page: DocsPage, html: Uint8Array): Promise<Extraction> {
  // No charset named: the page's BOM, <meta> or detection decides, as for a server that sends none.
  const query = new URLSearchParams({ variant: 'docs', n: '1', url: page.url, type: 'text/html' });
  const res = await fetch(`${worker.url}/?${query}`, { method: 'POST', body: html });
  if (!res.ok) throw new Error(`${page.file}: http ${res.status}`);
  return (await res.json()) as Extraction;
}

/** One extraction and the workerd CPU milliseconds it took. */
async function timed(t: Timed, page: DocsPage, html: Uint8Array): Promise<{ out: Extraction; ms: number }> {
  const before = cpuNanos(t.pids);
  const out = await extract(t.worker, page, html);
  return { out, ms: (cpuNanos(t.pids) - before) / 1e6 };
}

function dump(worker: number, page: DocsPage, out: Extraction): void {
  if (!process.env.DUMP) return;
  const path = `${join(process.env.DUMP, String(worker), page.url.replace(/^http:\/\/docs\.local\//, ''))}.md`;
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, out.markdown);
}

/** Every page through every Worker, RUNS times: each Worker's scores, page by page. */
async function measure(pages: DocsPage[], workers: Timed[], runs: number): Promise<PageScore[][]> {
  for (const page of pages.slice(0, 10)) for (const t of workers) await timed(t, page, readFileSync(page.file)); // warm-up
  const scores = workers.map((): PageScore[] => []);
  for (const page of pages) {
    const html = readFileSync(page.file);
    for (const [i, t] of workers.entries()) {
      const ms: number[] = [];
      let out: Extraction = { markdown: '', text: '' };
      for (let r = 0; r < runs; r++) {
        const run = await timed(t, page, html);
        out = run.out;
        ms.push(run.ms);
      }
      scores[i]?.push(scorePage(page, out, median(ms)));
      dump(i, page, out);
    }
  }
  return scores;
}

/** How many pages the page-type classifier gives each type: a check of it, since every page here is documentation. */
function typeCounts(pages: DocsPage[]): string {
  const counts = new Map<string, number>();
  for (const page of pages) {
    const { type } = classifyPage(readFileSync(page.file, 'utf8'), page.url);
    counts.set(type, (counts.get(type) ?? 0) + 1);
  }
  return [...counts].map(([type, n]) => `${type} ${n}`).join(', ');
}

export async function benchDocs(workers: { label: string; worker: BenchWorker }[], runs: number): Promise<void> {
  const sets = installedSets().filter((s) => !process.env.SETS || process.env.SETS.split(',').includes(s.name));
  if (sets.length === 0) {
    console.log('bench:extract: no documentation set installed (see scripts/lib/docs-sets.ts); nothing to measure.');
    return;
  }
  const pages = sets.flatMap((set) => sampleSet(set, Number(process.env.SAMPLE ?? 100)));
  const types = typeCounts(pages); // before the timing, which it would disturb
  const timedWorkers = workers.map(({ worker }) => ({ worker, pids: processesNamed(worker.pgid, /workerd/) }));
  const scores = await measure(pages, timedWorkers, runs);
  console.log(`\ndocs truth: ${pages.length} pages of ${sets.length} sets, ${runs} runs, pages interleaved`);
  console.log(`  page types (lib/page-type.ts, from each page's markup; all are docs by construction): ${types}`);
  for (const [i, { label }] of workers.entries()) printSummary(label, scores[i] ?? []);
  console.log(`\nworst pages: ${writeWorst(workers.map((w, i) => ({ label: w.label, scores: scores[i] ?? [] })))}`);
}
