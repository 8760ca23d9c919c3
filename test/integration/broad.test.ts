import { describe, expect, inject, it } from 'vitest';
import { createCrawl, waitForCrawl } from '../support/api';
import type { HostLogEntry } from '../support/host-log';

/** The crawl's pace per host: HOST_MIN_INTERVAL_MS is 0 in the tests, so a crawl sets its own. */
const INTERVAL_MS = 1000;
const PAGES_PER_SITE = 12;
/**
 * The polite crawl's pages/s must reach this share of its bound, min(hosts x 1/interval, what the machine fetched of
 * the same web with politeness lifted, in the same test). A host's robots.txt and 12 pages take 13 intervals at its
 * pace, so no crawl gets above ~0.92 of the bound; this one got 0.83 on the shared 2-core machine, the code before it
 * 0.34 (its consumer batches each waited for several slots of one host). Most of the crawl is waiting for the hosts'
 * pace, so a loaded machine moves the ratio little.
 */
const SHARE_OF_BOUND = 0.55;

/** Every request each site of the simulated web was asked since `since` (epoch ms), by address. */
async function requestsSince(control: string, since: number): Promise<Record<string, HostLogEntry[]>> {
  const res = await fetch(`${control}/__log?since=${since}`);
  return ((await res.json()) as { hosts: Record<string, HostLogEntry[]> }).hosts;
}

/** One crawl of every home page, to its end: its counts, how long it took, and when it started. */
async function crawlAll(seeds: string[], hostIntervalMs: number) {
  const since = Date.now();
  const id = await createCrawl({ seeds, hostIntervalMs, extract: null, maxPages: seeds.length * PAGES_PER_SITE });
  const crawl = await waitForCrawl(id, 75_000);
  return { crawl, since, seconds: (Date.now() - since) / 1000 };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

describe('a broad crawl', () => {
  it('runs every host at its own pace at once: every page stored, each interval kept at the server, pages/s near the bound', async () => {
    const { hosts, control } = inject('simWeb');
    const seeds = hosts.map((host) => `${host}/`);
    const pages = seeds.length * PAGES_PER_SITE;

    const polite = await crawlAll(seeds, INTERVAL_MS);
    expect(polite.crawl.counts).toMatchObject({ discovered: pages, stored: pages, failed: 0, skipped: 0 });
    const logs = await requestsSince(control, polite.since);
    // The same web with politeness lifted: what this machine fetches now, the other half of the bound.
    const open = await crawlAll(seeds, 0);
    expect(open.crawl.counts).toMatchObject({ discovered: pages, stored: pages });

    // At the server: every site asked for each of its pages once (and its robots.txt), never two requests closer
    // than the interval.
    expect(Object.keys(logs)).toHaveLength(hosts.length);
    const finishes: number[] = [];
    for (const [address, entries] of Object.entries(logs)) {
      const paths = entries.filter((e) => e.path !== '/robots.txt').map((e) => e.path);
      expect(new Set(paths).size, address).toBe(PAGES_PER_SITE);
      expect(paths, address).toHaveLength(PAGES_PER_SITE);
      const times = entries.map((e) => e.at).sort((a, b) => a - b);
      const gaps = times.slice(1).map((t, i) => t - (times[i] as number));
      expect(Math.min(...gaps), address).toBeGreaterThanOrEqual(INTERVAL_MS);
      finishes.push(((times.at(-1) as number) - polite.since) / 1000);
    }

    const rate = pages / polite.seconds;
    const capacity = pages / open.seconds;
    const bound = Math.min((hosts.length * 1000) / INTERVAL_MS, capacity);
    console.log(
      `broad: ${hosts.length} hosts, ${pages} pages at ${INTERVAL_MS} ms: ${polite.seconds.toFixed(1)} s, ${rate.toFixed(1)} pages/s; unpaced ${open.seconds.toFixed(1)} s, ${capacity.toFixed(1)} pages/s; bound ${bound.toFixed(1)}, ratio ${(rate / bound).toFixed(2)}; hosts done, median ${median(finishes).toFixed(1)} s, slowest ${Math.max(...finishes).toFixed(1)} s`,
    );
    expect(rate, `pages/s ${rate.toFixed(1)} against a bound of ${bound.toFixed(1)}`).toBeGreaterThanOrEqual(
      SHARE_OF_BOUND * bound,
    );
    // No host starved behind the others: the last to finish does so within a few of its intervals of the median one.
    const slack = (PAGES_PER_SITE * INTERVAL_MS) / 1000;
    expect(Math.max(...finishes)).toBeLessThanOrEqual(median(finishes) + slack);
  });
});
