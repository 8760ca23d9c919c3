/**
 * npm run bench -- crawler throughput on a synthetic loopback site, under `wrangler dev` with every
 * feature on (robots.txt, the host gate, R2 and D1 writes), politeness set wide open.
 * Env: PAGES (5000), PAGE_KB (40), LINKS (20), LATENCY_MS (0), RUNS (3), CONCURRENCY (FETCH_CONCURRENCY, default 50),
 * EXTRACT (formats to extract from each page, e.g. markdown,metadata; none by default).
 * Prints pages/s, MB/s, CPU per page and peak workerd memory, medians over RUNS fresh crawls; timed from
 * outside the Worker (POST to completed), as Workers' clocks do not advance during CPU work.
 */

import { api, crawlToEnd, median, startSites, startWorker } from './lib/local.ts';
import { cpuSeconds, peakRssMiB, processGroup } from './lib/proc.ts';

const PAGES = Number(process.env.PAGES ?? 5000);
const PAGE_KB = Number(process.env.PAGE_KB ?? 40);
const LINKS = Number(process.env.LINKS ?? 20);
const LATENCY_MS = Number(process.env.LATENCY_MS ?? 0);
const RUNS = Number(process.env.RUNS ?? 3);
const EXTRACT = process.env.EXTRACT ? { extract: { formats: process.env.EXTRACT.split(',') } } : {};

const sites = await startSites(0);
const worker = await startWorker({
  HOST_MIN_INTERVAL_MS: '0',
  HOST_MAX_CONCURRENCY: '1000',
  ...(process.env.CONCURRENCY ? { FETCH_CONCURRENCY: process.env.CONCURRENCY } : {}),
});
const pgid = worker.process.pid as number;
try {
  const results: { pagesPerSecond: number; mbPerSecond: number; cpuMsPerPage: number; workerdMsPerPage: number }[] = [];
  for (let run = 0; run < RUNS; run++) {
    const ns = `bench${run}${Date.now().toString(36)}`;
    const variant = `bench-${PAGES}-${PAGE_KB}-${LINKS}${LATENCY_MS ? `-d${LATENCY_MS}` : ''}`;
    const cpuBefore = cpuSeconds(processGroup(pgid));
    const workerdBefore = cpuSeconds(processGroup(pgid), /workerd/);
    const started = performance.now();
    const crawl = await crawlToEnd(worker, { seeds: [`${sites.siteA}/t/${ns}/${variant}/`], ...EXTRACT }, 1_800_000, 250);
    const seconds = (performance.now() - started) / 1000;
    const cpu = cpuSeconds(processGroup(pgid)) - cpuBefore;
    const workerdCpu = cpuSeconds(processGroup(pgid), /workerd/) - workerdBefore;
    const stored = crawl.counts.stored;
    if (stored !== PAGES + 1) throw new Error(`run ${run}: stored ${stored} of ${PAGES + 1}: ${JSON.stringify(crawl.counts)}`);
    const page: { pages: { bytes: number }[] } = await api(worker, `/v1/crawls/${crawl.id}/pages?limit=1000`);
    const avgBytes = page.pages.reduce((sum, p) => sum + p.bytes, 0) / page.pages.length;
    results.push({
      pagesPerSecond: stored / seconds,
      mbPerSecond: (stored * avgBytes) / 1e6 / seconds,
      cpuMsPerPage: (cpu * 1000) / stored,
      workerdMsPerPage: (workerdCpu * 1000) / stored,
    });
    console.log(`run ${run + 1}: ${stored} pages in ${seconds.toFixed(1)} s, ${(stored / seconds).toFixed(1)} pages/s`);
  }
  const peak = peakRssMiB(processGroup(pgid), /workerd/);
  const extracting = process.env.EXTRACT ? `, extracting ${process.env.EXTRACT}` : '';
  console.log(`\nedgecrawl, ${PAGES + 1} pages of ~${PAGE_KB} KB with ${LINKS} links, ${LATENCY_MS} ms latency${extracting}, median of ${RUNS} runs:`);
  console.log(`  pages/s         ${median(results.map((r) => r.pagesPerSecond)).toFixed(1)}`);
  console.log(`  MB/s            ${median(results.map((r) => r.mbPerSecond)).toFixed(2)}`);
  console.log(
    `  CPU ms/page     ${median(results.map((r) => r.cpuMsPerPage)).toFixed(2)} (workerd + wrangler), of which workerd ${median(results.map((r) => r.workerdMsPerPage)).toFixed(2)}`,
  );
  console.log(`  peak workerd    ${peak.toFixed(0)} MiB`);
} finally {
  await worker.stop();
  await sites.stop();
}
