import { describe, expect, inject, it } from 'vitest';
import type { MapResult } from '../../src/jobs/map';
import { allPages, api, createCrawl, namespace, waitForCrawl } from '../support/api';
import type { HostLogEntry } from '../support/host-log';

const map = (body: unknown, token?: string | null) =>
  api('/v1/map', {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
    ...(token === undefined ? {} : { token }),
  });

/** A host of its own (robots.txt is cached per host): its robots.txt names `sitemap`. */
async function hostWithSitemap(
  index: number,
  path: (ns: string) => string,
): Promise<{ base: string; start: string; ns: string }> {
  const base = inject('hosts')[index] as string;
  const ns = namespace();
  const start = `${base}/t/${ns}/${path(ns)}`;
  return { base, start, ns };
}

/** The small site, on a host of its own, its robots.txt naming its index (the tests below share it). */
const atlas = (async () => {
  const site = await hostWithSitemap(16, () => 'atlas-0/');
  await fetch(`${site.base}/__robots`, {
    method: 'PUT',
    body: `User-agent: *\nDisallow: /nowhere\nDisallow: /*/private/\nSitemap: ${site.start}index.xml\n`,
  });
  return site;
})();

describe('POST /v1/map', () => {
  it('lists sitemap URLs (index, gzip) with lastmod and the start page links, each once, in scope', async () => {
    const { base, start } = await atlas;
    const res = await map({ url: start });
    expect(res.status).toBe(200);
    const body = (await res.json()) as MapResult;
    const rel = body.urls.map((u) => ({ ...u, url: u.url.replace(start, '') }));
    expect(rel).toEqual([
      { url: '', source: 'start', lastmod: null, title: 'Atlas home' },
      { url: 's1.html', source: 'sitemap', lastmod: '2026-01-11' },
      { url: 's2.html', source: 'sitemap', lastmod: '2026-01-12T10:00:00+00:00' },
      { url: 'docs/pricing-plans.html', source: 'sitemap', lastmod: null },
      { url: 's3.html', source: 'sitemap', lastmod: '2026-02-01' },
      { url: 's4.html?b=2&a=1', source: 'sitemap', lastmod: '2026-02-04' },
      { url: 'a.html', source: 'links', lastmod: null },
      { url: 'b.html', source: 'links', lastmod: null },
    ]);
    expect(body).toMatchObject({ url: start, total: 8, truncated: false });
    // /sitemap.xml is looked for too (a 404 here); the other host's sitemap and URLs are out of scope; what robots.txt
    // disallows (a sitemap's private/plan.html, the start page's private/notes.html) is left out, as a crawl would.
    expect(body.warnings).toEqual([
      expect.stringMatching(/sitemap\.xml: http 404/),
      '2 URLs left out: robots.txt disallows them for this crawler',
    ]);
    const { entries } = (await (await fetch(`${base}/__hostlog`)).json()) as { entries: HostLogEntry[] };
    const paths = entries.map((e) => e.path.replace(/^\/t\/[^/]+\/atlas-0\//, ''));
    expect(paths.filter((p) => p === '/robots.txt')).toHaveLength(1);
    expect(paths).toEqual(expect.arrayContaining(['', 'index.xml', 'map-1.xml', 'map-2.xml.gz', '/sitemap.xml']));
    expect(paths.some((p) => p.endsWith('.html'))).toBe(false);
  });

  it('cuts at limit, widens with scope, ranks by search, reads links or sitemaps only when asked', async () => {
    const { start } = await atlas;
    const cut = (await (await map({ url: start, limit: 3 })).json()) as MapResult;
    expect(cut.urls.map((u) => u.url.replace(start, ''))).toEqual(['', 's1.html', 's2.html']);
    expect(cut).toMatchObject({ truncated: true });

    // Another host's URLs belong to the map in scope "any" (its sitemap there is not read: sitemaps off).
    const any = (await (await map({ url: start, scope: 'any', sitemaps: false })).json()) as MapResult;
    expect(any.urls.map((u) => u.url)).toContainEqual(
      expect.stringMatching(/^http:\/\/localhost:\d+\/.*\/away\.html$/),
    );

    const ranked = (await (await map({ url: start, search: 'Pricing plans' })).json()) as MapResult;
    expect(ranked.urls[0]?.url).toBe(`${start}docs/pricing-plans.html`);
    expect(ranked.urls[1]?.url).toBe(start);

    const titled = (await (await map({ url: start, search: 'atlas' })).json()) as MapResult;
    expect(titled.urls[0]).toMatchObject({ source: 'start', title: 'Atlas home' });

    const linksOnly = (await (await map({ url: start, sitemaps: false })).json()) as MapResult;
    expect(linksOnly.urls.map((u) => u.source)).toEqual(['start', 'links', 'links', 'links']);
    const sitemapsOnly = (await (await map({ url: start, links: false })).json()) as MapResult;
    expect(sitemapsOnly.urls.some((u) => u.source === 'links')).toBe(false);
  });

  it('refuses a bad body (400), a private address (400) and a request without a token (401)', async () => {
    expect((await map({ url: 'ftp://example.com/' })).status).toBe(400);
    expect((await map({ url: 'https://example.com/', limit: 0 })).status).toBe(400);
    expect((await map({ url: 'https://example.com/', limit: 100_001 })).status).toBe(400);
    expect((await map({ url: 'https://example.com/', scope: 'galaxy' })).status).toBe(400);
    expect((await map({ url: 'https://example.com/', extra: 1 })).status).toBe(400);
    const privateAddress = await map({ url: 'http://10.0.0.1/' });
    expect(privateAddress.status).toBe(400);
    expect(await privateAddress.json()).toEqual({
      error: {
        code: 'private_address',
        message: 'http://10.0.0.1/ is a private network address; allow it with ALLOW_PRIVATE_NETWORKS to map it',
      },
    });
    expect((await map({ url: 'https://example.com/' }, null)).status).toBe(401);
  });

  it('answers a 50,000-URL gzipped sitemap in seconds', async () => {
    const { base, start } = await hostWithSitemap(17, () => 'atlas-50000/');
    await fetch(`${base}/__robots`, { method: 'PUT', body: `User-agent: *\nAllow: /\nSitemap: ${start}big.xml.gz\n` });
    await fetch(`${start}big.xml.gz`); // the site builds it once, before the clock starts
    const started = Date.now();
    const body = (await (await map({ url: start, limit: 100_000, links: false })).json()) as MapResult;
    const ms = Date.now() - started;
    console.log(`map of a 50,000-URL sitemap: ${ms} ms`);
    expect(body.total).toBe(50_001);
    expect(body.urls).toHaveLength(50_001);
    expect(body.urls[50_000]).toEqual({
      url: `${start}items/item-50000.html`,
      source: 'sitemap',
      lastmod: '2026-03-21',
    });
    expect(ms).toBeLessThan(10_000);
  });

  it('lists what a crawl of the site with sitemaps finds (its pages, not its sitemap files nor what robots.txt keeps out)', async () => {
    const { start } = await atlas;
    const mapped = (await (await map({ url: start })).json()) as MapResult;
    const crawl = await createCrawl({ seeds: [start], sitemaps: true, maxDepth: 1 });
    await waitForCrawl(crawl);
    const sitemapFile = /(\.xml|\.xml\.gz)$/;
    const crawled = (await allPages(crawl)).map((p) => p.url).filter((url) => !sitemapFile.test(url));
    expect(mapped.urls.map((u) => u.url).sort()).toEqual(crawled.sort());
  });
});
