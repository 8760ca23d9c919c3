/**
 * Firecrawl's answers as Firecrawl documents them: each Firecrawl route, v1 and v2, and each webhook event edgecrawl
 * sends, exercised once and checked against Firecrawl's own OpenAPI documents (../shared/specs/firecrawl, through
 * test/support/firecrawl-api.ts, as every Firecrawl answer of the other tests is). Without ../shared it says that it
 * skipped. The differences it accepts are DIFFERENCES (test/support/firecrawl-conformance.ts), each one met here.
 */
import { describe, expect, it } from 'vitest';
import { namespace, site } from '../support/api';
import { firecrawlApi, firecrawlDocuments, verdicts } from '../support/firecrawl-api';
import { DIFFERENCES } from '../support/firecrawl-conformance';
import { waitForDeliveries } from '../support/webhooks';

type Json = Record<string, unknown>;

const docs = firecrawlDocuments();

const post = async (path: string, body: unknown): Promise<Json> => {
  const res = await firecrawlApi(path, { method: 'POST', body: JSON.stringify(body) });
  const json: Json = await res.json();
  expect(res.status, JSON.stringify(json)).toBe(200);
  return json;
};

const get = async (path: string, method = 'GET'): Promise<Json> => (await firecrawlApi(path, { method })).json();

async function waitFor(path: string): Promise<Json> {
  for (let i = 0; i < 400; i++) {
    const body = await get(path);
    if (body.status !== 'scraping') return body;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${path} still scraping`);
}

/** Follows `next` (an absolute URL on this Worker) to the end, every page checked. */
async function readAll(first: Json): Promise<number> {
  let pages = 1;
  let next = first.next;
  while (typeof next === 'string') {
    const { pathname, search } = new URL(next);
    next = (await get(pathname + search)).next;
    pages++;
  }
  return pages;
}

it.runIf(docs === null)("skipped: Firecrawl's documents are not in ../shared/specs/firecrawl", () => {
  console.warn("firecrawl-conformance: skipped, ../shared/specs/firecrawl (Firecrawl's OpenAPI documents) is absent");
});

describe.runIf(docs !== null)("Firecrawl's answers against Firecrawl's OpenAPI documents", () => {
  it('scrape, v2 and v1: formats, change tracking, the json format', async () => {
    const url = `${site()}/t/${namespace()}/docs/`;
    for (const v of ['v2', 'v1']) {
      await post(`/${v}/scrape`, { url, formats: ['markdown', 'html', 'rawHtml', 'links'], origin: 'python-sdk@3' });
      const tracked = { url, formats: ['markdown', { type: 'changeTracking', modes: ['git-diff'] }] };
      await post(`/${v}/scrape`, { ...tracked, origin: 'test' });
      await post(`/${v}/scrape`, { ...tracked, origin: 'test' });
    }
    const schema = { type: 'object', properties: { title: { type: 'string' } } };
    const json = await post('/v2/scrape', { url, formats: [{ type: 'json', schema }], origin: 'test' });
    expect(json.data).toHaveProperty('json');
    await post('/v1/scrape', { url, formats: ['json'], jsonOptions: { schema }, origin: 'test' });
  });

  it('map, v2 and v1', async () => {
    const url = `${site()}/t/${namespace()}/tree-12/`;
    expect((await post('/v2/map', { url, origin: 'test' })).links).not.toHaveLength(0);
    expect((await post('/v1/map', { url, origin: 'test' })).links).not.toHaveLength(0);
  });

  it('crawl, v2 and v1: start, status page by page, errors, active, cancel, an unknown job', async () => {
    for (const v of ['v2', 'v1']) {
      const url = `${site()}/t/${namespace()}/misc/`;
      const started = await post(`/${v}/crawl`, { url, limit: 20, crawlEntireDomain: true, origin: 'test' });
      await get(`/${v}/crawl/active`);
      const done = await waitFor(`/${v}/crawl/${String(started.id)}?limit=2`);
      expect(await readAll(done)).toBeGreaterThan(1);
      expect((await get(`/${v}/crawl/${String(started.id)}/errors`)).errors).not.toHaveLength(0);
      expect((await get(`/${v}/crawl/${String(started.id)}`, 'DELETE')).status).toBe('completed');
      const running = await post(`/${v}/crawl`, { url: `${site()}/t/${namespace()}/tree-12/`, origin: 'test' });
      expect((await get(`/${v}/crawl/${String(running.id)}`, 'DELETE')).success).toBe(true);
      expect((await firecrawlApi(`/${v}/crawl/${crypto.randomUUID()}`)).status).toBe(404);
    }
  });

  it('batch scrape, v2 and v1: start, status, errors, cancel', async () => {
    for (const v of ['v2', 'v1']) {
      const base = `${site()}/t/${namespace()}/tree-12/`;
      const urls = [`${base}p2.html`, `${base}p3.html`];
      const started = await post(`/${v}/batch/scrape`, { urls, formats: ['markdown'], origin: 'test' });
      const done = await waitFor(`/${v}/batch/scrape/${String(started.id)}`);
      expect(done.data).toHaveLength(2);
      await get(`/${v}/batch/scrape/${String(started.id)}/errors`);
      await get(`/${v}/batch/scrape/${String(started.id)}`, 'DELETE');
    }
  });

  it("webhooks: a crawl's and a batch's events", async () => {
    const ns = namespace();
    const webhook = { url: `${site()}/__hook/${ns}`, metadata: { run: 'conformance' } };
    const crawl = await post('/v2/crawl', { url: `${site()}/t/${ns}/pure-4/`, webhook, origin: 'test' });
    await waitFor(`/v2/crawl/${String(crawl.id)}`);
    const urls = [`${site()}/t/${ns}/tree-12/p2.html`];
    const batch = await post('/v2/batch/scrape', { urls, webhook, origin: 'test' });
    await waitFor(`/v2/batch/scrape/${String(batch.id)}`);
    const deliveries = await waitForDeliveries(ns, 4 + 3);
    const types = new Set(deliveries.map((d) => (JSON.parse(d.body) as { type: string }).type));
    expect([...types].sort()).toEqual([
      'batch_scrape.completed',
      'batch_scrape.page',
      'batch_scrape.started',
      'crawl.completed',
      'crawl.page',
      'crawl.started',
    ]);
  });

  it('checked every operation exercised, and met each known difference', () => {
    const operations = new Set(verdicts.map((v) => v.verdict.operation).filter((o) => o !== null));
    for (const op of [
      'v2 POST /scrape 200',
      'v1 POST /scrape 200',
      'v2 POST /map 200',
      'v1 POST /map 200',
      'v2 POST /crawl 200',
      'v2 GET /crawl/{id} 200',
      'v1 GET /crawl/{id} 200',
      'v2 GET /crawl/{id}/errors 200',
      'v2 DELETE /crawl/{id} 200',
      'v2 GET /crawl/active 200',
      'v2 POST /batch/scrape 200',
      'v2 GET /batch/scrape/{id} 200',
      'v1 GET /batch/scrape/{id} 200',
      'webhook crawl.page',
      'webhook batch_scrape.completed',
    ])
      expect(operations).toContain(op);
    const accepted = verdicts.flatMap((v) => v.verdict.accepted.map((line) => ({ op: v.verdict.operation, line })));
    for (const d of DIFFERENCES)
      expect(
        accepted.some((a) => d.operation.test(a.op ?? '') && d.problem.test(a.line)),
        d.why,
      ).toBe(true);
  });
});
