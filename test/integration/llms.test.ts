import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { sectionContext } from '../../src/domain/output/llms-txt';
import { getCrawl as getCrawlRow } from '../../src/storage/d1/crawls';
import { streamLlmsTxt } from '../../src/storage/llms-export';
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

  it('writes each section once, pages grouped by their path below the seed, whatever their URL order', async () => {
    // URL order interleaves the site's top-level pages with blog/ and docs/ (about < blog/ < docs/ < edited < zebra).
    const root = `${site()}/t/${namespace()}/grow-30/`;
    const id = await createCrawl({ seeds: [root], extract: { formats: ['markdown', 'metadata'] } });
    await waitForCrawl(id);
    const text = await (await api(`/v1/crawls/${id}/llms.txt`)).text();
    const headings = [...text.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    expect(headings).toEqual(['Pages', 'Blog', 'Docs']);
    const sections = new Map(
      text
        .split(/^## /m)
        .slice(1)
        .map((part) => {
          const [heading = '', ...lines] = part.split('\n');
          const urls = lines.flatMap((l) => /^- \[.*\]\((\S+)\)/.exec(l)?.[1] ?? []);
          return [heading, urls.map((u) => u.slice(root.length))] as const;
        }),
    );
    expect(sections.get('Pages')).toEqual([
      '',
      'about.html',
      'dropped.html',
      'edited.html',
      'removed.html',
      'zebra.html',
    ]);
    expect(sections.get('Blog')).toEqual(['blog/', 'blog/first.html', 'blog/second.html']);
    expect(sections.get('Docs')).toEqual([
      'docs/',
      ...Array.from({ length: 30 }, (_, i) => `docs/p${i + 1}.html`).sort(),
    ]);

    // The same file when every read is small: a section over several reads, small sections read together.
    const crawl = await getCrawlRow(env.DB, id);
    if (!crawl) throw new Error('no crawl row');
    const head = { name: 'Grow', summary: '', context: sectionContext(crawl.config.seeds, false) };
    const small = await new Response(streamLlmsTxt(env.DB, id, head, { rows: 2, runs: 1 })).text();
    const large = await new Response(streamLlmsTxt(env.DB, id, head)).text();
    expect(small).toBe(large);
    expect([...small.matchAll(/^## (.+)$/gm)].map((m) => m[1])).toEqual(['Pages', 'Blog', 'Docs']);
  });

  it('is a 404 for an unknown crawl and needs the token', async () => {
    expect((await api(`/v1/crawls/${crypto.randomUUID()}/llms.txt`)).status).toBe(404);
    expect((await api(`/v1/crawls/${crypto.randomUUID()}/llms-full.txt`, { token: null })).status).toBe(401);
  });
});
