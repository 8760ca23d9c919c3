/**
 * npm run bench:politeness -- achieved vs allowed request rate for one host.
 * Crawls a flat 40-page site on its own loopback host under `wrangler dev` with a per-crawl host
 * interval, and measures the arrival times at the server: achieved rate = (requests - 1) / span, over
 * the 40 pages the root links to (so the wait for the first queue batch is not counted).
 * Prints medians of RUNS runs per interval, and the smallest gap seen.
 */
import type { HostLogEntry } from '../test/support/host-log.ts';
import { crawlToEnd, median, startSites, startWorker } from './lib/local.ts';

const INTERVALS_MS = (process.env.INTERVALS ?? '100,250,500').split(',').map(Number);
const RUNS = Number(process.env.RUNS ?? 3);
const PAGES = Number(process.env.PAGES ?? 40);

const sites = await startSites(1);
const host = sites.hosts[0] as string;
const worker = await startWorker({ HOST_MIN_INTERVAL_MS: '0', HOST_MAX_CONCURRENCY: '4' });
try {
  console.log(`politeness: ${PAGES + 1} pages per crawl on one host, ${RUNS} runs per interval\n`);
  console.log('interval ms | allowed req/s | achieved req/s (median) | achieved/allowed | smallest gap ms');
  console.log('----------- | ------------- | ----------------------- | ---------------- | ---------------');
  for (const interval of INTERVALS_MS) {
    const rates: number[] = [];
    let smallestGap = Number.POSITIVE_INFINITY;
    for (let run = 0; run < RUNS; run++) {
      const ns = `bench${interval}r${run}${Date.now().toString(36)}`;
      // A plain crawl (extract: null): pacing is measured, not extraction.
      const request = { seeds: [`${host}/t/${ns}/flat-${PAGES}/`], hostIntervalMs: interval, extract: null };
      const crawl = await crawlToEnd(worker, request);
      if (crawl.counts.stored !== PAGES + 1) throw new Error(`crawl stored ${crawl.counts.stored} of ${PAGES + 1}`);
      const { entries } = (await (await fetch(`${host}/__hostlog`)).json()) as { entries: HostLogEntry[] };
      // The pages the root links to: from the first to the last, the frontier has work for the host.
      const times = entries
        .filter((e) => e.path.includes(ns) && e.path.endsWith('.html'))
        .map((e) => e.at)
        .sort((a, b) => a - b);
      const span = (times.at(-1) as number) - (times[0] as number);
      rates.push((times.length - 1) / (span / 1000));
      for (let i = 1; i < times.length; i++)
        smallestGap = Math.min(smallestGap, (times[i] as number) - (times[i - 1] as number));
    }
    const allowed = 1000 / interval;
    const achieved = median(rates);
    console.log(
      `${String(interval).padStart(11)} | ${allowed.toFixed(2).padStart(13)} | ${achieved.toFixed(2).padStart(23)} | ${(achieved / allowed).toFixed(3).padStart(16)} | ${smallestGap.toFixed(1).padStart(15)}`,
    );
  }
} finally {
  await worker.stop();
  await sites.stop();
}
