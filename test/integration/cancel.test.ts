/**
 * Cancel, as a user sees it: DELETE /v1/crawls/:id on a running crawl stops new fetches at once (fetches already
 * under way may finish, and are recorded), and afterwards the counts, the pages listing, the export and the errors
 * listing tell the same story.
 */
import { env } from 'cloudflare:workers';
import { describe, expect, inject, it } from 'vitest';
import { z } from 'zod';
import { crawlListSchema } from '../../src/api/responses';
import { allPages, api, createCrawl, getCrawl, namespace, site, siteLog, waitForCrawl } from '../support/api';
import type { HostLogEntry } from '../support/host-log';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function hostLog(base: string): Promise<HostLogEntry[]> {
  return ((await (await fetch(`${base}/__hostlog`)).json()) as { entries: HostLogEntry[] }).entries;
}

async function errorsOf(id: string, outcome: 'failed' | 'skipped'): Promise<{ url: string; reason: string }[]> {
  const errors: { url: string; reason: string }[] = [];
  let cursor: string | null = null;
  do {
    const res = await api(`/v1/crawls/${id}/errors?outcome=${outcome}&limit=100${cursor ? `&cursor=${cursor}` : ''}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { errors: { url: string; reason: string }[]; cursor: string | null };
    errors.push(...body.errors);
    cursor = body.cursor;
  } while (cursor);
  return errors;
}

describe('cancel', () => {
  it('stops new fetches at once, and counts, pages, export and errors agree afterwards', async () => {
    const ns = namespace();
    // 200 pages, paced at 200 ms by the crawl's own politeness: still running when it is cancelled.
    const id = await createCrawl({ seeds: [`${site()}/t/${ns}/tree-200/`], hostIntervalMs: 200 });
    for (let i = 0; i < 200 && (await getCrawl(id)).counts.stored < 8; i++) await sleep(50);
    const res = await api(`/v1/crawls/${id}`, { method: 'DELETE' });
    expect(res.status).toBe(200);
    const atCancel = (await siteLog(ns)).length;

    // At most the requests already under way (the crawl's one paced request, and what was starting) reach the site.
    await sleep(3000);
    const after = (await siteLog(ns)).length;
    expect(after - atCancel).toBeLessThanOrEqual(2);
    await sleep(1000);
    expect((await siteLog(ns)).length).toBe(after);

    const crawl = await getCrawl(id);
    expect(crawl.status).toBe('cancelled');
    expect(crawl.pending).toBe(0);
    const { discovered, stored, failed, skipped } = crawl.counts;
    expect(stored + failed + skipped).toBe(discovered);
    expect(skipped).toBeGreaterThan(0);

    // Every page the site served that the crawl stored is listed and exported, and no more.
    const pages = await allPages(id);
    expect(pages.filter((p) => p.status === 200)).toHaveLength(stored);
    const exported = (await (await api(`/v1/crawls/${id}/export?format=jsonl`)).text())
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { url: string; stored: boolean });
    expect(exported.filter((r) => r.stored)).toHaveLength(stored);

    // Every skipped URL has its reason listed; the cancelled ones say so.
    const skippedErrors = await errorsOf(id, 'skipped');
    expect(skippedErrors).toHaveLength(skipped);
    expect(skippedErrors.filter((e) => e.reason === 'cancelled').length).toBeGreaterThan(0);
    expect(await errorsOf(id, 'failed')).toHaveLength(failed);
  });
});

describe('cancel, on a paced host', () => {
  it('gives back the slots the host held for the crawl: another crawl of the host is served at once', async () => {
    const base = inject('hosts')[18] as string;
    const [ns, next] = [namespace(), namespace()];
    // 60 pages at 500 ms: a consumer's batch gets the slots of the next 10 s, and the rest reserved further on.
    const id = await createCrawl({ seeds: [`${base}/t/${ns}/flat-60/`], hostIntervalMs: 500 });
    for (let i = 0; i < 200 && (await getCrawl(id)).counts.stored < 3; i++) await sleep(50);
    expect((await api(`/v1/crawls/${id}`, { method: 'DELETE' })).status).toBe(200);
    const cancelledAt = Date.now();
    const hosts = (await (await api(`/v1/crawls/${id}/hosts`)).json()) as { hosts: { nextSlotInMs: number }[] };
    expect(hosts.hosts[0]?.nextSlotInMs).toBeLessThan(1000);

    // A crawl of another site on the host: its first request does not wait behind the cancelled crawl's slots.
    const other = await createCrawl({ seeds: [`${base}/t/${next}/pure-3/`], hostIntervalMs: 500 });
    let first: number | undefined;
    for (let i = 0; i < 300 && first === undefined; i++) {
      first = (await hostLog(base)).find((e) => e.path.includes(next))?.at;
      if (first === undefined) await sleep(50);
    }
    expect((first ?? Number.POSITIVE_INFINITY) - cancelledAt).toBeLessThan(5000);
    expect((await waitForCrawl(other)).counts.stored).toBe(4);
    // Nothing of the cancelled crawl reached the host after the requests under way at the cancel, and no two
    // requests to the host, of either crawl, came closer than their interval.
    const log = await hostLog(base);
    expect(log.filter((e) => e.path.includes(ns) && e.at > cancelledAt + 1000)).toEqual([]);
    const times = log.map((e) => e.at).sort((x, y) => x - y);
    expect(Math.min(...times.slice(1).map((t, i) => t - (times[i] as number)))).toBeGreaterThanOrEqual(500);
  });
});

/** The crawl's item in GET /v1/crawls, paged through until found. */
async function listed(id: string) {
  let cursor: string | null = null;
  do {
    const body = crawlListSchema.parse(
      await (await api(`/v1/crawls?limit=100${cursor ? `&cursor=${cursor}` : ''}`)).json(),
    );
    const item = body.crawls.find((c) => c.id === id);
    if (item) return item;
    cursor = body.cursor;
  } while (cursor);
  throw new Error(`crawl ${id} not listed`);
}

/** The summary D1 keeps of the crawl (what the list shows of an ended crawl). */
async function keptSummary(id: string) {
  const row = await env.DB.prepare('SELECT summary FROM crawls WHERE id = ?').bind(id).first<{ summary: string }>();
  return z
    .looseObject({ pending: z.number(), counts: z.object({ skipped: z.number() }) })
    .parse(JSON.parse(row?.summary ?? 'null'));
}

describe('cancel, as listed', () => {
  it('lists a cancelled crawl with the counts it settled at, not those of the moment of the cancel', async () => {
    const ns = namespace();
    // A host of its own: the slots it books at 200 ms a request are then on no other file's way (the shared test host
    // is every file's).
    const base = inject('hosts')[33] as string;
    const id = await createCrawl({ seeds: [`${base}/t/${ns}/tree-200/`], hostIntervalMs: 200 });
    for (let i = 0; i < 200 && (await getCrawl(id)).counts.stored < 3; i++) await sleep(50);
    expect((await api(`/v1/crawls/${id}`, { method: 'DELETE' })).status).toBe(200);
    let crawl = await getCrawl(id);
    for (let i = 0; i < 100 && crawl.pending > 0; i++) {
      await sleep(100);
      crawl = await getCrawl(id);
    }
    expect(crawl.pending).toBe(0);
    expect(crawl.counts.skipped).toBeGreaterThan(0);

    // D1 is told what the crawl settled at (the list of an ended crawl reads it), not left with the cancel's moment.
    let kept = await keptSummary(id);
    for (let i = 0; i < 50 && kept.pending > 0; i++) {
      await sleep(100);
      kept = await keptSummary(id);
    }
    expect(kept).toMatchObject({ pending: 0, counts: { skipped: crawl.counts.skipped } });
    expect(await listed(id)).toMatchObject({ status: 'cancelled', pending: 0, counts: crawl.counts });

    // A summary kept while URLs were pending (as crawls cancelled before this was fixed have): the list asks the crawl.
    const stale = { ...kept, pending: 8, counts: { ...crawl.counts, skipped: 0 } };
    await env.DB.prepare('UPDATE crawls SET summary = ? WHERE id = ?').bind(JSON.stringify(stale), id).run();
    expect(await listed(id)).toMatchObject({ pending: 0, counts: crawl.counts });
  });
});
