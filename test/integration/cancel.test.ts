/**
 * Cancel, as a user sees it: DELETE /v1/crawls/:id on a running crawl stops new fetches at once (fetches already
 * under way may finish, and are recorded), and afterwards the counts, the pages listing, the export and the errors
 * listing tell the same story.
 */
import { describe, expect, it } from 'vitest';
import { allPages, api, createCrawl, getCrawl, namespace, site, siteLog } from '../support/api';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

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
