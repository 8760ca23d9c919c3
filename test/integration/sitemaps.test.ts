import { describe, expect, inject, it } from 'vitest';
import { allPages, api, createCrawl, namespace, siteLog, waitForCrawl } from '../support/api';
import type { HostLogEntry } from '../support/host-log';

describe('sitemaps', () => {
  it('crawls pages listed only in sitemaps: robots.txt Sitemap lines, /sitemap.xml, indexes, gzip', async () => {
    const base = inject('hosts')[11] as string;
    const ns = namespace();
    const site = `${base}/t/${ns}/mapped/`;
    await fetch(`${base}/__robots`, { method: 'PUT', body: `User-agent: *\nAllow: /\nSitemap: ${site}index.xml\n` });
    const id = await createCrawl({ seeds: [site], sitemaps: true, exclude: ['**/private/**'] });
    const crawl = await waitForCrawl(id);

    expect(crawl.status).toBe('completed');
    // root, a.html, /sitemap.xml (404), index.xml, map-1.xml, map-2.xml.gz, s1..s8
    expect(crawl.counts).toMatchObject({ discovered: 14, stored: 13, failed: 1, skipped: 0 });
    const pages = await allPages(id);
    const stored = new Set(pages.filter((p) => p.status === 200).map((p) => p.url.replace(site, '')));
    for (let i = 1; i <= 8; i++) expect(stored.has(i === 5 ? 's5.html?a=1&b=2' : `s${i}.html`), `s${i}`).toBe(true);
    expect(stored.has('map-2.xml.gz')).toBe(true);

    const { entries } = (await (await fetch(`${base}/__hostlog`)).json()) as { entries: HostLogEntry[] };
    const paths = entries.map((e) => e.path);
    expect(paths.filter((p) => p === '/robots.txt')).toHaveLength(1);
    expect(paths.filter((p) => p === '/sitemap.xml')).toHaveLength(1);
    expect(paths.some((p) => p.includes('/private/') || p.includes('commented'))).toBe(false);
    expect(new Set(paths).size).toBe(paths.length);

    const links = (await (
      await api(`/v1/crawls/${id}/links?url=${encodeURIComponent(`${site}map-1.xml`)}`)
    ).json()) as { links: string[] };
    expect(links.links).toHaveLength(8);
  });

  it('counts pages against maxPages, never the sitemap files it reads', async () => {
    const base = inject('hosts')[31] as string; // robots.txt of its own (a host's is cached)
    const ns = namespace();
    const site = `${base}/t/${ns}/mapped/`;
    await fetch(`${base}/__robots`, { method: 'PUT', body: `User-agent: *\nAllow: /\nSitemap: ${site}index.xml\n` });
    const id = await createCrawl({ seeds: [site], sitemaps: true, maxPages: 6 });
    await waitForCrawl(id);
    const pages = (await allPages(id)).filter((p) => !/\.xml(\.gz)?$/.test(p.url));
    expect(pages.filter((p) => p.status === 200)).toHaveLength(6);
  });

  it("stores a Firecrawl crawl's `limit` in pages: its documents and `total` leave the sitemaps out", async () => {
    const base = inject('hosts')[32] as string; // robots.txt of its own
    const ns = namespace();
    const site = `${base}/t/${ns}/mapped/`;
    await fetch(`${base}/__robots`, { method: 'PUT', body: `User-agent: *\nAllow: /\nSitemap: ${site}index.xml\n` });
    const started = (await (
      await api('/v2/crawl', { method: 'POST', body: JSON.stringify({ url: site, limit: 5 }) })
    ).json()) as { id: string };
    await waitForCrawl(started.id);
    const status = (await (await api(`/v2/crawl/${started.id}`)).json()) as {
      status: string;
      total: number;
      completed: number;
      data: { metadata: { sourceURL: string } }[];
    };
    expect(status).toMatchObject({ status: 'completed', total: 5, completed: 5 });
    expect(status.data.map((d) => d.metadata.sourceURL).filter((u) => u.endsWith('.xml'))).toEqual([]);
    expect(status.data).toHaveLength(5);
  });

  it('crawls only the seed and the pages its sitemaps list with Firecrawl\'s sitemap: "only"', async () => {
    const base = inject('hosts')[29] as string; // robots.txt of its own
    const ns = namespace();
    const start = `${base}/t/${ns}/atlas-5/`;
    await fetch(`${base}/__robots`, { method: 'PUT', body: `User-agent: *\nAllow: /\nSitemap: ${start}index.xml\n` });
    const body = JSON.stringify({ url: start, sitemap: 'only' });
    const started = (await (await api('/v2/crawl', { method: 'POST', body })).json()) as {
      id: string;
      warning?: string;
    };
    expect(started, JSON.stringify(started)).toMatchObject({ success: true });
    expect(started.warning).toBeUndefined();
    await waitForCrawl(started.id);
    const paths = (await siteLog(ns)).map((entry) => entry.split(' ')[1]?.replace(`/t/${ns}/atlas-5/`, ''));
    for (const listed of ['', 's1.html', 's2.html', 's3.html', 'docs/pricing-plans.html'])
      expect(paths).toContain(listed);
    // The start page's links, in no sitemap, are not followed.
    for (const linked of ['a.html', 'b.html', 'private/notes.html']) expect(paths).not.toContain(linked);
  });

  it("folds URLs that differ only by their query into one with Firecrawl's ignoreQueryParameters", async () => {
    const base = inject('hosts')[30] as string; // robots.txt of its own
    const ns = namespace();
    const start = `${base}/t/${ns}/atlas-5/`;
    await fetch(`${base}/__robots`, { method: 'PUT', body: `User-agent: *\nAllow: /\nSitemap: ${start}index.xml\n` });
    const body = JSON.stringify({ url: `${start}?from=home`, ignoreQueryParameters: true });
    const started = (await (await api('/v2/crawl', { method: 'POST', body })).json()) as { id: string };
    await waitForCrawl(started.id);
    const paths = (await siteLog(ns)).map((entry) => entry.split(' ')[1]?.replace(`/t/${ns}/atlas-5/`, ''));
    // s4.html?b=2&a=1 (in a sitemap) is crawled once, as s4.html; the start URL without its query.
    expect(paths.filter((p) => p === 's4.html')).toHaveLength(1);
    expect(paths.filter((p) => p?.includes('?'))).toEqual([]);
    expect(paths).toContain('');
  });

  it('without sitemaps: true, sitemaps are not read', async () => {
    const base = inject('hosts')[11] as string;
    const ns = namespace();
    const id = await createCrawl({ seeds: [`${base}/t/${ns}/mapped/`] });
    const crawl = await waitForCrawl(id);
    expect(crawl.counts).toMatchObject({ discovered: 2, stored: 2 });
  });
});
