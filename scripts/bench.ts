/**
 * npm run bench -- crawler throughput on a synthetic loopback site, under `wrangler dev` with every
 * feature on (robots.txt, the host gate, R2 and D1 writes), politeness set wide open.
 * Env: PAGES (5000), PAGE_KB (40), LINKS (20), LATENCY_MS (0), RUNS (3), CONCURRENCY (FETCH_CONCURRENCY, default 50),
 * EXTRACT (formats to extract from each page, e.g. markdown,metadata; `default`: the API's default, markdown and
 * metadata; unset: none, a plain crawl, `extract: null` sent explicitly since crawls extract by default).
 * Prints pages/s, MB/s, CPU per page and peak workerd memory, medians over RUNS fresh crawls; timed from
 * outside the Worker (POST to completed), as Workers' clocks do not advance during CPU work. And what the crawl
 * costs on Cloudflare from its counted operations (GET /v1/crawls/:id/usage): $ per million pages and rows written
 * per page, against the targets (<= $5 per million pages, <= 2 D1 rows written per page).
 * Then POLITE_RUNS (RUNS) polite crawls of the same kind of site (PAGES_POLITE, 100 pages, at POLITE_INTERVAL_MS, 1000
 * ms: the default HOST_MIN_INTERVAL_MS), whose queue operations and cost per page are printed beside the unthrottled
 * ones.
 * BASELINE=<git revs, comma-separated>: the same crawls on each revision's Worker too (a temporary worktree sharing
 * this checkout's node_modules), in the same run, each variant's runs back to back on a fresh `wrangler dev`; a table
 * of the medians, before beside after, ends the output.
 */

import { join } from 'node:path';
import { baselineTree } from './lib/baseline-tree.ts';
import { api, crawlToEnd, median, startSites, startWorker, type Worker } from './lib/local.ts';
import { cpuSeconds, peakRssMiB, processGroup } from './lib/proc.ts';

const root = new URL('../', import.meta.url).pathname;

const PAGES = Number(process.env.PAGES ?? 5000);
const PAGE_KB = Number(process.env.PAGE_KB ?? 40);
const LINKS = Number(process.env.LINKS ?? 20);
const LATENCY_MS = Number(process.env.LATENCY_MS ?? 0);
const RUNS = Number(process.env.RUNS ?? 3);
const PAGES_POLITE = Number(process.env.PAGES_POLITE ?? 100);
const POLITE_INTERVAL_MS = Number(process.env.POLITE_INTERVAL_MS ?? 1000);
const POLITE_RUNS = Number(process.env.POLITE_RUNS ?? RUNS);
const BASELINES = (process.env.BASELINE ?? '').split(',').filter((rev) => rev !== '');
/** What the crawls extract: said explicitly, so the figures do not move with the API's default. */
function extractSetting(formats: string | undefined): { extract?: { formats: string[] } | null } {
  if (formats === undefined || formats === '') return { extract: null };
  return formats === 'default' ? {} : { extract: { formats: formats.split(',') } };
}
const EXTRACT = extractSetting(process.env.EXTRACT);

interface Cost {
  usdPerMillionPages: number;
  d1RowsWrittenPerPage: number;
  doRowsWrittenPerPage: number;
  queueOpsPerPage: number;
  breakdown: Record<string, number>;
}

interface UsageView {
  pages: number;
  operations: Record<string, number>;
  estimate: { usdPerMillionPages: number; breakdown: Record<string, number> };
}

/** The crawl's counted usage, once its last consumer has reported (the counts stop moving). */
async function costOf(worker: Worker, id: string): Promise<Cost> {
  let usage: UsageView = await api(worker, `/v1/crawls/${id}/usage`);
  for (let i = 0; i < 20; i++) {
    await new Promise((r) => setTimeout(r, 250));
    const again: UsageView = await api(worker, `/v1/crawls/${id}/usage`);
    if (JSON.stringify(again.operations) === JSON.stringify(usage.operations)) break;
    usage = again;
  }
  const perPage = (n: number | undefined) => (n ?? 0) / usage.pages;
  const perMillion = Object.fromEntries(
    Object.entries(usage.estimate.breakdown).map(([k, v]) => [k, Math.round((v / usage.pages) * 1e8) / 100]),
  );
  return {
    usdPerMillionPages: usage.estimate.usdPerMillionPages,
    d1RowsWrittenPerPage: perPage(usage.operations.d1RowsWritten),
    doRowsWrittenPerPage: perPage(usage.operations.durableObjectRowsWritten),
    queueOpsPerPage: perPage(usage.operations.queueOperations),
    breakdown: perMillion,
  };
}

type Sites = Awaited<ReturnType<typeof startSites>>;

interface BulkRun extends Cost {
  pagesPerSecond: number;
  mbPerSecond: number;
  cpuMsPerPage: number;
  workerdMsPerPage: number;
}

interface PoliteRun extends Cost {
  pagesPerSecond: number;
}

/** One bulk crawl of PAGES pages, politeness lifted: its speed, CPU and cost. */
async function bulkRun(worker: Worker, sites: Sites, run: number): Promise<BulkRun> {
  const pgid = worker.process.pid as number;
  const ns = `bench${run}${Date.now().toString(36)}`;
  const variant = `bench-${PAGES}-${PAGE_KB}-${LINKS}${LATENCY_MS ? `-d${LATENCY_MS}` : ''}`;
  const cpuBefore = cpuSeconds(processGroup(pgid));
  const workerdBefore = cpuSeconds(processGroup(pgid), /workerd/);
  const started = performance.now();
  const crawl = await crawlToEnd(
    worker,
    // maxPages null: PAGES may be more than a crawl's default budget.
    { seeds: [`${sites.siteA}/t/${ns}/${variant}/`], maxPages: null, ...EXTRACT },
    1_800_000,
    250,
  );
  const seconds = (performance.now() - started) / 1000;
  const cpu = cpuSeconds(processGroup(pgid)) - cpuBefore;
  const workerdCpu = cpuSeconds(processGroup(pgid), /workerd/) - workerdBefore;
  const stored = crawl.counts.stored;
  if (stored !== PAGES + 1)
    throw new Error(`run ${run}: stored ${stored} of ${PAGES + 1}: ${JSON.stringify(crawl.counts)}`);
  const page: { pages: { bytes: number }[] } = await api(worker, `/v1/crawls/${crawl.id}/pages?limit=1000`);
  const avgBytes = page.pages.reduce((sum, p) => sum + p.bytes, 0) / page.pages.length;
  return {
    pagesPerSecond: stored / seconds,
    mbPerSecond: (stored * avgBytes) / 1e6 / seconds,
    cpuMsPerPage: (cpu * 1000) / stored,
    workerdMsPerPage: (workerdCpu * 1000) / stored,
    ...(await costOf(worker, crawl.id)),
  };
}

/** One crawl of one host at POLITE_INTERVAL_MS: its speed and cost. */
async function politeRun(worker: Worker, sites: Sites): Promise<PoliteRun> {
  const ns = `polite${Date.now().toString(36)}`;
  const variant = `bench-${PAGES_POLITE}-${PAGE_KB}-${LINKS}`;
  const started = performance.now();
  const crawl = await crawlToEnd(
    worker,
    { seeds: [`${sites.siteA}/t/${ns}/${variant}/`], hostIntervalMs: POLITE_INTERVAL_MS, ...EXTRACT },
    1_800_000,
    250,
  );
  const seconds = (performance.now() - started) / 1000;
  if (crawl.counts.stored !== PAGES_POLITE + 1)
    throw new Error(`polite run: stored ${crawl.counts.stored} of ${PAGES_POLITE + 1}`);
  return { pagesPerSecond: crawl.counts.stored / seconds, ...(await costOf(worker, crawl.id)) };
}

interface VariantFigures {
  label: string;
  bulk: BulkRun[];
  polite: PoliteRun[];
  peakMiB: number;
}

/** A variant's Worker (this checkout's, or a baseline's config) started fresh, its bulk then its polite runs. */
async function measureVariant(label: string, sites: Sites, args: string[] = []): Promise<VariantFigures> {
  const worker = await startWorker(
    {
      HOST_MIN_INTERVAL_MS: '0',
      HOST_MAX_CONCURRENCY: '1000',
      ...(process.env.CONCURRENCY ? { FETCH_CONCURRENCY: process.env.CONCURRENCY } : {}),
    },
    { args },
  );
  try {
    const bulk: BulkRun[] = [];
    for (let run = 0; run < RUNS; run++) {
      bulk.push(await bulkRun(worker, sites, run));
      const r = bulk.at(-1) as BulkRun;
      console.log(
        `${label} run ${run + 1}: ${PAGES + 1} pages, ${r.pagesPerSecond.toFixed(1)} pages/s, $${r.usdPerMillionPages.toFixed(2)}/M`,
      );
    }
    const polite: PoliteRun[] = [];
    for (let run = 0; run < POLITE_RUNS; run++) {
      polite.push(await politeRun(worker, sites));
      const r = polite.at(-1) as PoliteRun;
      console.log(
        `${label} polite run ${run + 1}: ${r.pagesPerSecond.toFixed(2)} pages/s, $${r.usdPerMillionPages.toFixed(2)}/M`,
      );
    }
    return { label, bulk, polite, peakMiB: peakRssMiB(processGroup(worker.process.pid as number), /workerd/) };
  } finally {
    await worker.stop();
  }
}

/** The figures of one variant, as the bench has always printed them. */
function printVariant({ label, bulk, polite, peakMiB }: VariantFigures): void {
  const m = (pick: (r: BulkRun) => number) => median(bulk.map(pick));
  const extracting = process.env.EXTRACT ? `, extracting ${process.env.EXTRACT}` : '';
  console.log(
    `\n${label}: ${PAGES + 1} pages of ~${PAGE_KB} KB with ${LINKS} links, ${LATENCY_MS} ms latency${extracting}, median of ${RUNS} runs:`,
  );
  console.log(`  pages/s         ${m((r) => r.pagesPerSecond).toFixed(1)}`);
  console.log(`  MB/s            ${m((r) => r.mbPerSecond).toFixed(2)}`);
  console.log(
    `  CPU ms/page     ${m((r) => r.cpuMsPerPage).toFixed(2)} (workerd + wrangler), of which workerd ${m((r) => r.workerdMsPerPage).toFixed(2)}`,
  );
  console.log(`  peak workerd    ${peakMiB.toFixed(0)} MiB`);
  const usd = m((r) => r.usdPerMillionPages);
  const d1Rows = m((r) => r.d1RowsWrittenPerPage);
  console.log(
    `  $/million pages ${usd.toFixed(2)} (target <= 2: ${usd <= 2 ? 'met' : 'NOT met'}), counted operations at published prices`,
  );
  console.log(`  D1 rows/page    ${d1Rows.toFixed(3)} written`);
  console.log(`  DO rows/page    ${m((r) => r.doRowsWrittenPerPage).toFixed(3)} written`);
  console.log(`  queue ops/page  ${m((r) => r.queueOpsPerPage).toFixed(3)}`);
  const last = bulk.at(-1);
  if (last) console.log(`  cost breakdown (last run, $ per million pages): ${JSON.stringify(last.breakdown)}`);
  if (polite.length === 0) return;
  const p = (pick: (r: PoliteRun) => number) => median(polite.map(pick));
  const politeUsd = p((r) => r.usdPerMillionPages);
  console.log(
    `  polite, ${PAGES_POLITE + 1} pages of one host at ${POLITE_INTERVAL_MS} ms, median of ${polite.length}: ${p((r) => r.pagesPerSecond).toFixed(2)} pages/s, queue ops/page ${p((r) => r.queueOpsPerPage).toFixed(3)}, $${politeUsd.toFixed(2)}/M (target <= 4: ${politeUsd <= 4 ? 'met' : 'NOT met'})`,
  );
  const lastPolite = polite.at(-1);
  if (lastPolite) console.log(`  polite cost breakdown (last run): ${JSON.stringify(lastPolite.breakdown)}`);
}

const sites = await startSites(0);
const baselines = BASELINES.map((rev) => baselineTree(root, rev, 'edgecrawl-bench-baseline-'));
try {
  const figures: VariantFigures[] = [];
  for (const baseline of baselines)
    figures.push(
      await measureVariant(`baseline@${baseline.sha}`, sites, ['--config', join(baseline.dir, 'wrangler.toml')]),
    );
  figures.push(await measureVariant('this checkout', sites));
  for (const f of figures) printVariant(f);
  if (figures.length > 1) {
    console.log(
      `\n| variant | bulk $/M | bulk pages/s | queue ops/page | DO rows/page | D1 rows/page | polite $/M | polite pages/s |`,
    );
    console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
    for (const { label, bulk, polite } of figures) {
      const b = (pick: (r: BulkRun) => number, digits = 2) => median(bulk.map(pick)).toFixed(digits);
      const p = (pick: (r: PoliteRun) => number) => (polite.length ? median(polite.map(pick)).toFixed(2) : '-');
      console.log(
        `| ${label} | ${b((r) => r.usdPerMillionPages)} | ${b((r) => r.pagesPerSecond, 1)} | ${b((r) => r.queueOpsPerPage, 3)} | ${b((r) => r.doRowsWrittenPerPage, 3)} | ${b((r) => r.d1RowsWrittenPerPage, 3)} | ${p((r) => r.usdPerMillionPages)} | ${p((r) => r.pagesPerSecond)} |`,
      );
    }
  }
} finally {
  await sites.stop();
  for (const baseline of baselines) baseline.remove();
}
