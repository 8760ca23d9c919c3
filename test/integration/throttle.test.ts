import { describe, expect, inject, it } from 'vitest';
import type { Usage } from '../../src/domain/crawl/usage';
import { api, createCrawl, namespace, site, waitForCrawl } from '../support/api';
import type { HostLogEntry } from '../support/host-log';

/** The crawl's queue operations and pages, once its last consumer has reported (the count stops moving). */
async function queueOpsPerPage(id: string): Promise<number> {
  const read = async () =>
    (await (await api(`/v1/crawls/${id}/usage`)).json()) as { pages: number; operations: Usage['operations'] };
  let usage = await read();
  for (let i = 0; i < 20; i++) {
    await new Promise((r) => setTimeout(r, 250));
    const again = await read();
    if (again.operations.queueOperations === usage.operations.queueOperations && i >= 3) break;
    usage = again;
  }
  return usage.operations.queueOperations / usage.pages;
}

describe('a polite crawl of one host', () => {
  it('sends each throttled URL round the queue once: well under 1.5x the queue operations per page of the crawl unthrottled', async () => {
    // A host of its own, so that its pacing is this test's alone.
    const base = inject('hosts')[14] as string;
    const [polite, open] = [namespace(), namespace()];
    // 111 pages at 200 ms: the root's 110 links are delayed to the host's pace in windows of 5 s (25 a window), so none
    // waits beyond a consumer's budget (10 s); were they sent at once, about half would, and go round once.
    const [politeId, openId] = await Promise.all([
      createCrawl({ seeds: [`${base}/t/${polite}/flat-110/`], hostIntervalMs: 200 }),
      createCrawl({ seeds: [`${site()}/t/${open}/flat-110/`] }),
    ]);
    const [politeCrawl, openCrawl] = await Promise.all([waitForCrawl(politeId), waitForCrawl(openId)]);
    expect(politeCrawl.counts).toMatchObject({ discovered: 111, stored: 111, failed: 0 });
    expect(openCrawl.counts).toMatchObject({ discovered: 111, stored: 111, failed: 0 });

    const [politeOps, openOps] = await Promise.all([queueOpsPerPage(politeId), queueOpsPerPage(openId)]);
    // The target is 1.5x. With a message per URL: sent at once and reserved, this crawl made 1.15x; without
    // reservations 1.36x (more rounds, more so on bigger crawls); spread at the host's pace, 1.00x. With up to ten URLs
    // a message, 0.378 against 0.324 operations a page (1.17x): each 5 s window's last message is part full.
    console.log(
      `throttle: queue operations per page, polite ${politeOps.toFixed(3)}, unthrottled ${openOps.toFixed(3)}`,
    );
    // Unthrottled: the seed's message and its 110 links in 11 messages of 10 (src/queues/frontier.ts), each written,
    // read and deleted once.
    expect(openOps).toBeCloseTo((3 * 12) / 111, 6);
    // Polite: a URL sent round again would be a message more each.
    expect(
      politeOps / openOps,
      `queue operations per page: polite ${politeOps}, unthrottled ${openOps}`,
    ).toBeLessThanOrEqual(1.5);

    // Politeness is kept, measured at the server: no two requests closer than the interval, each page fetched once.
    const { entries } = (await (await fetch(`${base}/__hostlog`)).json()) as { entries: HostLogEntry[] };
    const pages = entries.filter((e) => e.path.includes(polite));
    expect(pages).toHaveLength(111);
    expect(new Set(pages.map((e) => e.path)).size).toBe(111);
    const times = entries.map((e) => e.at).sort((a, b) => a - b);
    const gaps = times.slice(1).map((t, i) => t - (times[i] as number));
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(200);
  });
});
