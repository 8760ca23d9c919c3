/**
 * Firecrawl's Python clients, as they call: each method's exact request (method, path, headers, the JSON body's keys as
 * the client builds them) and edgecrawl's answer checked against what the client's pydantic models require
 * (test/support/firecrawl-py-models.ts, which cites the sources), with the clients' polling and paging. firecrawl-py
 * is on no registry these machines reach, so its requests are sent here as its source builds them: v2
 * (`v2/methods/*.py`, `v2/utils/http_client.py` at 6ff3539b, `v2/utils/validation.py` at 61e38dc8) and v1
 * (`v1/client.py` at 61e38dc8); LangChain's FireCrawlLoader (langchain-community, `document_loaders/firecrawl.py` at
 * 3afbb9b8) and LlamaIndex's FireCrawlWebReader (llama-index-readers-web, the version needing firecrawl-py>=4.3.3)
 * call those methods. docs/firecrawl.md lists what works.
 */
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { namespace, site } from '../support/api';
import { firecrawlFetch } from '../support/firecrawl-api';
import { v1, v2 } from '../support/firecrawl-py-models';

const API = 'http://edgecrawl.test';
const ORIGIN = 'python-sdk@4.3.3';
/** Every request of both clients (v1's map_url sends no Content-Type header of its own; requests adds it for json=). */
const HEADERS = { 'Content-Type': 'application/json', Authorization: 'Bearer test-token' };
/** v2's prepare_scrape_options: the defaults it adds to any ScrapeOptions. */
const V2_SCRAPE_DEFAULTS = {
  onlyMainContent: true,
  mobile: false,
  skipTlsVerification: true,
  removeBase64Images: true,
  fastMode: false,
  blockAds: true,
  maxAge: 14_400_000,
  storeInCache: true,
};

/** One request as the client sends it; the answer parsed by the model it is read with. */
async function call<T extends z.ZodType>(model: T, method: string, url: string, body?: object): Promise<z.output<T>> {
  const init = body === undefined ? { method } : { method, body: JSON.stringify(body) };
  const res = await firecrawlFetch(new Request(url, { ...init, headers: HEADERS }));
  const json: unknown = await res.json();
  expect(res.status, JSON.stringify(json)).toBe(200);
  const parsed = model.safeParse(json);
  if (!parsed.success) throw new Error(`${method} ${url}: ${parsed.error.message}\n${JSON.stringify(json)}`);
  return parsed.data;
}

/**
 * http_client._build_url: an absolute `next` keeps its own path and query on the API URL's scheme and host (the API
 * URL's path is not prepended: a `next` under /firecrawl/v2 stays there).
 */
function v2Next(next: string): string {
  const url = new URL(next);
  // The Authorization header is sent only when the host is the API URL's (_is_same_host): it must be.
  expect(url.hostname).toBe(new URL(API).hostname);
  return `${new URL(API).origin}${url.pathname}${url.search}`;
}

/** v2 crawl(): start_crawl, then get_crawl_status every poll_interval until completed, failed or cancelled. */
async function v2Crawl(body: object, kind: 'crawl' | 'batch/scrape' = 'crawl') {
  const started = await call(kind === 'crawl' ? v2.started : v2.batchStarted, 'POST', `${API}/v2/${kind}`, body);
  for (;;) {
    const job = await call(kind === 'crawl' ? v2.crawlJob : v2.batchJob, 'GET', `${API}/v2/${kind}/${started.id}`);
    const data = [...job.data];
    // Every page through `next` (a crawl's status pages even while it runs; a batch's once it ended).
    for (let next = job.next; next; ) {
      const page = await call(v2.crawlJob, 'GET', v2Next(next));
      data.push(...page.data);
      next = page.next;
    }
    if (['completed', 'failed', 'cancelled'].includes(job.status)) return { id: started.id, job, data };
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** v1 _monitor_job_status: poll /v1/crawl/:id; once completed, follow `next` as given while pages have documents. */
async function v1Monitor(id: string) {
  for (;;) {
    const status = await call(v1.job, 'GET', `${API}/v1/crawl/${id}`);
    if (status.status === 'completed') {
      const data = [...status.data];
      let last = status;
      while (last.next && last.data.length > 0) {
        last = await call(v1.job, 'GET', last.next);
        data.push(...last.data);
      }
      return v1.job.parse({ ...last, data });
    }
    // Any other status than these raises "Crawl job failed or was stopped".
    expect(['active', 'paused', 'pending', 'queued', 'waiting', 'scraping']).toContain(status.status);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('firecrawl-py v2 (Firecrawl, FirecrawlApp from 3.0)', () => {
  it('scrape(url, formats=[...]), and a json format with a schema', async () => {
    const url = `${site()}/t/${namespace()}/docs/`;
    const formats = ['markdown', 'html', 'links'];
    const body = { url, formats, ...V2_SCRAPE_DEFAULTS, origin: ORIGIN };
    const { data } = await call(v2.scrape, 'POST', `${API}/v2/scrape`, body);
    expect(data.markdown).toMatch(/\w/);
    expect(data.metadata?.sourceURL).toBe(url);
    const schema = { type: 'object', properties: { title: { type: 'string' } } };
    const json = { url, formats: [{ type: 'json', schema }], ...V2_SCRAPE_DEFAULTS, origin: ORIGIN };
    expect((await call(v2.scrape, 'POST', `${API}/v2/scrape`, json)).data.json).toBeDefined();
  });

  it('crawl(url, limit=...) waits and pages through next; get_crawl_errors, active_crawls, cancel_crawl', async () => {
    const url = `${site()}/t/${namespace()}/tree-12/`;
    const { id, job, data } = await v2Crawl({ url, limit: 8, origin: ORIGIN });
    expect(job.status).toBe('completed');
    expect(data.length).toBe(job.completed);
    await call(v2.errors, 'GET', `${API}/v2/crawl/${id}/errors`);
    await call(v2.active, 'GET', `${API}/v2/crawl/active`);
    const paged = await call(v2.crawlJob, 'GET', `${API}/v2/crawl/${id}?limit=2`);
    expect(paged.next).toMatch(new RegExp(`^${API}/v2/crawl/${id}\\?`));
    const running = await call(v2.started, 'POST', `${API}/v2/crawl`, { url: `${url}p2.html`, origin: ORIGIN });
    const cancelled = await firecrawlFetch(
      new Request(`${API}/v2/crawl/${running.id}`, { method: 'DELETE', headers: HEADERS }),
    );
    expect(((await cancelled.json()) as { status: string }).status).toBe('cancelled');
  });

  it('map(url, limit=...), and batch_scrape(urls, formats=[...]) waiting for completed', async () => {
    const base = `${site()}/t/${namespace()}/tree-12/`;
    const map = await call(v2.map, 'POST', `${API}/v2/map`, {
      url: base,
      sitemap: 'include',
      limit: 10,
      origin: ORIGIN,
    });
    expect(map.links.length).toBeGreaterThan(0);
    const urls = [`${base}p2.html`, `${base}p3.html`];
    const body = { urls, formats: ['markdown'], ...V2_SCRAPE_DEFAULTS, origin: ORIGIN };
    const { job, data } = await v2Crawl(body, 'batch/scrape');
    expect(job.status).toBe('completed');
    expect(data).toHaveLength(2);
  });
});

describe('firecrawl-py v1 (firecrawl.v1, FirecrawlApp before 3.0)', () => {
  it('scrape_url(url, formats=[...]) and json_options', async () => {
    const url = `${site()}/t/${namespace()}/docs/`;
    const body = { url, origin: ORIGIN, formats: ['markdown', 'links'], timeout: 30_000 };
    expect((await call(v1.scrape, 'POST', `${API}/v1/scrape`, body)).data.markdown).toMatch(/\w/);
    const jsonOptions = { schema: { type: 'object', properties: { title: { type: 'string' } } } };
    const json = { url, origin: ORIGIN, formats: ['json'], timeout: 30_000, jsonOptions };
    expect((await call(v1.scrape, 'POST', `${API}/v1/scrape`, json)).data.json).toBeDefined();
  });

  it('crawl_url(url, limit=...) polls to completed and follows next; check_crawl_errors, cancel_crawl', async () => {
    const url = `${site()}/t/${namespace()}/tree-12/`;
    const { id } = await call(v1.started, 'POST', `${API}/v1/crawl`, { limit: 8, url, origin: ORIGIN });
    const done = await v1Monitor(id);
    expect(done.data.length).toBe(done.completed);
    await call(v1.errors, 'GET', `${API}/v1/crawl/${id}/errors`);
    const page = await call(v1.job, 'GET', `${API}/v1/crawl/${id}?limit=2`);
    expect(page.next).toMatch(new RegExp(`^${API}/v1/crawl/${id}\\?`));
    const cancel = await firecrawlFetch(new Request(`${API}/v1/crawl/${id}`, { method: 'DELETE', headers: HEADERS }));
    expect(cancel.status).toBe(200);
  });

  it('map_url(url), and batch_scrape_urls(urls, formats=[...]) monitored through /v1/crawl/:id', async () => {
    const base = `${site()}/t/${namespace()}/tree-12/`;
    const map = await call(v1.map, 'POST', `${API}/v1/map`, { timeout: 30_000, url: base, origin: ORIGIN });
    expect(map.links.length).toBeGreaterThan(0);
    const urls = [`${base}p2.html`, `${base}p3.html`];
    const body = { formats: ['markdown'], timeout: 30_000, urls, origin: ORIGIN };
    const { id } = await call(v1.started, 'POST', `${API}/v1/batch/scrape`, body);
    expect((await v1Monitor(id)).data).toHaveLength(2);
  });
});

describe("LangChain's FireCrawlLoader and LlamaIndex's FireCrawlWebReader", () => {
  it('LangChain: modes scrape, crawl and map (v1 methods, integration "langchain")', async () => {
    const base = `${site()}/t/${namespace()}/tree-12/`;
    const integration = 'langchain';
    const scrape = { url: base, origin: ORIGIN, formats: ['markdown'], timeout: 30_000, integration };
    expect((await call(v1.scrape, 'POST', `${API}/v1/scrape`, scrape)).data.markdown).toMatch(/\w/);
    const { id } = await call(v1.started, 'POST', `${API}/v1/crawl`, { url: base, origin: ORIGIN, integration });
    expect((await v1Monitor(id)).data.length).toBeGreaterThan(0);
    const map = { timeout: 30_000, url: base, origin: ORIGIN, integration };
    expect((await call(v1.map, 'POST', `${API}/v1/map`, map)).links.length).toBeGreaterThan(0);
  });

  it('LlamaIndex: modes scrape, crawl and map (v2 methods, integration "llamaindex")', async () => {
    const base = `${site()}/t/${namespace()}/tree-12/`;
    const integration = 'llamaindex';
    const scrape = { url: base, ...V2_SCRAPE_DEFAULTS, integration, origin: ORIGIN };
    expect((await call(v2.scrape, 'POST', `${API}/v2/scrape`, scrape)).data.markdown).toMatch(/\w/);
    const { data } = await v2Crawl({ url: base, integration, origin: ORIGIN });
    expect(data.length).toBeGreaterThan(0);
    const map = { url: base, sitemap: 'include', integration, origin: ORIGIN };
    expect((await call(v2.map, 'POST', `${API}/v2/map`, map)).links.length).toBeGreaterThan(0);
  });
});
