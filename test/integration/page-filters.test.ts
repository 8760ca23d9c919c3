/** Filters and the text search of GET /v1/crawls/:id/pages: each checked against the unfiltered listing. */
import { beforeAll, describe, expect, it } from 'vitest';
import { type PageList, pageListSchema } from '../../src/api/responses';
import { allPages, api, createCrawl, namespace, site, waitForCrawl } from '../support/api';

type Page = PageList['pages'][number];

/** Every page a filtered listing answers, following its cursors; and how many requests it took. */
async function filtered(id: string, query: string, limit = 100): Promise<{ urls: string[]; calls: number }> {
  const urls: string[] = [];
  let cursor: string | null = null;
  let calls = 0;
  do {
    const res = await api(`/v1/crawls/${id}/pages?${query}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
    const raw: unknown = await res.json();
    expect(res.status, JSON.stringify(raw)).toBe(200);
    const body = pageListSchema.parse(raw);
    expect(body.searched).toBeTypeOf('number');
    urls.push(...body.pages.map((p) => p.url));
    cursor = body.cursor;
    calls++;
  } while (cursor);
  return { urls, calls };
}

async function errorUrls(id: string, outcome: string): Promise<string[]> {
  const res = await api(`/v1/crawls/${id}/errors?outcome=${outcome}&limit=1000`);
  return ((await res.json()) as { errors: { url: string }[] }).errors.map((e) => e.url);
}

describe('GET /v1/crawls/:id/pages filters', () => {
  let id = '';
  let pages: Page[] = [];
  const urlsOf = (keep: (p: Page) => boolean) => pages.filter(keep).map((p) => p.url);

  beforeAll(async () => {
    const ns = namespace();
    id = await createCrawl({
      seeds: [`${site()}/t/${ns}/pure-20/`, `${site()}/t/${ns}/misc/`],
      extract: { formats: ['text'] },
    });
    expect((await waitForCrawl(id)).status).toBe('completed');
    pages = await allPages(id);
  }, 90_000);

  it('filters by status code and class, content type and rendered, each as the full listing says', async () => {
    expect(urlsOf((p) => p.status === 404).length).toBeGreaterThan(0);
    expect((await filtered(id, 'status=4xx')).urls).toEqual(urlsOf((p) => p.status >= 400 && p.status < 500));
    expect((await filtered(id, 'status=404,3xx')).urls).toEqual(
      urlsOf((p) => p.status === 404 || (p.status >= 300 && p.status < 400)),
    );
    const html = urlsOf((p) => p.contentType?.startsWith('text/html') ?? false);
    expect((await filtered(id, 'contentType=html')).urls).toEqual(html);
    expect((await filtered(id, 'contentType=TEXT/PLAIN')).urls).toEqual(
      urlsOf((p) => p.contentType?.startsWith('text/plain') ?? false),
    );
    expect((await filtered(id, 'rendered=false')).urls).toEqual(pages.map((p) => p.url));
    expect((await filtered(id, 'rendered=true')).urls).toEqual([]);
    // Filters combine with each other and with q, paged by the cursor.
    const both = await filtered(id, 'status=2xx&contentType=html&q=tree', 3);
    expect(both.urls).toEqual(
      urlsOf((p) => p.status < 300 && html.includes(p.url) && /tree/i.test(`${p.title}${p.url}`)),
    );
    expect(both.calls).toBeGreaterThan(3);
  });

  it('filters by outcome: stored, duplicate, and failed as GET /errors records it', async () => {
    expect((await filtered(id, 'outcome=stored')).urls).toEqual(
      urlsOf((p) => p.duplicateOf === null && p.status >= 200 && p.status < 300),
    );
    expect((await filtered(id, 'outcome=duplicate')).urls).toEqual(urlsOf((p) => p.duplicateOf !== null));
    const failed = new Set(await errorUrls(id, 'failed'));
    const failedPages = urlsOf((p) => failed.has(p.url));
    expect(failedPages.length).toBeGreaterThan(0);
    expect((await filtered(id, 'outcome=failed')).urls).toEqual(failedPages);
    expect((await filtered(id, 'outcome=failed&status=2xx')).urls).toEqual([]);
  });

  it('searches the extracted text: every word, in the records, paged', async () => {
    // "Page 13 of 20" is in p13's heading only (the misc pages' text has no "of"; a port may hold "13").
    expect((await filtered(id, 'text=13+of+20')).urls).toEqual(urlsOf((p) => p.url.endsWith('/p13.html')));
    // The filler of p1 .. p20 (site.ts) holds both "durable" and "edge" in p4, p5, p6 and p15 only.
    const both = urlsOf((p) => /\/p(4|5|6|15)\.html$/.test(p.url));
    expect((await filtered(id, 'text=DURABLE+edge')).urls).toEqual(both);
    const paged = await filtered(id, 'text=durable+edge', 2);
    expect(paged.urls).toEqual(both);
    expect(paged.calls).toBe(3);
    expect((await filtered(id, 'q=durable')).urls).toEqual([]);
    expect((await filtered(id, 'text=durable&status=4xx')).urls).toEqual([]);
    expect((await filtered(id, 'text=nowhere-to-be-found')).urls).toEqual([]);
  });

  it('rejects invalid filters with a 400 naming them', async () => {
    for (const [query, message] of [
      ['status=200x', /status: "200x" is not a status code/],
      ['status=6xx', /status: "6xx"/],
      ['contentType=%3Cb%3E', /contentType: "<b>" is not a MIME prefix/],
      ['change=gone', /change: "gone" is not new, changed, unchanged/],
      ['rendered=yes', /rendered must be true or false/],
      ['outcome=lost', /outcome: "lost" is not stored, duplicate, failed, skipped/],
      ['outcome=failed&order=recent', /cannot be used with order=recent/],
    ] as const) {
      const res = await api(`/v1/crawls/${id}/pages?${query}`);
      expect(res.status, query).toBe(400);
      expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(message);
    }
  });

  it("filters a recrawl's pages by how they changed, as GET /changes lists them", async () => {
    const ns = namespace();
    const root = `${site()}/t/${ns}/cond-5/`;
    const first = await createCrawl({ seeds: [root] });
    await waitForCrawl(first);
    await fetch(`${site()}/__bump/${ns}`, { method: 'PUT' });
    const second = await createCrawl({ seeds: [root], previousCrawlId: first });
    expect((await waitForCrawl(second)).status).toBe('completed');
    const listed = async (kind: string) =>
      (
        (await (await api(`/v1/crawls/${second}/changes?kind=${kind}`)).json()) as { changes: { url: string }[] }
      ).changes
        .map((c) => c.url)
        .sort();
    for (const kind of ['new', 'changed', 'unchanged']) {
      const expected = await listed(kind);
      expect(expected.length, kind).toBeGreaterThan(0);
      expect((await filtered(second, `change=${kind}`)).urls, kind).toEqual(expected);
    }
    expect((await filtered(second, 'change=new,changed')).urls).toEqual(
      [...(await listed('new')), ...(await listed('changed'))].sort(),
    );
  });
});
