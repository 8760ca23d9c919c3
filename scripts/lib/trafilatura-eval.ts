/**
 * bench:extract on trafilatura's evaluation set (../shared/corpora/trafilatura-eval): 990 real pages with human-chosen
 * snippets of main content ("with") and of boilerplate ("without"). Each page is extracted by each Worker (pages
 * interleaved, so both see the same machine), its text written one file per page and scored by the corpus's own
 * score.py (whitespace-normalized substring matching, as trafilatura's evaluation does). CPU per page is the Worker's
 * workerd CPU time (user + system, from /proc) over the pass, divided by the pages: the isolate's clocks stand still
 * during CPU work, so it is measured from outside.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { type BenchWorker, median } from './local.ts';
import { cpuSeconds, processGroup } from './proc.ts';

interface Page {
  url: string;
  file: string;
}

interface PassResult {
  cpuMsPerPage: number;
  texts: Map<string, string>;
}

const textName = (file: string) => `${file.replace(/\.html?$/, '')}.txt`;

function pagesOf(corpus: string): Page[] {
  const data = JSON.parse(readFileSync(join(corpus, 'evaldata.json'), 'utf8')) as Record<string, { file: string }>;
  return Object.entries(data).map(([url, { file }]) => ({ url, file }));
}

async function extractText(worker: BenchWorker, page: Page, html: Uint8Array): Promise<string> {
  // No charset named: the page's BOM, <meta> or detection decides, as for a server that sends none.
  const query = new URLSearchParams({ variant: 'edgecrawl', n: '1', url: page.url, type: 'text/html' });
  const res = await fetch(`${worker.url}/?${query}`, { method: 'POST', body: html });
  if (!res.ok) throw new Error(`${page.file}: http ${res.status}`);
  return ((await res.json()) as { text: string }).text;
}

const workerdCpu = (worker: BenchWorker) => cpuSeconds(processGroup(worker.pgid), /workerd/);

/** One pass over the corpus with every Worker, page by page. */
async function pass(corpus: string, pages: Page[], workers: BenchWorker[]): Promise<PassResult[]> {
  const results = workers.map((): PassResult => ({ cpuMsPerPage: 0, texts: new Map() }));
  const before = workers.map(workerdCpu);
  for (const page of pages) {
    const html = gunzipSync(readFileSync(join(corpus, 'html', `${page.file}.gz`)));
    for (const [i, worker] of workers.entries())
      results[i]?.texts.set(page.file, await extractText(worker, page, html));
  }
  for (const [i, worker] of workers.entries()) {
    const result = results[i];
    if (result) result.cpuMsPerPage = ((workerdCpu(worker) - (before[i] ?? 0)) * 1000) / pages.length;
  }
  return results;
}

/** The corpus's score.py on one Worker's texts: its summary line. */
function score(corpus: string, texts: Map<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'edgecrawl-trafilatura-'));
  mkdirSync(dir, { recursive: true });
  for (const [file, text] of texts) writeFileSync(join(dir, textName(file)), text);
  const out = execFileSync('python3', [join(corpus, 'score.py'), dir], { encoding: 'utf8' });
  return out.split('\n')[0] ?? '';
}

export async function benchTrafilatura(
  corpus: string,
  workers: { label: string; worker: BenchWorker }[],
  runs: number,
) {
  const pages = pagesOf(corpus).slice(0, Number(process.env.PAGES ?? Number.POSITIVE_INFINITY));
  const warm = pages.slice(0, 20);
  await pass(
    corpus,
    warm,
    workers.map((w) => w.worker),
  ); // a warm-up, not counted
  const passes: PassResult[][] = [];
  for (let r = 0; r < runs; r++)
    passes.push(
      await pass(
        corpus,
        pages,
        workers.map((w) => w.worker),
      ),
    );
  console.log(`\ntrafilatura-eval: ${pages.length} pages, ${runs} passes, pages interleaved between the Workers`);
  for (const [i, { label }] of workers.entries()) {
    const cpu = median(passes.map((p) => p[i]?.cpuMsPerPage ?? 0));
    const last = passes.at(-1)?.[i]?.texts ?? new Map<string, string>();
    console.log(`  ${label.padEnd(24)} ${score(corpus, last)}`);
    console.log(`  ${''.padEnd(24)} workerd CPU ${cpu.toFixed(2)} ms per page (median of ${runs} passes)`);
  }
  const [first, ...others] = workers.map((_, i) => passes.at(-1)?.[i]?.texts);
  for (const [k, other] of others.entries()) {
    const differ = pages.filter((p) => first?.get(p.file) !== other?.get(p.file)).length;
    console.log(`  pages whose text differs, ${workers[0]?.label} vs ${workers[k + 1]?.label}: ${differ}`);
  }
}
