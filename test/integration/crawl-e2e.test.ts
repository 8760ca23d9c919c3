import { describe, expect, it } from 'vitest';
import { allPages, api, countBy, createCrawl, namespace, site, siteLog, waitForCrawl } from '../support/api';

const N = 300;

describe('a crawl of a 300-page site through the real API, queue, Durable Object, R2 and D1', () => {
  it('stores every reachable page exactly once, byte-identical, with right counts', async () => {
    const ns = namespace();
    const root = `${site()}/t/${ns}/tree-${N}/`;
    const id = await createCrawl({ seeds: [root] });
    const crawl = await waitForCrawl(id);

    // Reachable in scope: the root, p1..pN, and the binary files linked from every 25th page.
    const expected = new Set<string>([root]);
    for (let i = 1; i <= N; i++) expected.add(`${root}p${i}.html`);
    for (let i = 25; i <= N; i += 25) expected.add(`${root}files/${i}.bin`);

    expect(crawl.status).toBe('completed');
    expect(crawl.counts).toEqual({
      discovered: expected.size,
      fetched: expected.size,
      stored: expected.size,
      failed: 0,
      skipped: 0,
      duplicates: 0,
    });
    expect(crawl.pending).toBe(0);

    // The server saw each URL exactly once, and nothing out of scope (localhost) or unlinked.
    const log = await siteLog(ns);
    const host = new URL(root).host;
    expect(log.every((entry) => entry.startsWith(`${host} `))).toBe(true);
    const perPath = countBy(log.map((entry) => `http://${entry.replace(' ', '')}`));
    expect([...perPath.values()].every((n) => n === 1)).toBe(true);
    expect(new Set(perPath.keys())).toEqual(expected);

    // D1 lists each page once, in stable URL order.
    const pages = await allPages(id, 37);
    expect(pages.map((p) => p.url)).toEqual([...expected].sort());
    expect(pages.every((p) => p.status === 200)).toBe(true);
    const p7 = pages.find((p) => p.url === `${root}p7.html`);
    expect(p7?.title).toBe('Tree page 7');
    expect(p7?.contentType).toBe('text/html; charset=utf-8');
    const bin = pages.find((p) => p.url === `${root}files/50.bin`);
    expect(bin?.contentType).toBe('application/octet-stream');
    expect(bin?.title).toBeNull();

    // Bodies in R2 are byte-identical to what the site serves.
    for (const url of expected) {
      const [stored, original] = await Promise.all([
        api(`/v1/crawls/${id}/content?url=${encodeURIComponent(url)}`),
        fetch(url),
      ]);
      expect(stored.status, url).toBe(200);
      const [a, b] = await Promise.all([stored.arrayBuffer(), original.arrayBuffer()]);
      expect(new Uint8Array(a), url).toEqual(new Uint8Array(b));
      expect(stored.headers.get('content-type')).toBe(original.headers.get('content-type'));
      const page = pages.find((p) => p.url === url);
      expect(page?.bytes).toBe(b.byteLength);
    }
  });
});
