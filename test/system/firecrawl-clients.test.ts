/**
 * Firecrawl's own clients against a real `wrangler dev` (issue 34): the JS SDK `@mendable/firecrawl-js` (its v2 client,
 * and its v1 client under `.v1`), the MCP server `firecrawl-mcp` over stdio, and the CLI `firecrawl-cli`, each told
 * where edgecrawl is by its API URL and key, as a user of Firecrawl points them at a self-hosted one. The pages are the
 * loopback test site's; the model behind the `json` format is the fake one (test/support/fake-llm.ts). Crawl status
 * comes 5 documents a page (FIRECRAWL_PAGE_SIZE), so that the clients follow `next`. Runs in Node 22 (vitest project
 * "system"), the clients' own engine.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import Firecrawl, { type CrawlJob, type Document, type MapData, SdkError } from '@mendable/firecrawl-js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, type Sites, startSites, startWorker, type Worker } from '../../scripts/lib/local.ts';
import { PRODUCT_SCHEMA, productFacts } from '../support/product-site.ts';

const root = new URL('../../', import.meta.url).pathname;
const require = createRequire(import.meta.url);
/** The clients' own entry points, as their bins (`firecrawl-mcp`, `firecrawl`) run them. */
const MCP_SERVER = require.resolve('firecrawl-mcp/dist/index.js');
const FIRECRAWL_CLI = require.resolve('firecrawl-cli/dist/index.js');
const LLM_KEY = 'fc-clients-llm-key';

let sites: Sites;
let llm: ChildProcess;
let worker: Worker;
let firecrawl: Firecrawl;
let temp: string;
/** A namespace of the test site's paths for this run (and a host of its own, with a robots.txt: robotsHost). */
const ns = `fc${Date.now().toString(36)}`;
/** The test site's host with a robots.txt of its own (127.0.0.2): crawls elsewhere never read it. */
let robotsHost: string;
/** Another (127.0.0.3), whose robots.txt names the sitemap index of the mapped site. */
let sitemapHost: string;

/** The fake model in a process of its own (the Worker runs in wrangler dev), on a free port; its URL, ending in /v1. */
async function startLlm(): Promise<string> {
  llm = spawn(process.execPath, [join(root, 'test/support/fake-llm-process.ts'), '0', LLM_KEY], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const [line] = (await once(createInterface({ input: llm.stdout as NodeJS.ReadableStream }), 'line')) as [string];
  return (JSON.parse(line) as { url: string }).url;
}

beforeAll(async () => {
  temp = mkdtempSync(join(tmpdir(), 'edgecrawl-fc-'));
  sites = await startSites(2);
  robotsHost = sites.hosts[0] as string;
  sitemapHost = sites.hosts[1] as string;
  // ok.html of the misc site is disallowed on that host: a crawl of it reports it among robotsBlocked.
  const robots = await fetch(`${robotsHost}/__robots`, {
    method: 'PUT',
    body: `User-agent: *\nDisallow: /t/${ns}/misc/ok.html\n`,
  });
  expect(robots.status).toBe(204);
  const sitemap = await fetch(`${sitemapHost}/__robots`, {
    method: 'PUT',
    body: `User-agent: *\nAllow: /\nSitemap: ${sitemapHost}/t/${ns}/mapped/index.xml\n`,
  });
  expect(sitemap.status).toBe(204);
  const llmUrl = await startLlm();
  worker = await startWorker({
    HOST_MIN_INTERVAL_MS: '0',
    CHECK_RESPONSES: 'true',
    FIRECRAWL_PAGE_SIZE: '5',
    LLM_BASE_URL: llmUrl,
    LLM_MODEL: 'fake-model',
    LLM_API_KEY: LLM_KEY,
  });
  firecrawl = new Firecrawl({ apiUrl: `${worker.url}/firecrawl`, apiKey: worker.token });
});

afterAll(async () => {
  await worker?.stop();
  await sites?.stop();
  if (llm && llm.exitCode === null) {
    llm.kill('SIGTERM');
    await once(llm, 'exit');
  }
  if (temp) rmSync(temp, { recursive: true, force: true });
});

/** The test site's URL of a path under this run's namespace (`long-1/short.html`), on 127.0.0.1 or `host`. */
const page = (path: string, host = sites.siteA) => `${host}/t/${ns}/${path}`;

/** The URLs of a pure-<n> tree site: its root and p1 .. pn. */
const treeUrls = (variant: string, n: number) => [
  page(`${variant}/`),
  ...Array.from({ length: n }, (_, i) => page(`${variant}/p${i + 1}.html`)),
];

/** A page of a crawl's status as sent (GET /v2/crawl/:id). */
interface StatusPage {
  success: boolean;
  status: string;
  completed: number;
  total: number;
  expiresAt?: string;
  next?: string;
  data: Document[];
}

/** A scrape's answer as sent (POST /v2/scrape). */
interface ScrapeAnswer {
  success: boolean;
  warning?: string;
  data: Document;
}

/** Firecrawl's API answered as it is, without a client: status and JSON body. */
async function raw<T>(
  path: string,
  init: { method?: string; body?: unknown } = {},
): Promise<{ status: number; body: T }> {
  const url = path.startsWith('http') ? path : `${worker.url}${path}`;
  const res = await fetch(url, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: { authorization: `Bearer ${worker.token}`, 'content-type': 'application/json' },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  return { status: res.status, body: (await res.json()) as T };
}

/** Waits until GET /v2/crawl/:id says the crawl has ended (first page only), and answers that status. */
async function ended(id: string, timeoutMs = 30_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { status, body } = await raw<StatusPage>(`/v2/crawl/${id}`);
    expect(status, JSON.stringify(body)).toBe(200);
    if (body.status !== 'scraping') return body.status;
    if (Date.now() > deadline) throw new Error(`crawl ${id} still scraping after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

const sourceUrls = (docs: Document[]) => docs.map((d) => d.metadata?.sourceURL ?? '').sort();

describe('@mendable/firecrawl-js v2 client', () => {
  it('scrapes a page to markdown, html and absolute links, with its metadata', async () => {
    const url = page('long-1/');
    const doc = await firecrawl.scrape(url, { formats: ['markdown', 'html', 'links'] });
    expect(doc.markdown).toContain('# Long site');
    expect(doc.markdown).toContain('a short note');
    expect(doc.html).toContain('a long read');
    expect(doc.links).toEqual(expect.arrayContaining([page('long-1/short.html'), page('long-1/long.html')]));
    for (const link of doc.links ?? []) expect(link).toMatch(/^https?:\/\//);
    expect(doc.metadata).toMatchObject({ sourceURL: url, statusCode: 200, title: 'Long site' });
  }, 30_000);

  it('scrapes a page to JSON of a schema, the fake model reading its facts', async () => {
    const doc = await firecrawl.scrape(page('products/p/1.html'), {
      formats: [{ type: 'json', schema: PRODUCT_SCHEMA }],
    });
    expect(doc.json).toEqual(productFacts(1));
    expect(doc.metadata?.title).toBe('Lamp 1');
  }, 60_000);

  it('crawls a site to the end, waiting: every page within the limit, each with markdown', async () => {
    const job = await firecrawl.crawl(page('pure-7/'), { limit: 50, pollInterval: 1, timeout: 60 });
    expect(job.status).toBe('completed');
    expect(job.data).toHaveLength(8);
    expect(sourceUrls(job.data)).toEqual(treeUrls('pure-7', 7).sort());
    for (const doc of job.data) {
      expect(doc.markdown?.length, doc.metadata?.sourceURL).toBeGreaterThan(0);
      expect(doc.metadata?.statusCode).toBe(200);
    }
    const p3 = job.data.find((d) => d.metadata?.sourceURL === page('pure-7/p3.html'));
    expect(p3?.markdown).toContain('Page 3 of 7');
    expect(job.completed).toBe(8);
    // An ended crawl's total: its documents and failed URLs, not the /sitemap.xml it looked for.
    expect(job.total).toBe(8);
  }, 60_000);

  it('gathers a finished crawl of 16 pages across pages of 5 by following next, none twice', async () => {
    const seed = page('pure-15/');
    const { id, url } = await firecrawl.startCrawl(seed, {});
    expect(url).toContain(id);
    expect(await ended(id)).toBe('completed');

    // As sent: 5 documents, and `next` an absolute URL on edgecrawl that reads the next 5.
    const first = await raw<StatusPage>(`/v2/crawl/${id}`);
    expect(first.body.data).toHaveLength(5);
    expect(first.body).toMatchObject({ success: true, status: 'completed', completed: 16, total: 16 });
    // expiresAt always (firecrawl-py's v1 models require it): an ISO time, 9999-12-31 for a crawl kept until deleted.
    expect(Number.isNaN(Date.parse(first.body.expiresAt ?? ''))).toBe(false);
    const next = first.body.next ?? '';
    expect(new URL(next).origin).toBe(worker.url);
    const second = await raw<StatusPage>(next);
    expect(second.body.data).toHaveLength(5);
    const firstUrls = sourceUrls(first.body.data);
    expect(sourceUrls(second.body.data).filter((u) => firstUrls.includes(u))).toEqual([]);

    const job = await firecrawl.getCrawlStatus(id);
    expect(job.status).toBe('completed');
    expect(job.next).toBeNull();
    expect(job.data).toHaveLength(16);
    expect(sourceUrls(job.data)).toEqual(treeUrls('pure-15', 15).sort());

    // The last page has no next at all (not null).
    const last = await raw<StatusPage>(`/v2/crawl/${id}?skip=15`);
    expect(last.body.data).toHaveLength(1);
    expect('next' in last.body).toBe(false);

    // It is an edgecrawl crawl like any other: in edgecrawl's own list, with its start URL.
    const { crawls } = await api<{ crawls: { id: string; seeds: string[]; status: string }[] }>(worker, '/v1/crawls');
    expect(crawls.find((c) => c.id === id)).toMatchObject({ seeds: [seed], status: 'completed' });
  }, 60_000);

  it('cancels a running crawl: cancelCrawl is true, the status then says cancelled, and it is no longer active', async () => {
    // 200 pages answered after a second each: far from done when cancelled.
    const { id } = await firecrawl.startCrawl(page('flat-200-d1000/'), { limit: 200 });
    await new Promise((r) => setTimeout(r, 1500));
    const active = await firecrawl.getActiveCrawls();
    expect(active.crawls.map((c) => c.id)).toContain(id);
    expect(active.crawls.find((c) => c.id === id)?.url).toBe(page('flat-200-d1000/'));

    expect(await firecrawl.cancelCrawl(id)).toBe(true);
    const job = await firecrawl.getCrawlStatus(id);
    expect(job.status).toBe('cancelled');
    expect(job.data.length).toBeLessThan(200);
    expect((await firecrawl.getActiveCrawls()).crawls.map((c) => c.id)).not.toContain(id);
  }, 30_000);

  it("reports a crawl's errors: a 404 among errors, a URL robots.txt disallows among robotsBlocked", async () => {
    const root = page('misc/', robotsHost);
    const job = await firecrawl.crawl(root, { limit: 50, pollInterval: 1, timeout: 60 });
    expect(job.status).toBe('completed');
    const { id } = job;
    const stored = sourceUrls(job.data);
    expect(stored).toContain(root);
    expect(stored).not.toContain(`${root}ok.html`);

    const report = await firecrawl.getCrawlErrors(id);
    const missing = report.errors.find((e) => e.url === `${root}missing.html`);
    expect(missing, JSON.stringify(report.errors)).toBeDefined();
    expect(missing?.error).toMatch(/404/);
    expect(report.robotsBlocked).toEqual([`${root}ok.html`]);
  }, 60_000);

  it("crawls a site's sitemaps too (Firecrawl's default): the pages they list are documents, the sitemaps are not", async () => {
    const root = page('mapped/', sitemapHost);
    const job = await firecrawl.crawl(root, { limit: 50, pollInterval: 1, timeout: 60 });
    expect(job.status).toBe('completed');
    // The root links a.html; s1 .. s8 are listed only in the sitemaps (index.xml, map-1.xml, map-2.xml.gz);
    // private/x.html, listed too, is a 404.
    const pages = [
      '',
      'a.html',
      ...Array.from({ length: 8 }, (_, i) => (i === 4 ? 's5.html?a=1&b=2' : `s${i + 1}.html`)),
    ];
    expect(sourceUrls(job.data)).toEqual(pages.map((p) => `${root}${p}`).sort());
    const s3 = job.data.find((d) => d.metadata?.sourceURL === `${root}s3.html`);
    expect(s3?.markdown).toContain('Only in a sitemap 3');
  }, 60_000);

  it('maps a site: its URLs as {url} objects', async () => {
    const mapped = await firecrawl.map(page('long-1/'));
    const urls = mapped.links.map((l) => l.url);
    expect(urls).toEqual(expect.arrayContaining([page('long-1/short.html'), page('long-1/long.html')]));
    for (const link of mapped.links) expect(typeof link.url).toBe('string');
  }, 30_000);

  it('batch-scrapes two URLs, waiting: two documents with their markdown', async () => {
    const short = page('long-1/short.html');
    const lamp = page('products/p/4.html');
    const job = await firecrawl.batchScrape([short, lamp], {
      options: { formats: ['markdown'] },
      pollInterval: 1,
      timeout: 60,
    });
    expect(job.status).toBe('completed');
    expect(job.data).toHaveLength(2);
    const byUrl = new Map(job.data.map((d) => [d.metadata?.sourceURL, d]));
    expect(byUrl.get(short)?.markdown).toContain('The short note says little.');
    expect(byUrl.get(lamp)?.markdown).toContain('SKU-0004');
  }, 60_000);

  it('batch-scrapes one page served under two URLs (edgecrawl stores it once): two documents, each its URL and the markdown', async () => {
    const urls = [page('lookalikes/same-1.html'), page('lookalikes/same-2.html')];
    const job = await firecrawl.batchScrape(urls, { options: { formats: ['markdown'] }, pollInterval: 1, timeout: 60 });
    expect(job.status).toBe('completed');
    expect(job).toMatchObject({ total: 2, completed: 2 });
    expect(sourceUrls(job.data)).toEqual(urls);
    for (const doc of job.data) expect(doc.markdown).toContain('One page served under two addresses.');
  }, 60_000);

  it('scrapes a page the site answers 404: a document with that statusCode, as Firecrawl answers it', async () => {
    const url = page('misc/missing.html');
    const doc = await firecrawl.scrape(url, { formats: ['markdown'] });
    expect(doc.metadata).toMatchObject({ sourceURL: url, statusCode: 404 });
    expect(doc.metadata?.error).toMatch(/404/);
  }, 30_000);

  it('scrapes with an option edgecrawl does not have (mobile), saying so in the warning', async () => {
    const url = page('long-1/short.html');
    // The SDK's scrape answers the document alone (`data`): the answer's top-level `warning` is not in it. Read as sent.
    const answer = await raw<ScrapeAnswer>('/v2/scrape', { body: { url, formats: ['markdown'], mobile: true } });
    expect(answer.status).toBe(200);
    expect(answer.body.success).toBe(true);
    expect(answer.body.warning).toMatch(/mobile/);
    expect(answer.body.data.markdown).toContain('The short note says little.');
    // Through the SDK the same request still answers the page.
    const doc = await firecrawl.scrape(url, { formats: ['markdown'], mobile: true });
    expect(doc.markdown).toContain('The short note says little.');
  }, 30_000);

  it("scrapes a private page with the site's API key in `headers`: sent to its host, User-Agent left out", async () => {
    const url = page('private/header/c.html');
    const headers = { 'X-Api-Key': `key-${ns}`, 'User-Agent': 'my-scraper/1.0' };
    const doc = await firecrawl.scrape(url, { formats: ['markdown'], headers });
    expect(doc.metadata).toMatchObject({ sourceURL: url, statusCode: 200 });
    expect(doc.markdown).toContain('Header page header/c.html');
    const without = await firecrawl.scrape(url, { formats: ['markdown'], maxAge: 0 });
    expect(without.metadata?.statusCode).toBe(403);
    const hits = (await (await fetch(`${sites.siteA}/__creds/${ns}`)).json()) as { path: string; apiKey: string }[];
    expect(hits.filter((h) => h.path.endsWith('/header/c.html')).map((h) => h.apiKey)).toEqual([`key-${ns}`, null]);
    const answer = await raw<ScrapeAnswer>('/v2/scrape', { body: { url, headers } });
    expect(answer.body.warning).toBe('headers edgecrawl sets itself, not sent: User-Agent');
    expect(JSON.stringify(answer.body)).not.toContain(`key-${ns}`);
  }, 30_000);

  it('crawls the private pages with scrapeOptions.headers (the worker seals them with its CREDENTIALS_KEY)', async () => {
    const basic = `Basic ${Buffer.from(`user-${ns}:pass-${ns}`).toString('base64')}`;
    const headers = { 'X-Api-Key': `key-${ns}`, Authorization: basic, Cookie: `session=sess-${ns}` };
    const job = await firecrawl.crawl(page('private/'), { limit: 20, scrapeOptions: { headers }, pollInterval: 1 });
    expect(job.status).toBe('completed');
    const statuses = new Map(job.data.map((d) => [d.metadata?.sourceURL, d.metadata?.statusCode]));
    for (const path of ['header/c.html', 'basic/b.html', 'cookie/a.html'])
      expect(statuses.get(page(`private/${path}`)), path).toBe(200);
    expect(JSON.stringify(job)).not.toMatch(new RegExp(`key-${ns}|sess-${ns}|pass-${ns}`));
  }, 60_000);

  it("refuses a wrong key and answers an unknown job with Firecrawl's errors, which the SDK throws as they are", async () => {
    const stranger = new Firecrawl({ apiUrl: worker.url, apiKey: 'not-the-token' });
    const refused = await stranger.scrape(page('long-1/short.html'), { formats: ['markdown'] }).catch((e) => e);
    expect(refused).toBeInstanceOf(SdkError);
    expect(refused.status).toBe(401);
    const unknown = await firecrawl.getCrawlStatus(crypto.randomUUID()).catch((e) => e);
    expect(unknown).toBeInstanceOf(SdkError);
    expect(unknown).toMatchObject({ status: 404, message: 'Job not found' });
  }, 30_000);
});

describe('@mendable/firecrawl-js v1 client (.v1)', () => {
  it('scrapeUrl answers success and the markdown', async () => {
    const url = page('long-1/short.html');
    const answer = await firecrawl.v1.scrapeUrl(url, { formats: ['markdown'] });
    expect(answer.success).toBe(true);
    if (!answer.success) return;
    expect(answer.markdown).toContain('The short note says little.');
    expect(answer.metadata).toMatchObject({ sourceURL: url, statusCode: 200, title: 'Short note' });
  }, 30_000);

  it('crawlUrl waits for the crawl and follows next through its pages: every page once', async () => {
    // A limit above the site's 12 pages: edgecrawl's maxPages also counts the /sitemap.xml it looks for
    // (docs/firecrawl.md), so a limit of exactly 12 answers 11.
    const answer = await firecrawl.v1.crawlUrl(page('pure-11/'), { limit: 50 }, 1);
    expect(answer.success).toBe(true);
    if (!answer.success) return;
    expect(answer.status).toBe('completed');
    expect(answer.data).toHaveLength(12);
    const urls = answer.data.map((d) => d.metadata?.sourceURL ?? '').sort();
    expect(urls).toEqual(treeUrls('pure-11', 11).sort());
    expect(answer.data.every((d) => (d.markdown ?? '').length > 0)).toBe(true);
  }, 60_000);

  it('batchScrapeUrls waits for the batch (polled at /v1/crawl/:id) and answers both documents', async () => {
    const short = page('long-1/short.html');
    const lamp = page('products/p/5.html');
    const answer = await firecrawl.v1.batchScrapeUrls([short, lamp], { formats: ['markdown'] }, 1);
    expect(answer.success).toBe(true);
    if (!answer.success) return;
    expect(answer.status).toBe('completed');
    const byUrl = new Map(answer.data.map((d) => [d.metadata?.sourceURL, d]));
    expect(byUrl.get(short)?.markdown).toContain('The short note says little.');
    expect(byUrl.get(lamp)?.markdown).toContain('SKU-0005');
    expect(answer.data).toHaveLength(2);
  }, 30_000);

  it('mapUrl answers the links as strings', async () => {
    // The v1 client reads params.origin unguarded: without params it throws before any request.
    const answer = await firecrawl.v1.mapUrl(page('long-1/'), {});
    expect(answer.success).toBe(true);
    if (!answer.success) return;
    expect(answer.links).toEqual(expect.arrayContaining([page('long-1/short.html'), page('long-1/long.html')]));
    for (const link of answer.links ?? []) expect(typeof link).toBe('string');
  }, 30_000);
});

describe('firecrawl-mcp over stdio', () => {
  let client: Client;
  let stderr = '';

  beforeAll(async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [MCP_SERVER],
      // Only these: no CLOUD_SERVICE, SSE_LOCAL or HTTP_STREAMABLE_SERVER (stdio), no telemetry.
      env: {
        PATH: process.env.PATH ?? '',
        HOME: temp,
        FIRECRAWL_API_URL: `${worker.url}/firecrawl`,
        FIRECRAWL_API_KEY: worker.token,
      },
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    client = new Client({ name: 'edgecrawl-firecrawl-clients', version: '1.0.0' });
    await client.connect(transport);
  }, 30_000);

  afterAll(async () => {
    await client?.close();
  });

  /** A tool's text (one JSON document) parsed; a tool error fails the test with its text and the server's stderr. */
  async function call<T>(name: string, args: Record<string, unknown>): Promise<T> {
    const result = await client.callTool({ name, arguments: args });
    const parts = Array.isArray(result.content) ? result.content : [];
    const text = parts.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
    expect(result.isError, `${text}\n${stderr}`).not.toBe(true);
    return JSON.parse(text) as T;
  }

  it('lists the tools edgecrawl answers for', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(['firecrawl_scrape', 'firecrawl_map', 'firecrawl_crawl', 'firecrawl_check_crawl_status']),
    );
  });

  it('firecrawl_scrape answers the markdown of the page', async () => {
    const url = page('long-1/short.html');
    const doc = await call<Document>('firecrawl_scrape', { url, formats: ['markdown'] });
    expect(doc.markdown).toContain('The short note says little.');
    expect(doc.metadata).toMatchObject({ sourceURL: url, statusCode: 200 });
  }, 30_000);

  it("firecrawl_map answers the site's URLs", async () => {
    const mapped = await call<MapData>('firecrawl_map', { url: page('long-1/') });
    const urls = mapped.links.map((l) => l.url);
    expect(urls).toEqual(expect.arrayContaining([page('long-1/short.html'), page('long-1/long.html')]));
  }, 30_000);

  it('firecrawl_search says that search is not supported, in a result the client shows (not an MCP error)', async () => {
    // Listed first, as an MCP client does: the client then checks each tool's result against its output schema.
    await client.listTools();
    const result = await client.callTool({ name: 'firecrawl_search', arguments: { query: 'edgecrawl' } });
    const parts = Array.isArray(result.content) ? result.content : [];
    const text = parts.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
    expect(JSON.parse(text)).toEqual({
      success: false,
      error:
        "POST /firecrawl/v2/search is not supported by edgecrawl's Firecrawl-compatible API (see docs/firecrawl.md)",
    });
  }, 30_000);

  it('firecrawl_crawl waits for the crawl to end; firecrawl_check_crawl_status then answers all its pages', async () => {
    const crawled = await call<CrawlJob>('firecrawl_crawl', { url: page('pure-9/'), limit: 20 });
    expect(crawled.status).toBe('completed');
    expect(crawled.data).toHaveLength(10);
    expect(sourceUrls(crawled.data)).toEqual(treeUrls('pure-9', 9).sort());

    const status = await call<CrawlJob>('firecrawl_check_crawl_status', { id: crawled.id });
    expect(status.status).toBe('completed');
    expect(sourceUrls(status.data)).toEqual(treeUrls('pure-9', 9).sort());
    const p9 = status.data.find((d) => d.metadata?.sourceURL === page('pure-9/p9.html'));
    expect(p9?.markdown).toContain('Page 9 of 9');
  }, 60_000);
});

describe('firecrawl-cli', () => {
  it('scrape -o writes the markdown of the page to the file, exit code 0', async () => {
    const out = join(temp, 'out.md');
    const child = spawn(
      process.execPath,
      [
        FIRECRAWL_CLI,
        'scrape',
        page('long-1/short.html'),
        '--api-url',
        worker.url,
        '--api-key',
        worker.token,
        '-o',
        out,
      ],
      {
        cwd: temp,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: temp,
          FIRECRAWL_NO_UPDATE_CHECK: '1',
          FIRECRAWL_NO_TELEMETRY: '1',
          FIRECRAWL_NO_ENDPOINT_FEEDBACK: '1',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code, output).toBe(0);
    const markdown = readFileSync(out, 'utf8');
    expect(markdown).toContain('# Short note');
    expect(markdown).toContain('The short note says little.');
  }, 30_000);
});
