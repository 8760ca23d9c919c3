import { describe, expect, it } from 'vitest';
import { allPages, api, createCrawl, namespace, site, waitForCrawl } from '../support/api';

describe('GET /v1/crawls/:id/llms.txt and llms-full.txt', () => {
  it('list every stored HTML page once, in sections, and hold their markdown', async () => {
    const root = `${site()}/t/${namespace()}/tree-12/`;
    const id = await createCrawl({ seeds: [root], extract: { formats: ['markdown', 'metadata'] } });
    await waitForCrawl(id);
    const stored = (await allPages(id)).filter((p) => p.status === 200 && /html/.test(p.contentType ?? ''));
    expect(stored.length).toBeGreaterThan(5);

    const res = await api(`/v1/crawls/${id}/llms.txt`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/markdown/);
    const text = await res.text();
    const [h1, blank, summary] = text.split('\n');
    expect(h1).toMatch(/^# \S/);
    expect(blank).toBe('');
    expect(summary).toMatch(/^> \S/);
    expect(text).toMatch(/\n## \S.*\n\n- \[/);
    const links = [...text.matchAll(/^- \[(.+)\]\((\S+)\)(: .+)?$/gm)].map((m) => m[2]);
    expect(links.sort()).toEqual(stored.map((p) => p.url).sort());

    const full = await (await api(`/v1/crawls/${id}/llms-full.txt`)).text();
    const sources = [...full.matchAll(/^Source: (\S+)$/gm)].map((m) => m[1]);
    expect(sources).toEqual(stored.map((p) => p.url));
    const first = (await (await api(`/v1/crawls/${id}/content?url=${encodeURIComponent(root)}&format=markdown`)).text())
      .trim()
      .slice(0, 200);
    expect(full).toContain(first);
  });

  it('is a 404 for an unknown crawl and needs the token', async () => {
    expect((await api(`/v1/crawls/${crypto.randomUUID()}/llms.txt`)).status).toBe(404);
    expect((await api(`/v1/crawls/${crypto.randomUUID()}/llms-full.txt`, { token: null })).status).toBe(401);
  });
});
