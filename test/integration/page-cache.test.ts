import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { MAX_CACHE_AGE_SECONDS, SCRAPE_CRAWL_ID } from '../../src/domain/crawl/page-cache';
import { expireScrapedPages } from '../../src/jobs/purge';
import { pageUpserts } from '../../src/storage/d1/page-upserts';
import type { PageRecord } from '../../src/types';
import { allPages, api, createCrawl, namespace, site, siteLog, waitForCrawl } from '../support/api';

interface Scraped {
  url: string;
  fetchedAt: string;
  cached: boolean;
  rendered: string | null;
  markdown?: string;
  title?: string;
  fields?: Record<string, unknown>;
}

async function scrape(body: Record<string, unknown>): Promise<Scraped> {
  const res = await api('/v1/scrape', { method: 'POST', body: JSON.stringify(body) });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as Scraped;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('page cache: POST /v1/scrape maxAge', () => {
  it('answers a second scrape within maxAge from the stored copy, with no request to the site', async () => {
    const ns = namespace();
    const url = `${site()}/t/${ns}/docs/product.html`;
    const first = await scrape({ url });
    expect(first.cached).toBe(false);
    const requests = await siteLog(ns);
    expect(requests.some((r) => r.endsWith('/product.html'))).toBe(true);

    const second = await scrape({ url }); // the default maxAge: 300 s
    expect(second).toEqual({ ...first, cached: true }); // the same record, fetchedAt the first fetch's
    expect(await siteLog(ns)).toEqual(requests);

    // Another spec is extracted from the stored body: the fields asked for now, still no request.
    const fields = { name: { selector: 'h1.product-title' }, price: { selector: '.price', type: 'number' } };
    const third = await scrape({ url, extract: { formats: ['metadata'], fields } });
    expect(third).toMatchObject({
      cached: true,
      fetchedAt: first.fetchedAt,
      fields: { name: 'Desk Lamp', price: 1299 },
    });
    expect(third.markdown).toBeUndefined();
    expect(await siteLog(ns)).toEqual(requests);
  });

  it('fetches again with maxAge 0, and when the stored copy is older than maxAge', async () => {
    const ns = namespace();
    const url = `${site()}/t/${ns}/docs/article.html`;
    const pageRequests = async () => (await siteLog(ns)).filter((r) => r.endsWith('/article.html')).length;
    const first = await scrape({ url });
    expect(await pageRequests()).toBe(1);

    const fresh = await scrape({ url, maxAge: 0 });
    expect(fresh.cached).toBe(false);
    expect(Date.parse(fresh.fetchedAt)).toBeGreaterThan(Date.parse(first.fetchedAt));
    expect(await pageRequests()).toBe(2);

    await sleep(1100);
    const stale = await scrape({ url, maxAge: 1 }); // the newest copy is more than a second old
    expect(stale.cached).toBe(false);
    expect(await pageRequests()).toBe(3);
    // ... and that fetch is the copy the next scrape gets.
    expect(await scrape({ url, maxAge: 60 })).toMatchObject({ cached: true, fetchedAt: stale.fetchedAt });
    expect(await pageRequests()).toBe(3);
  });

  it('stores scrapes under a crawl id of their own, which no crawl listing shows; the cron deletes them when too old', async () => {
    const ns = namespace();
    const url = `${site()}/t/${ns}/docs/index.html`;
    await scrape({ url, maxAge: 0 });
    const row = await env.DB.prepare('SELECT r2_key, fetched_at FROM pages WHERE crawl_id = ? AND url = ?')
      .bind(SCRAPE_CRAWL_ID, url)
      .first<{ r2_key: string; fetched_at: number }>();
    expect(row?.r2_key).toMatch(new RegExp(`^crawls/${SCRAPE_CRAWL_ID}/segments/`));
    expect((await api(`/v1/crawls/${SCRAPE_CRAWL_ID}/pages`)).status).toBe(404); // not a crawl

    // Past the longest maxAge, the row and its segment go.
    await expireScrapedPages(env, (row?.fetched_at ?? 0) + MAX_CACHE_AGE_SECONDS * 1000 + 60_000);
    const left = await env.DB.prepare('SELECT COUNT(*) AS n FROM pages WHERE crawl_id = ? AND url = ?')
      .bind(SCRAPE_CRAWL_ID, url)
      .first<{ n: number }>();
    expect(left?.n).toBe(0);
    expect(await env.BODIES.head(row?.r2_key ?? '')).toBeNull();
  });

  it('takes a copy only if it was read as the request would read it: rendered or as fetched', async () => {
    const url = `${site()}/t/${namespace()}/spa/app-1.html`; // an empty app root that a script fills
    const formats = ['markdown'];
    const plain = await scrape({ url, formats, render: 'never' });
    expect(plain).toMatchObject({ cached: false, rendered: null });
    expect(plain.markdown).not.toContain('app-1-token');
    // auto: the unrendered copy's HTML needs rendering, so the page is fetched and rendered (and stored so).
    const auto = await scrape({ url, formats });
    expect(auto).toMatchObject({ cached: false, rendered: expect.stringMatching(/^auto: /) });
    expect(auto.markdown).toContain('app-1-token');
    // The rendered copy serves auto and always as rendered, never as it was fetched; a screenshot is taken anew.
    for (const render of ['auto', 'always'])
      expect(await scrape({ url, formats, render })).toMatchObject({ ...auto, cached: true });
    const never = await scrape({ url, formats, render: 'never' });
    expect(never).toMatchObject({ cached: true, rendered: null, fetchedAt: auto.fetchedAt });
    expect(never.markdown).not.toContain('app-1-token');
    expect((await scrape({ url, formats: ['markdown', 'screenshot'] })).cached).toBe(false);
  });

  it('rejects a maxAge that is not a whole number of seconds in range', async () => {
    const url = `${site()}/t/${namespace()}/docs/index.html`;
    for (const maxAge of [-1, 1.5, '60', MAX_CACHE_AGE_SECONDS + 1]) {
      const res = await api('/v1/scrape', { method: 'POST', body: JSON.stringify({ url, maxAge }) });
      expect(res.status, String(maxAge)).toBe(400);
      expect(((await res.json()) as { error: { message: string } }).error.message).toContain('maxAge');
      const crawl = await api('/v1/crawls', { method: 'POST', body: JSON.stringify({ seeds: [url], maxAge }) });
      expect(crawl.status, String(maxAge)).toBe(400);
    }
  });
});

describe('page cache: the lookup', () => {
  it('adds no row written per page stored, and probes pages by their primary key', async () => {
    const crawlId = crypto.randomUUID();
    const page = (i: number, stored: boolean): PageRecord => ({
      url: `https://cost.example/${stored ? 'stored' : 'missing'}/${i}`,
      status: stored ? 200 : 404,
      contentType: 'text/html',
      title: null,
      depth: 1,
      bytes: 100,
      fetchedAt: Date.now(),
      bodyAt: stored ? { key: `crawls/${crawlId}/segments/x`, offset: i * 100, length: 100 } : null,
      redirectTo: null,
    });
    const written = async (pages: PageRecord[]) =>
      (await env.DB.batch(pageUpserts(env.DB, crawlId, pages))).reduce((n, r) => n + (r.meta.rows_written ?? 0), 0);
    const ten = (stored: boolean) => Array.from({ length: 10 }, (_, i) => page(i, stored));
    expect(await written(ten(true))).toBe(10);
    expect(await written(ten(false))).toBe(10);
    // The query of freshPages (src/storage/d1/page-cache.ts), as SQLite plans it.
    const plan = await env.DB.prepare(
      `EXPLAIN QUERY PLAN SELECT crawl_id, url FROM pages
       WHERE crawl_id IN (
         SELECT id FROM crawls WHERE (finished_at IS NULL OR finished_at >= ?) AND purge_requested_at IS NULL AND id != ?
         UNION ALL SELECT ?
       ) AND fetched_at >= ? AND r2_key IS NOT NULL AND status BETWEEN 200 AND 299 AND url IN (?, ?)`,
    )
      .bind(0, '', SCRAPE_CRAWL_ID, 0, 'a', 'b')
      .all<{ detail: string }>();
    const details = plan.results.map((r) => r.detail).join('; ');
    expect(details).toContain('SEARCH pages USING PRIMARY KEY (crawl_id=? AND url=?)');
    expect(details).toContain('INDEX crawls_finished');
  });
});

describe('page cache: crawl maxAge', () => {
  it("stores a crawl's pages from another crawl's copies with no request to the site, and survives its purge", async () => {
    const ns = namespace();
    const root = `${site()}/t/${ns}/docs/`;
    // Both keep duplicates (the docs site serves its index as / and /index.html): a duplicate has no body to serve.
    const first = await createCrawl({ seeds: [root], maxDepth: 1, duplicates: 'keep' });
    const done = await waitForCrawl(first);
    const requests = await siteLog(ns);
    const firstPages = await allPages(first);
    const stored = firstPages.filter((p) => p.status === 200);
    expect(stored.length).toBeGreaterThan(2);

    const extract = { formats: ['markdown', 'metadata'], fields: { heading: { selector: 'h1' } } };
    const second = await createCrawl({ seeds: [root], maxDepth: 1, maxAge: 600, extract, duplicates: 'keep' });
    const view = await waitForCrawl(second);
    expect(await siteLog(ns)).toEqual(requests);
    expect(view.counts).toMatchObject({ stored: done.counts.stored, fetched: 0 });
    const stats = (await (await api(`/v1/crawls/${second}/stats`)).json()) as {
      cached: number;
      series: { fetched: number }[];
    };
    expect(stats.cached).toBe(done.counts.stored);
    expect(stats.series.every((point) => point.fetched === 0)).toBe(true); // nothing fetched from the site
    const pages = await allPages(second);
    const byUrl = new Map(firstPages.map((p) => [p.url, p]));
    for (const page of pages.filter((p) => p.status === 200)) {
      expect(page.cachedFrom, page.url).toBe(first);
      expect(page.fetchedAt).toBe(byUrl.get(page.url)?.fetchedAt);
    }
    const product = `${root}product.html`;
    const record = async () => api(`/v1/crawls/${second}/record?url=${encodeURIComponent(product)}`);
    expect(await (await record()).json()).toMatchObject({ cachedFrom: first, fields: { heading: 'Desk Lamp' } });
    const content = async (url: string) => api(`/v1/crawls/${second}/content?url=${encodeURIComponent(url)}`);
    const bodies = await Promise.all(stored.map(async (p) => (await content(p.url)).text()));

    // The first crawl purged: the second's bodies and records were copied into its own segments.
    expect((await api(`/v1/crawls/${first}?purge=true`, { method: 'DELETE' })).status).toBe(200);
    for (const [i, page] of stored.entries()) {
      const res = await content(page.url);
      expect(res.status, page.url).toBe(200);
      expect(await res.text()).toBe(bodies[i]);
    }
    expect((await record()).status).toBe(200);
  });

  it('fetches what is older than maxAge, and everything without maxAge', async () => {
    const ns = namespace();
    const root = `${site()}/t/${ns}/pure-3/`;
    const { counts } = await waitForCrawl(await createCrawl({ seeds: [root] }));
    expect(counts.fetched).toBeGreaterThan(1);
    const requests = (await siteLog(ns)).length;
    const plain = await createCrawl({ seeds: [root] });
    expect((await waitForCrawl(plain)).counts.fetched).toBe(counts.fetched);
    expect((await siteLog(ns)).length).toBe(requests + counts.fetched);
    await sleep(1100);
    const stale = await createCrawl({ seeds: [root], maxAge: 1 });
    expect((await waitForCrawl(stale)).counts.fetched).toBe(counts.fetched);
    expect((await allPages(stale)).every((p) => p.cachedFrom === null)).toBe(true);
  });
});
