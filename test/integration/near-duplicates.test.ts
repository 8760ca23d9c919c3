/**
 * Near-duplicates (docs/crawling.md, "Duplicates"): pages whose main text is almost the same as one the crawl had
 * first (a list under another sort order, an article with a changing counter) are recorded as its duplicates with
 * their similarity when the crawl asks for it (duplicates: "similar", Firecrawl's deduplicateSimilarURLs), through
 * every read path; pages that are truly different are never taken for them.
 */
import { exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { recordSchema } from '../../src/api/responses';
import { allPages, api, createCrawl, namespace, site, waitForCrawl } from '../support/api';

const LOOKALIKES = ['list-name.html', 'list-new.html', 'article-print.html'];

function firecrawl(path: string, body?: unknown): Promise<Response> {
  const headers = new Headers({ authorization: 'Bearer test-token' });
  if (body !== undefined) headers.set('content-type', 'application/json');
  const init = body === undefined ? {} : { method: 'POST', body: JSON.stringify(body) };
  return exports.default.fetch(new Request(`http://edgecrawl.test${path}`, { ...init, headers }));
}

describe('near-duplicates', () => {
  it('duplicates: "similar" records a re-sorted list and a counted article as duplicates, with their similarity', async () => {
    const base = `${site()}/t/${namespace()}/trap-near/`;
    const id = await createCrawl({ seeds: [base], duplicates: 'similar', extract: { formats: ['markdown'] } });
    const crawl = await waitForCrawl(id);
    const pages = await allPages(id);
    const near = pages.filter((p) => p.duplicateReason === 'similar');
    // One of each group is kept (whichever came first), the others name it; no truly different page is taken.
    expect(near).toHaveLength(3);
    const lists = pages.filter((p) => p.url.includes('/list-'));
    expect(lists.filter((p) => p.duplicateOf === null)).toHaveLength(1);
    for (const page of near) {
      expect(page.similarity).toBeGreaterThan(0.9);
      expect(page.similarity).toBeLessThanOrEqual(1);
      expect(pages.find((p) => p.url === page.duplicateOf)?.duplicateOf).toBeNull();
    }
    expect(pages.filter((p) => p.duplicateOf === null && p.status === 200)).toHaveLength(crawl.counts.stored);
    expect(crawl.counts).toMatchObject({ duplicates: 3 });

    // Its record, content and export line are those of the page it names, saying so.
    const [duplicate] = near;
    const url = encodeURIComponent(duplicate?.url ?? '');
    const record = recordSchema.parse(await (await api(`/v1/crawls/${id}/record?url=${url}`)).json());
    expect(record.duplicateOf).toBe(duplicate?.duplicateOf);
    const content = await api(`/v1/crawls/${id}/content?url=${url}&format=markdown`);
    expect(content.headers.get('x-edgecrawl-duplicate-of')).toBe(duplicate?.duplicateOf);
    const lines = (await (await api(`/v1/crawls/${id}/export?format=jsonl`)).text())
      .trim()
      .split('\n')
      .map(
        (l) => JSON.parse(l) as { url: string; duplicateOf: string | null; similarity: number | null; stored: boolean },
      );
    expect(lines.find((l) => l.url === duplicate?.url)).toMatchObject({
      duplicateOf: duplicate?.duplicateOf,
      similarity: duplicate?.similarity,
      stored: false,
    });
    // llms.txt, a corpus, lists the content once.
    const llms = await (await api(`/v1/crawls/${id}/llms.txt`)).text();
    expect(llms.match(/\/list-/g)).toHaveLength(1);
  });

  it('the default (duplicates: "skip") stores each of them: they are not the same bytes or text', async () => {
    const base = `${site()}/t/${namespace()}/trap-near/`;
    const id = await createCrawl({ seeds: [base] });
    await waitForCrawl(id);
    const pages = await allPages(id);
    for (const name of LOOKALIKES)
      expect(pages.find((p) => p.url === `${base}${name}`)?.duplicateOf ?? null, name).toBeNull();
  });

  it("a Firecrawl crawl (deduplicateSimilarURLs, Firecrawl's default) answers a near-duplicate with its kept page's markdown", async () => {
    const base = `${site()}/t/${namespace()}/trap-near/`;
    const started = (await (
      await firecrawl('/v2/crawl', { url: base, scrapeOptions: { formats: ['markdown'] } })
    ).json()) as { id: string };
    const crawl = await waitForCrawl(started.id);
    expect(crawl.config.duplicates).toBe('similar');
    const pages = await allPages(started.id);
    const near = pages.filter((p) => p.duplicateReason === 'similar');
    expect(near).toHaveLength(3);
    const docs = (await (await firecrawl(`/v2/crawl/${started.id}`)).json()) as {
      data: { markdown?: string; metadata: { sourceURL?: string } }[];
    };
    const bySource = new Map(docs.data.map((d) => [d.metadata.sourceURL, d]));
    for (const page of near) {
      expect(bySource.get(page.url)?.markdown).toBe(bySource.get(page.duplicateOf ?? '')?.markdown);
      expect(bySource.get(page.url)?.markdown?.length).toBeGreaterThan(100);
    }
  });
});
