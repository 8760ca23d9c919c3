/**
 * Duplicates (docs/crawling.md, "Duplicates") through the per-URL reads that list a crawl's pages: Firecrawl's crawl
 * and batch scrape status answer a duplicate as a document of its own URL with its kept page's content, counted; the
 * JSONL export gives its line the kept page's content beside `duplicateOf`.
 */
import { describe, expect, it } from 'vitest';
import { allPages, createCrawl, api as edgecrawlApi, namespace, site, waitForCrawl } from '../support/api';
import { firecrawlFetch } from '../support/firecrawl-api';
import { received, waitForDeliveries } from '../support/webhooks';

type Json = Record<string, unknown>;
interface Doc {
  markdown?: string;
  links?: string[];
  metadata: { sourceURL?: string; url?: string; statusCode?: number; title?: string };
}

function firecrawl(path: string, body?: unknown): Promise<Response> {
  const headers = new Headers({ authorization: 'Bearer test-token' });
  if (body !== undefined) headers.set('content-type', 'application/json');
  const init = body === undefined ? {} : { method: 'POST', body: JSON.stringify(body) };
  return firecrawlFetch(new Request(`http://edgecrawl.test${path}`, { ...init, headers }));
}

const json = async (res: Response): Promise<Json> => (await res.json()) as Json;

async function waitForJob(path: string): Promise<Json> {
  for (let i = 0; i < 400; i++) {
    const body = await json(await firecrawl(path));
    if (body.status !== 'scraping') return body;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${path} still scraping`);
}

/** Every document of a job, a page of `limit` at a time, following `next` (keyset by URL) as Firecrawl's SDK does. */
async function allDocs(path: string, limit: number): Promise<Doc[]> {
  const docs: Doc[] = [];
  let next: string | undefined = `${path}?limit=${limit}`;
  while (next) {
    const { pathname, search } = new URL(next, 'http://edgecrawl.test');
    const body = await json(await firecrawl(pathname + search));
    expect(body.success).toBe(true);
    docs.push(...(body.data as Doc[]));
    next = typeof body.next === 'string' ? body.next : undefined;
  }
  return docs;
}

const bySource = (docs: readonly Doc[]) => new Map(docs.map((d) => [d.metadata.sourceURL, d]));

describe('duplicates in per-URL reads', () => {
  it("a Firecrawl crawl answers a duplicate as a document of its own URL with its kept page's content", async () => {
    const base = `${site()}/t/${namespace()}/lookalikes/`;
    const started = await json(await firecrawl('/v2/crawl', { url: base, scrapeOptions: { formats: ['markdown'] } }));
    const id = started.id as string;
    const done = await waitForJob(`/v2/crawl/${id}`);
    expect((await waitForCrawl(id)).counts).toMatchObject({ stored: 9, duplicates: 1 });
    const pages = await allPages(id);
    const duplicate = pages.find((p) => p.duplicateOf !== null);
    expect(duplicate).toMatchObject({ duplicateReason: 'content' });
    const [dup, kept] = [duplicate?.url ?? '', duplicate?.duplicateOf ?? ''];

    // Every page a document, the duplicate one of them: in `data`, in pages of 3, and in the counts.
    const docs = await allDocs(`/v2/crawl/${id}`, 3);
    const sources = docs.map((d) => d.metadata.sourceURL);
    expect(new Set(sources).size).toBe(10);
    expect(sources).toEqual([...sources].sort());
    expect(done).toMatchObject({ status: 'completed', completed: 10 });
    expect((done.data as Doc[]).length).toBe(10);
    const docOf = bySource(docs);
    expect(docOf.get(dup)?.metadata).toMatchObject({ sourceURL: dup, url: dup, statusCode: 200, title: 'Same' });
    expect(docOf.get(dup)?.markdown).toBe(docOf.get(kept)?.markdown);
    expect(docOf.get(dup)?.markdown).toContain('One page served under two addresses.');
  });

  it('a batch scrape of one page under two URLs answers two documents, each with its URL and the markdown', async () => {
    const base = `${site()}/t/${namespace()}/lookalikes/`;
    const urls = [`${base}same-1.html`, `${base}same-2.html`];
    const started = await json(await firecrawl('/v2/batch/scrape', { urls, formats: ['markdown', 'links'] }));
    const id = started.id as string;
    const done = await waitForJob(`/v2/batch/scrape/${id}`);
    expect((await waitForCrawl(id)).counts).toMatchObject({ stored: 1, duplicates: 1 });
    expect(done).toMatchObject({ status: 'completed', total: 2, completed: 2 });
    const docs = done.data as Doc[];
    expect(docs.map((d) => d.metadata.sourceURL)).toEqual(urls);
    expect(docs.map((d) => d.metadata.url)).toEqual(urls);
    for (const doc of docs) {
      expect(doc.markdown).toContain('One page served under two addresses.');
      expect(doc.metadata.statusCode).toBe(200);
    }
    expect(docs[0]?.links).toEqual(docs[1]?.links);
    // One at a time, by the keyset `after` the SDK follows: still both.
    expect((await allDocs(`/v2/batch/scrape/${id}`, 1)).map((d) => d.metadata.sourceURL)).toEqual(urls);
    expect(await json(await firecrawl(`/v2/batch/scrape/${id}/errors`))).toEqual({ errors: [], robotsBlocked: [] });

    // The JSONL export: the duplicate's line has its own fields, duplicateOf, and the kept page's content.
    const lines = (await (await edgecrawlApi(`/v1/crawls/${id}/export?format=jsonl`)).text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { url: string; duplicateOf: string | null; stored: boolean; markdown?: string });
    expect(lines.map((l) => l.url)).toEqual(urls);
    const [first, second] = lines;
    const [kept, dup] = first?.duplicateOf === null ? [first, second] : [second, first];
    expect(dup).toMatchObject({ duplicateOf: kept?.url, stored: false, markdown: kept?.markdown });
    expect(dup?.markdown).toContain('One page served under two addresses.');
  });

  it("a webhook in Firecrawl's format posts a crawl.page for a duplicate, with its URL and its kept page's markdown", async () => {
    const ns = namespace();
    const id = await createCrawl({
      seeds: [`${site()}/t/${ns}/lookalikes/`],
      extract: { formats: ['markdown'] },
      webhook: { url: `${site()}/__hook/${ns}`, format: 'firecrawl', events: ['page.stored'] },
    });
    expect((await waitForCrawl(id)).counts).toMatchObject({ stored: 9, duplicates: 1 });
    const duplicate = (await allPages(id)).find((p) => p.duplicateOf !== null);
    const deliveries = await waitForDeliveries(ns, 10);
    await new Promise((r) => setTimeout(r, 1000));
    expect(await received(ns)).toHaveLength(10);
    const payloads = deliveries.map((d) => JSON.parse(d.body) as { success: boolean; type: string; data: Doc[] });
    expect(payloads.every((p) => p.success && p.type === 'crawl.page')).toBe(true);
    const docOf = bySource(payloads.flatMap((p) => p.data));
    expect(docOf.size).toBe(10);
    const [dup, kept] = [docOf.get(duplicate?.url), docOf.get(duplicate?.duplicateOf ?? undefined)];
    expect(dup?.metadata).toMatchObject({ sourceURL: duplicate?.url, url: duplicate?.url, statusCode: 200 });
    expect(dup?.markdown).toContain('One page served under two addresses.');
    expect(dup?.markdown).toBe(kept?.markdown);
  });
});
