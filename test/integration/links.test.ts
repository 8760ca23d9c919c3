import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { api, createCrawl, namespace, site, waitForCrawl } from '../support/api';
import { insertCrawlRow, testConfig } from '../support/fixtures';

async function linksOf(id: string, url: string): Promise<Response> {
  return api(`/v1/crawls/${id}/links?url=${encodeURIComponent(url)}`);
}

describe('GET /v1/crawls/:id/links', () => {
  it("answers a page's outgoing links, stored in R2 with its body, and writes none of them to D1", async () => {
    const root = `${site()}/t/${namespace()}/pure-3/`;
    const id = await createCrawl({ seeds: [root] });
    expect((await waitForCrawl(id)).counts.stored).toBe(4);
    const res = await linksOf(id, root);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { url: string; links: string[] };
    expect(body.url).toBe(root);
    expect(body.links.length).toBeGreaterThan(0);
    // Every page the crawl stored besides the root was found among the stored pages' links.
    const { results } = await env.DB.prepare('SELECT url FROM pages WHERE crawl_id = ?')
      .bind(id)
      .all<{ url: string }>();
    const found = new Set<string>();
    for (const { url } of results)
      for (const link of ((await (await linksOf(id, url)).json()) as { links: string[] }).links) found.add(link);
    for (const { url } of results) if (url !== root) expect(found).toContain(url);
    // D1 has no table of links to write them to (migration 0007 dropped it).
    const rows = await env.DB.prepare("SELECT COUNT(*) AS n FROM sqlite_master WHERE name = 'links'").first<{
      n: number;
    }>();
    expect(rows?.n).toBe(0);
  });

  it('answers 404 for a page the crawl does not have, 400 for a URL that is not one', async () => {
    const id = crypto.randomUUID();
    await insertCrawlRow(id, testConfig(), 'completed');
    expect((await linksOf(id, 'https://example.com/nothing')).status).toBe(404);
    expect((await linksOf(id, 'not a url')).status).toBe(400);
  });
});
