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
 * Then one polite crawl of the same kind of site (PAGES_POLITE, 100 pages, at POLITE_INTERVAL_MS, 1000 ms: the default
 * HOST_MIN_INTERVAL_MS, where a consumer batch holds more URLs than the 10 s wait budget has slots for; at 100-250 ms
 * this site's batches fit in the budget and nothing is throttled), whose queue operations and cost per page are
 * printed beside the unthrottled ones.
 */

import { api, crawlToEnd, median, startSites, startWorker } from './lib/local.ts';
import { cpuSeconds, peakRssMiB, processGroup } from './lib/proc.ts';

const PAGES = Number(process.env.PAGES ?? 5000);
const PAGE_KB = Number(process.env.PAGE_KB ?? 40);
const LINKS = Number(process.env.LINKS ?? 20);
const LATENCY_MS = Number(process.env.LATENCY_MS ?? 0);
const RUNS = Number(process.env.RUNS ?? 3);
const PAGES_POLITE = Number(process.env.PAGES_POLITE ?? 100);
const POLITE_INTERVAL_MS = Number(process.env.POLITE_INTERVAL_MS ?? 1000);
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
async function costOf(id: string): Promise<Cost> {
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

/** One crawl of one host at POLITE_INTERVAL_MS: its queue operations and cost per page against the unthrottled ones. */
async function politeRun(openQueueOps: number, openUsd: number): Promise<void> {
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
  const cost = await costOf(crawl.id);
  const ratio = cost.queueOpsPerPage / openQueueOps;
  console.log(
    `\npolite, ${PAGES_POLITE + 1} pages of one host at ${POLITE_INTERVAL_MS} ms (${(1000 / POLITE_INTERVAL_MS).toFixed(1)} requests/s), one run:`,
  );
  console.log(`  pages/s         ${(crawl.counts.stored / seconds).toFixed(2)}`);
  console.log(
    `  queue ops/page  ${cost.queueOpsPerPage.toFixed(3)} (unthrottled ${openQueueOps.toFixed(3)}: ${ratio.toFixed(2)}x, target <= 1.5x: ${ratio <= 1.5 ? 'met' : 'NOT met'})`,
  );
  console.log(
    `  $/million pages ${cost.usdPerMillionPages.toFixed(2)} (unthrottled ${openUsd.toFixed(2)}: ${(cost.usdPerMillionPages / openUsd).toFixed(2)}x)`,
  );
  console.log(`  cost breakdown ($ per million pages): ${JSON.stringify(cost.breakdown)}`);
}

const sites = await startSites(0);
const worker = await startWorker({
  HOST_MIN_INTERVAL_MS: '0',
  HOST_MAX_CONCURRENCY: '1000',
  ...(process.env.CONCURRENCY ? { FETCH_CONCURRENCY: process.env.CONCURRENCY } : {}),
});
const pgid = worker.process.pid as number;
try {
  const results: ({
    pagesPerSecond: number;
    mbPerSecond: number;
    cpuMsPerPage: number;
    workerdMsPerPage: number;
  } & Cost)[] = [];
  for (let run = 0; run < RUNS; run++) {
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
    results.push({
      pagesPerSecond: stored / seconds,
      mbPerSecond: (stored * avgBytes) / 1e6 / seconds,
      cpuMsPerPage: (cpu * 1000) / stored,
      workerdMsPerPage: (workerdCpu * 1000) / stored,
      ...(await costOf(crawl.id)),
    });
    console.log(`run ${run + 1}: ${stored} pages in ${seconds.toFixed(1)} s, ${(stored / seconds).toFixed(1)} pages/s`);
  }
  const peak = peakRssMiB(processGroup(pgid), /workerd/);
  const extracting = process.env.EXTRACT ? `, extracting ${process.env.EXTRACT}` : '';
  console.log(
    `\nedgecrawl, ${PAGES + 1} pages of ~${PAGE_KB} KB with ${LINKS} links, ${LATENCY_MS} ms latency${extracting}, median of ${RUNS} runs:`,
  );
  console.log(`  pages/s         ${median(results.map((r) => r.pagesPerSecond)).toFixed(1)}`);
  console.log(`  MB/s            ${median(results.map((r) => r.mbPerSecond)).toFixed(2)}`);
  console.log(
    `  CPU ms/page     ${median(results.map((r) => r.cpuMsPerPage)).toFixed(2)} (workerd + wrangler), of which workerd ${median(results.map((r) => r.workerdMsPerPage)).toFixed(2)}`,
  );
  console.log(`  peak workerd    ${peak.toFixed(0)} MiB`);
  const usd = median(results.map((r) => r.usdPerMillionPages));
  const d1Rows = median(results.map((r) => r.d1RowsWrittenPerPage));
  console.log(
    `  $/million pages ${usd.toFixed(2)} (target <= 5: ${usd <= 5 ? 'met' : 'NOT met'}), counted operations at published prices`,
  );
  console.log(`  D1 rows/page    ${d1Rows.toFixed(3)} written (target <= 2: ${d1Rows <= 2 ? 'met' : 'NOT met'})`);
  console.log(`  DO rows/page    ${median(results.map((r) => r.doRowsWrittenPerPage)).toFixed(3)} written`);
  console.log(`  queue ops/page  ${median(results.map((r) => r.queueOpsPerPage)).toFixed(3)}`);
  const last = results.at(-1);
  if (last) console.log(`  cost breakdown (last run, $ per million pages): ${JSON.stringify(last.breakdown)}`);
  await politeRun(median(results.map((r) => r.queueOpsPerPage)), usd);
} finally {
  await worker.stop();
  await sites.stop();
}
