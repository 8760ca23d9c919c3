/**
 * npm run bench:peer -- edgecrawl beside Crawlee, on the same loopback site, at the same concurrency, in the same
 * run. Crawlee is installed into a temporary folder on first use, never as a dependency of edgecrawl.
 *
 * Concurrency C means, for edgecrawl, FETCH_CONCURRENCY=C (requests in flight per consumer invocation; its
 * batches stay at 100 messages); for Crawlee, maxConcurrency C. The site records how many requests were
 * really in flight at once, and the table shows it. Crawlee is given its best chance: storage in memory
 * (persistStorage: false, faster here than its default on-disk storage), and two runs per round, one with its
 * autoscaling up to C and one fixed at C (minConcurrency = C); the faster of the two counts. edgecrawl runs
 * with every feature on: robots.txt, the host gate, bodies to R2, pages and links to D1.
 *
 * Crawlee's plain crawl is CheerioCrawler reading each page's title (scripts/peer/crawlee.mjs). With EXTRACT (the
 * formats edgecrawl extracts from each page, e.g. markdown,metadata), Crawlee also does the same job as a user of
 * it would write it (scripts/peer/crawlee-extract.mjs): JSDOMCrawler, @mozilla/readability for the main content,
 * turndown with its GFM plugin for markdown, and the page's metadata; the table then compares edgecrawl with both.
 *
 * Sites: SITE=bench (default), the synthetic site: PAGES (5000), PAGE_KB (40), LINKS (20), LATENCY_MS (0).
 * SITE=docs, or DOCS_DIR=<folder>: a real documentation set served statically over loopback (default
 * /usr/share/doc/python3.11/html, Python's Sphinx docs from Debian's python3.11-doc; skipped with a message when
 * absent), crawled whole from its index.html within its host by all three; the distinct HTML pages the site served
 * each crawl are counted and compared.
 * JOB_MODES (auto,fixed): which of Crawlee's same-job runs to make, autoscaled, fixed or both (the faster counts).
 * Env also: CONCURRENCY (comma list, 20), RUNS (3), PLOT (an SVG of pages/s against concurrency), PLOT_TITLE.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { crawlToEnd, median, startWorker } from './lib/local.ts';
import {
  type Crawler,
  docsTarget,
  preparePeer,
  type Result,
  runCrawlee,
  syntheticTarget,
  type Target,
} from './lib/peer.ts';
import { cpuSeconds, processGroup } from './lib/proc.ts';
import { lineChart } from './lib/svg.ts';

const CONCURRENCY = (process.env.CONCURRENCY ?? '20').split(',').map(Number);
const RUNS = Number(process.env.RUNS ?? 3);
const FORMATS = process.env.EXTRACT ? process.env.EXTRACT.split(',') : null;
// A plain crawl said explicitly (crawls extract markdown and metadata by default), as Crawlee's plain crawl.
const EXTRACT = FORMATS ? { extract: { formats: FORMATS } } : { extract: null };
const DOCS_DIR = process.env.DOCS_DIR ?? '/usr/share/doc/python3.11/html';
/** Which of Crawlee's same-job runs to make (each can take minutes on the docs site): auto, fixed or both. */
const JOB_MODES = (process.env.JOB_MODES ?? 'auto,fixed').split(',');
const SITE = process.env.DOCS_DIR ? 'docs' : (process.env.SITE ?? 'bench');

/** Crawlee's runs each round: plain, and with EXTRACT the same job too; each autoscaled and fixed. */
const CRAWLEE: Crawler[] = [
  { name: 'plain-auto', script: 'crawlee.mjs', fixed: false },
  { name: 'plain-fixed', script: 'crawlee.mjs', fixed: true },
  ...(FORMATS
    ? [
        { name: 'job-auto', script: 'crawlee-extract.mjs', fixed: false },
        { name: 'job-fixed', script: 'crawlee-extract.mjs', fixed: true },
      ].filter((c) => JOB_MODES.includes(c.fixed ? 'fixed' : 'auto'))
    : []),
];

async function runEdgecrawl(worker: Awaited<ReturnType<typeof startWorker>>, target: Target, ns: string) {
  const pgid = worker.process.pid as number;
  const cpuBefore = cpuSeconds(processGroup(pgid));
  const started = performance.now();
  const crawl = await crawlToEnd(worker, { seeds: [target.seed(ns)], ...target.request, ...EXTRACT }, 1_800_000, 100);
  const seconds = (performance.now() - started) / 1000;
  const pages = crawl.counts.stored;
  if (target.expected !== null && pages !== target.expected)
    throw new Error(`edgecrawl stored ${pages} of ${target.expected}`);
  return {
    pages,
    pagesPerSecond: pages / seconds,
    cpuMsPerPage: ((cpuSeconds(processGroup(pgid)) - cpuBefore) * 1000) / pages,
    inFlight: await target.inFlight(ns),
    served: target.served(ns),
  };
}

type Runs = Record<string, Result[]>;

/** RUNS rounds at one concurrency: edgecrawl, then each of Crawlee's runs, on fresh namespaces of the site. */
async function round(target: Target, peerDir: string, concurrency: number): Promise<Runs> {
  const worker = await startWorker(
    { HOST_MIN_INTERVAL_MS: '0', HOST_MAX_CONCURRENCY: '1000', FETCH_CONCURRENCY: String(concurrency) },
    process.env.BATCH_TIMEOUT ? { batchTimeout: Number(process.env.BATCH_TIMEOUT) } : {},
  );
  const runs: Runs = { edgecrawl: [], ...Object.fromEntries(CRAWLEE.map((c) => [c.name, []])) };
  try {
    for (let run = 0; run < RUNS; run++) {
      const ns = `peer${concurrency}r${run}${Date.now().toString(36)}`;
      const done = (name: string, r: Result) => {
        runs[name]?.push(r);
        console.log(
          `  ${name}: ${r.pages} pages, ${r.pagesPerSecond.toFixed(1)} pages/s, ${r.cpuMsPerPage.toFixed(2)} CPU ms/page`,
        );
      };
      done('edgecrawl', await runEdgecrawl(worker, target, `${ns}e`));
      for (const crawler of CRAWLEE)
        done(crawler.name, await runCrawlee(peerDir, crawler, target, `${ns}${crawler.name}`, concurrency));
      const line = Object.entries(runs).map(([name, r]) => `${name} ${r.at(-1)?.pagesPerSecond.toFixed(1)}`);
      console.log(`C=${concurrency} run ${run + 1} (pages/s): ${line.join(', ')}`);
    }
  } finally {
    await worker.stop();
  }
  return runs;
}

const med = (results: Result[]): Result => ({
  pages: median(results.map((r) => r.pages)),
  pagesPerSecond: median(results.map((r) => r.pagesPerSecond)),
  cpuMsPerPage: median(results.map((r) => r.cpuMsPerPage)),
  inFlight: Math.max(...results.map((r) => r.inFlight)),
  served: results[0]?.served ?? null,
});
const best = (a: Result, b: Result) => (a.pagesPerSecond >= b.pagesPerSecond ? a : b);
const bestOf = (results: Result[]) => results.reduce(best);

interface Row {
  concurrency: number;
  edgecrawl: Result;
  auto: Result;
  fixed: Result;
  plain: Result;
  job: Result | null;
  /** Distinct HTML pages served to each crawl of the round, when the site counts them. */
  served: string | null;
}

function summarize(concurrency: number, runs: Runs): Row {
  const m = (name: string) => med(runs[name] ?? []);
  const [auto, fixed] = [m('plain-auto'), m('plain-fixed')];
  const served = Object.values(runs)
    .flat()
    .map((r) => r.served);
  return {
    concurrency,
    edgecrawl: m('edgecrawl'),
    auto,
    fixed,
    plain: best(auto, fixed),
    job: FORMATS ? bestOf(['job-auto', 'job-fixed'].filter((name) => (runs[name] ?? []).length > 0).map(m)) : null,
    served: served.every((s) => s === null) ? null : [...new Set(served)].join('/'),
  };
}

const cell = (r: Result) =>
  `${r.pagesPerSecond.toFixed(1).padStart(6)} (${r.cpuMsPerPage.toFixed(2)}, ${r.inFlight})`.padEnd(20);

function printPlain(rows: Row[], latencyMs: number): void {
  console.log(
    'concurrency | bound   | edgecrawl            | Crawlee autoscaled   | Crawlee fixed        | vs Crawlee best',
  );
  for (const { concurrency, edgecrawl, auto, fixed, plain } of rows) {
    const bound = latencyMs > 0 ? ((concurrency * 1000) / latencyMs).toFixed(0) : '-';
    console.log(
      `${String(concurrency).padStart(11)} | ${bound.padStart(7)} | ${cell(edgecrawl)} | ${cell(auto)} | ${cell(fixed)} | ${(edgecrawl.pagesPerSecond / plain.pagesPerSecond).toFixed(2).padStart(14)}x`,
    );
    if (latencyMs > 0) {
      const share = (r: Result) => `${((100 * r.pagesPerSecond * latencyMs) / (concurrency * 1000)).toFixed(0)}%`;
      console.log(
        `${''.padStart(11)}   of the concurrency bound: edgecrawl ${share(edgecrawl)}, Crawlee best ${share(plain)}`,
      );
    }
  }
}

function printExtract(rows: Row[]): void {
  console.log(
    `concurrency | edgecrawl, ${FORMATS?.join('+')} | Crawlee plain (best)  | Crawlee same job (best) | vs plain | vs same job | pages (e / plain / job; HTML served)`,
  );
  for (const { concurrency, edgecrawl, plain, job, served } of rows) {
    if (!job) continue;
    const ratio = (r: Result) => `${(edgecrawl.pagesPerSecond / r.pagesPerSecond).toFixed(2)}x`;
    console.log(
      `${String(concurrency).padStart(11)} | ${cell(edgecrawl).padEnd(24)} | ${cell(plain).padEnd(21)} | ${cell(job).padEnd(23)} | ${ratio(plain).padStart(8)} | ${ratio(job).padStart(11)} | ${edgecrawl.pages} / ${plain.pages} / ${job.pages}${served ? `; ${served}` : ''}`,
    );
  }
}

function plot(rows: Row[], describe: string, latencyMs: number): void {
  if (!process.env.PLOT) return;
  const points = (pick: (r: Row) => Result | null) =>
    rows.map((r) => [r.concurrency, pick(r)?.pagesPerSecond ?? 0] as [number, number]);
  const series = [
    {
      name: `edgecrawl (R2 + D1 writes${FORMATS ? `, ${FORMATS.join('+')}` : ''})`,
      color: '#f38020',
      points: points((r) => r.edgecrawl),
    },
    {
      name: 'Crawlee CheerioCrawler, best of autoscaled and fixed, in memory',
      color: '#2b6cb0',
      points: points((r) => r.plain),
    },
  ];
  if (FORMATS)
    series.push({
      name: 'Crawlee JSDOMCrawler + Readability + turndown',
      color: '#38a169',
      points: points((r) => r.job),
    });
  if (latencyMs > 0)
    series.push({
      name: `concurrency bound (C / ${latencyMs} ms)`,
      color: '#999999',
      points: rows.map((r) => [r.concurrency, (r.concurrency * 1000) / latencyMs] as [number, number]),
    });
  const title = process.env.PLOT_TITLE ?? `pages/s vs concurrency: ${describe}`;
  writeFileSync(
    process.env.PLOT,
    lineChart({ title, xLabel: 'concurrency (requests in flight)', yLabel: 'pages/s', series }),
  );
  console.log(`\nplot written to ${process.env.PLOT}`);
}

if (SITE === 'docs' && !existsSync(DOCS_DIR)) {
  console.log(
    `bench:peer: no documentation set at ${DOCS_DIR} (Debian's python3.11-doc, or DOCS_DIR); nothing to run.`,
  );
  process.exit(0);
}
const peerDir = preparePeer(FORMATS !== null);
const target = SITE === 'docs' ? await docsTarget(DOCS_DIR) : await syntheticTarget();
const rows: Row[] = [];
try {
  for (const concurrency of CONCURRENCY) rows.push(summarize(concurrency, await round(target, peerDir, concurrency)));
} finally {
  await target.stop();
}
console.log(`\n${target.describe}, median of ${RUNS} runs`);
console.log('(pages/s, CPU ms per page, most requests in flight at once as the site saw them):');
printPlain(rows, target.latencyMs);
if (FORMATS) printExtract(rows);
plot(rows, target.describe, target.latencyMs);
