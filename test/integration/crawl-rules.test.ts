import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { allPages, api, countBy, createCrawl, getCrawl, namespace, site, siteLog, waitForCrawl } from '../support/api';

function paths(log: string[]): string[] {
  return log.map((entry) => entry.split(' ')[1] as string);
}

describe('redirects, errors and non-HTML responses', () => {
  it('follows redirects as new tasks, dedups their targets, stops loops and long chains, records reasons', async () => {
    const ns = namespace();
    const root = `${site()}/t/${ns}/misc/`;
    const id = await createCrawl({ seeds: [root] });
    const crawl = await waitForCrawl(id);

    expect(crawl.status).toBe('completed');
    expect(crawl.counts).toEqual({ discovered: 19, fetched: 20, stored: 6, failed: 3, skipped: 10, duplicates: 0 });
    const { discovered, stored, failed, skipped } = crawl.counts;
    expect(stored + failed + skipped).toBe(discovered);

    const log = paths(await siteLog(ns));
    const hits = countBy(log);
    const base = `/t/${ns}/misc/`;
    // ok.html is linked and also the target of a redirect: fetched once.
    expect(hits.get(`${base}ok.html`)).toBe(1);
    // The loop is cut by the seen-set: each side once.
    expect(hits.get(`${base}loop-a`)).toBe(1);
    expect(hits.get(`${base}loop-b`)).toBe(1);
    // The chain stops after 5 redirects.
    expect(log.filter((p) => p.includes('/chain-')).sort()).toEqual([0, 1, 2, 3, 4, 5].map((k) => `${base}chain-${k}`));
    // 503 then 200: fetched twice, stored once.
    expect(hits.get(`${base}flaky.html`)).toBe(2);
    // Markup inside text/plain is not parsed; out-of-scope redirect targets are not fetched.
    expect(hits.has(`${base}not-a-link.html`)).toBe(false);
    expect(hits.has(`${base}elsewhere.html`)).toBe(false);
    expect([...hits.values()].every((n) => n <= 2)).toBe(true);

    const { results } = await env.DB.prepare('SELECT url, outcome, reason FROM errors WHERE crawl_id = ? ORDER BY url')
      .bind(id)
      .all<{ url: string; outcome: string; reason: string }>();
    const reasons = new Map(results.map((r) => [r.url.slice(root.length), `${r.outcome}: ${r.reason}`]));
    expect(reasons.get('missing.html')).toBe('failed: http 404');
    expect(reasons.get('chain-5')).toBe('failed: too many redirects (more than 5)');
    expect(reasons.get('to-file')).toMatch(/^failed: redirect to a non-http\(s\) URL: file:/);
    expect(reasons.get('moved')).toBe(`skipped: redirect 301 to ${root}ok2.html`);
    expect(reasons.get('gone-ext')).toMatch(/^skipped: redirect 301 to http:\/\/localhost:\d+\/.*, out of scope$/);
    expect(results).toHaveLength(13);

    const pages = await allPages(id);
    expect(pages).toHaveLength(19);
    const byUrl = new Map(pages.map((p) => [p.url.slice(root.length), p]));
    expect(byUrl.get('moved')?.status).toBe(301);
    expect(byUrl.get('missing.html')?.status).toBe(404);
    expect(byUrl.get('flaky.html')?.status).toBe(200);
    expect(byUrl.get('doc.txt')?.contentType).toBe('text/plain');

    // A 404 has no stored body; a redirect neither.
    const missing = await api(`/v1/crawls/${id}/content?url=${encodeURIComponent(`${root}missing.html`)}`);
    expect(missing.status).toBe(404);
    const text = await api(`/v1/crawls/${id}/content?url=${encodeURIComponent(`${root}doc.txt`)}`);
    expect(await text.text()).toBe('plain text with <a href="not-a-link.html">markup</a>');
  });
});

describe('scope', () => {
  async function crawlMisc(scope: string, extra: Record<string, unknown> = {}) {
    const ns = namespace();
    const root = `${site()}/t/${ns}/misc/`;
    const id = await createCrawl({ seeds: [root], scope, exclude: ['**/chain-*', '**/loop-*'], ...extra });
    const crawl = await waitForCrawl(id);
    return { crawl, log: await siteLog(ns), ns };
  }

  it('same-origin stays on the seed origin', async () => {
    const { crawl, log } = await crawlMisc('same-origin');
    const origins = new Set(log.map((e) => e.split(' ')[0]));
    expect(origins).toEqual(new Set([new URL(site('A')).host]));
    expect(crawl.status).toBe('completed');
  });

  it('same-host also takes another port of the same host, not another host', async () => {
    const { log } = await crawlMisc('same-host');
    const hosts = new Set(log.map((e) => e.split(' ')[0]));
    expect(hosts).toEqual(new Set([new URL(site('A')).host, new URL(site('B')).host]));
  });

  it('any follows links and redirects to other hosts', async () => {
    const { crawl, log, ns } = await crawlMisc('any');
    const byHost = log.map((e) => e.split(' ')[0] as string);
    expect(byHost.some((h) => h.startsWith('localhost:'))).toBe(true);
    expect(log).toContain(`${byHost.find((h) => h.startsWith('localhost:'))} /t/${ns}/misc/other-host.html`);
    expect(log.some((e) => e.endsWith('/elsewhere.html'))).toBe(true);
    expect(crawl.counts.discovered).toBe(crawl.counts.stored + crawl.counts.failed + crawl.counts.skipped);
  });

  it('include and exclude patterns filter discovered links (globs and re:)', async () => {
    const ns = namespace();
    const root = `${site()}/t/${ns}/pure-63/`;
    // Only odd-numbered pages, and never p7 (so p14, p15 and below are unreachable through it).
    const id = await createCrawl({ seeds: [root], include: [`re:/p\\d*[13579]\\.html$`], exclude: ['**/p7.html'] });
    const crawl = await waitForCrawl(id);
    const fetched = new Set(paths(await siteLog(ns)).map((p) => p.slice(`/t/${ns}/pure-63/`.length)));
    // p1 -> p3 (p2 is even) -> p7 excluded, p6 even: only the root, p1 and p3.
    expect(fetched).toEqual(new Set(['', 'p1.html', 'p3.html']));
    expect(crawl.counts.discovered).toBe(3);
  });
});

describe('limits', () => {
  it('maxDepth: pages deeper than the limit are never fetched', async () => {
    const ns = namespace();
    const root = `${site()}/t/${ns}/pure-127/`;
    const id = await createCrawl({ seeds: [root], maxDepth: 3 });
    const crawl = await waitForCrawl(id);
    // depth 0: root, 1: p1, 2: p2-p3, 3: p4-p7
    expect(crawl.counts).toMatchObject({ discovered: 8, stored: 8 });
    const fetched = new Set(paths(await siteLog(ns)));
    for (let i = 1; i <= 7; i++) expect(fetched.has(`/t/${ns}/pure-127/p${i}.html`)).toBe(true);
    expect(fetched.size).toBe(8);
    const pages = await allPages(id);
    expect(Math.max(...pages.map((p) => p.depth))).toBe(3);
    expect(pages.find((p) => p.url.endsWith('/p5.html'))?.depth).toBe(3);
  });

  it('maxPages: exactly that many URLs are fetched', async () => {
    const ns = namespace();
    const id = await createCrawl({ seeds: [`${site()}/t/${ns}/tree-300/`], maxPages: 25 });
    const crawl = await waitForCrawl(id);
    expect(crawl.status).toBe('completed');
    expect(crawl.counts).toMatchObject({ discovered: 25, fetched: 25, stored: 25 });
    expect(await siteLog(ns)).toHaveLength(25);
  });
});

describe('cancel', () => {
  it('stops fetching; queued URLs end skipped; the status stays cancelled', async () => {
    const ns = namespace();
    const id = await createCrawl({ seeds: [`${site()}/t/${ns}/tree-500-d150/`] });
    for (let i = 0; i < 100 && (await getCrawl(id)).counts.stored < 5; i++)
      await new Promise((r) => setTimeout(r, 100));
    const res = await api(`/v1/crawls/${id}`, { method: 'DELETE' });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { status: string }).status).toBe('cancelled');
    // In-flight fetches may still finish; after they settle nothing more is requested.
    await new Promise((r) => setTimeout(r, 1500));
    const settled = (await siteLog(ns)).length;
    await new Promise((r) => setTimeout(r, 2500));
    expect((await siteLog(ns)).length).toBe(settled);
    expect(settled).toBeLessThan(100);
    const crawl = await getCrawl(id);
    expect(crawl.status).toBe('cancelled');
    expect(crawl.pending).toBe(0);
    expect(crawl.counts.stored + crawl.counts.failed + crawl.counts.skipped).toBe(crawl.counts.discovered);
    const row = await env.DB.prepare('SELECT status FROM crawls WHERE id = ?').bind(id).first<{ status: string }>();
    expect(row?.status).toBe('cancelled');
  });
});

describe('two crawls at once', () => {
  it('crawls of the same site are independent: each fetches every page once', async () => {
    const ns1 = namespace();
    const ns2 = namespace();
    const [id1, id2] = await Promise.all([
      createCrawl({ seeds: [`${site()}/t/${ns1}/pure-100/`] }),
      createCrawl({ seeds: [`${site()}/t/${ns2}/pure-100/`] }),
    ]);
    const [c1, c2] = await Promise.all([waitForCrawl(id1), waitForCrawl(id2)]);
    expect(c1.counts.stored).toBe(101);
    expect(c2.counts.stored).toBe(101);
    expect(await siteLog(ns1)).toHaveLength(101);
    expect(await siteLog(ns2)).toHaveLength(101);
    const row = await env.DB.prepare('SELECT status, finished_at FROM crawls WHERE id = ?')
      .bind(id1)
      .first<{ status: string; finished_at: number }>();
    expect(row?.status).toBe('completed');
    expect(row?.finished_at).toBeGreaterThan(0);
  });
});
