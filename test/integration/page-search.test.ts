/** `q` on GET /v1/crawls/:id/pages: pages whose title, description or URL holds every word (the MCP search_pages). */
import { describe, expect, it } from 'vitest';
import { api, createCrawl, namespace, site, waitForCrawl } from '../support/api';

interface Listing {
  pages: { url: string; title: string | null }[];
  cursor: string | null;
}

async function search(id: string, query: string): Promise<Listing> {
  const res = await api(`/v1/crawls/${id}/pages?${query}`);
  expect(res.status).toBe(200);
  return (await res.json()) as Listing;
}

describe('GET /v1/crawls/:id/pages?q=', () => {
  it('lists the pages whose title, description or URL holds every word, paged by the cursor', async () => {
    const ns = namespace();
    const id = await createCrawl({ seeds: [`${site()}/t/${ns}/pure-7/`] });
    expect((await waitForCrawl(id)).status).toBe('completed');
    // Titles are "Tree pure-7" (the root) and "Tree page 1" .. "Tree page 7"; matching ignores ASCII case.
    const all = await search(id, 'q=TREE%20Page');
    expect(all.pages.map((p) => p.title)).toEqual([1, 2, 3, 4, 5, 6, 7].map((i) => `Tree page ${i}`));
    expect(all.cursor).toBeNull();
    // A word may match the URL while another matches the title.
    expect((await search(id, 'q=p5.html+tree')).pages.map((p) => p.title)).toEqual(['Tree page 5']);
    // Wildcards (LIKE's) are taken literally.
    expect((await search(id, 'q=%25')).pages).toEqual([]);
    expect((await search(id, 'q=p_.html')).pages).toEqual([]);
    // A whole URL (longer than the 50 bytes D1 allows a LIKE pattern) finds its page.
    const url = all.pages[0]?.url ?? '';
    expect(url.length).toBeGreaterThan(50);
    expect((await search(id, `q=${encodeURIComponent(url)}`)).pages.map((p) => p.url)).toEqual([url]);
    // Paged: 3, 3, then 1 with no cursor.
    const seen: string[] = [];
    let cursor: string | null = '';
    let calls = 0;
    while (cursor !== null) {
      const page: Listing = await search(id, `q=page&limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...page.pages.map((p) => p.title ?? ''));
      cursor = page.cursor;
      calls++;
    }
    expect(calls).toBe(3);
    expect(seen).toEqual(all.pages.map((p) => p.title));
    // An empty q lists every page.
    expect((await search(id, 'q=')).pages).toHaveLength(8);
  });

  it('rejects q with order=recent, and too many words', async () => {
    const id = await createCrawl({ seeds: [`${site()}/t/${namespace()}/pure-1/`] });
    const recent = await api(`/v1/crawls/${id}/pages?q=tree&order=recent`);
    expect(recent.status).toBe(400);
    expect(await recent.text()).toMatch(/cannot be used with order=recent/);
    const many = await api(`/v1/crawls/${id}/pages?q=${encodeURIComponent('a b c d e f g h i')}`);
    expect(many.status).toBe(400);
    expect(await many.text()).toMatch(/at most 8 words/);
  });
});

describe('GET /v1/crawls/:id/page?url=', () => {
  it('answers one page as listed, with which of its parts are stored; 404 for a page the crawl lacks', async () => {
    const ns = namespace();
    const root = `${site()}/t/${ns}/pure-2/`;
    // A plain crawl (extract: null): no record is stored.
    const id = await createCrawl({ seeds: [root], extract: null });
    expect((await waitForCrawl(id)).status).toBe('completed');
    const listed = ((await (await api(`/v1/crawls/${id}/pages`)).json()) as { pages: { url: string }[] }).pages;
    const res = await api(`/v1/crawls/${id}/page?url=${encodeURIComponent(root)}`);
    expect(res.status).toBe(200);
    const page = (await res.json()) as Record<string, unknown>;
    expect(page).toMatchObject({ ...listed.find((p) => p.url === root), change: null });
    // A crawl with extract null stores no record; the links are kept for every parsed page.
    expect(page.stored).toEqual({ record: false, links: true, screenshot: false, fetchedHtml: false });
    expect((await api(`/v1/crawls/${id}/page?url=${encodeURIComponent(`${root}nope.html`)}`)).status).toBe(404);
    expect((await api(`/v1/crawls/${id}/page?url=notaurl`)).status).toBe(400);
  });
});
