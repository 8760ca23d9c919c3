/**
 * Firecrawl's API on edgecrawl's jobs (src/api/firecrawl): answers in Firecrawl's shapes, options mapped or named as
 * ignored, crawls that are edgecrawl's own. The real clients are tested against `wrangler dev` in
 * test/system/firecrawl-clients.test.ts; these tests pin the server's side, seams included.
 */
import { env } from 'cloudflare:workers';
import { describe, expect, inject, it } from 'vitest';
import { createApp } from '../../src/api/app';
import { createCrawl, api as edgecrawlApi, namespace, site, waitForCrawl } from '../support/api';
import { firecrawlFetch } from '../support/firecrawl-api';

type Json = Record<string, unknown> & { data?: unknown };

/** A request to the Worker as Firecrawl's clients send it (its answers are not in edgecrawl's OpenAPI document). */
function api(path: string, init: RequestInit & { token?: string | null } = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  if (init.token !== null) headers.set('authorization', `Bearer ${init.token ?? 'test-token'}`);
  if (typeof init.body === 'string') headers.set('content-type', 'application/json');
  return firecrawlFetch(new Request(`http://edgecrawl.test${path}`, { ...init, headers }));
}

const post = (path: string, body: unknown, token?: string | null) =>
  api(path, { method: 'POST', body: JSON.stringify(body), ...(token === undefined ? {} : { token }) });

async function json(res: Response): Promise<Json> {
  return (await res.json()) as Json;
}

interface Doc {
  markdown?: string;
  html?: string;
  rawHtml?: string;
  links?: string[];
  metadata: Record<string, unknown>;
}

/** Polls a job's status (Firecrawl's) until it is no longer scraping. */
async function waitForJob(path: string): Promise<Json> {
  for (let i = 0; i < 400; i++) {
    const body = await json(await api(path));
    if (body.status !== 'scraping') return body;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${path} still scraping`);
}

/** Every document of a job, following `next` as Firecrawl's SDK does. */
async function allDocs(first: string): Promise<{ docs: Doc[]; pages: number }> {
  const docs: Doc[] = [];
  let url: string | undefined = first;
  let pages = 0;
  while (url) {
    const { pathname, search } = new URL(url, 'http://edgecrawl.test');
    const body = await json(await api(pathname + search));
    expect(body.success).toBe(true);
    docs.push(...(body.data as Doc[]));
    url = typeof body.next === 'string' ? body.next : undefined;
    pages++;
  }
  return { docs, pages };
}

describe('Firecrawl scrape', () => {
  it('answers /v2/scrape with a document: markdown, html, rawHtml, links and metadata by their Firecrawl names', async () => {
    const url = `${site()}/t/${namespace()}/docs/`;
    const res = await post('/v2/scrape', {
      url,
      formats: ['markdown', 'html', 'rawHtml', 'links'],
      origin: 'js-sdk@4.42.0',
    });
    const body = await json(res);
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body.success).toBe(true);
    expect(body.warning).toBeUndefined();
    const doc = body.data as Doc;
    expect(doc.markdown).toMatch(/\w+/);
    expect(doc.html).toMatch(/</);
    expect(doc.rawHtml).toMatch(/<html/i);
    expect(doc.links?.length).toBeGreaterThan(0);
    expect(doc.links?.every((l) => l.startsWith('http'))).toBe(true);
    expect(doc.metadata).toMatchObject({ sourceURL: url, url, statusCode: 200, cacheState: 'miss' });
    expect(doc.metadata.title).toEqual(expect.any(String));
    expect(doc.metadata.contentType).toMatch(/text\/html/);
  });

  it('names the options it ignores in `warning`, and answers Firecrawl-shaped errors', async () => {
    const url = `${site()}/t/${namespace()}/docs/`;
    const warned = await json(await post('/v2/scrape', { url, mobile: true, proxy: 'stealth', blockAds: true }));
    expect(warned.success).toBe(true);
    expect(warned.warning).toMatch(/ignored options edgecrawl does not have: mobile, proxy/);
    expect(warned.warning).not.toMatch(/blockAds/); // Firecrawl's default: nothing differs

    const bad = await post('/v2/scrape', { url, formats: ['branding'] });
    expect(bad.status).toBe(400);
    expect(await json(bad)).toMatchObject({
      success: false,
      code: 'BAD_REQUEST',
      error: expect.stringMatching(/branding/),
    });

    const noToken = await post('/v2/scrape', { url }, null);
    expect(noToken.status).toBe(401);
    expect(await json(noToken)).toMatchObject({ success: false, error: expect.any(String) });

    // A page the site answers 404 is a document with its statusCode, as Firecrawl's scrape answers it.
    const missing = `${site()}/t/${namespace()}/misc/missing.html`;
    const notFound = await json(await post('/v2/scrape', { url: missing }));
    expect(notFound).toMatchObject({
      success: true,
      data: { markdown: '', metadata: { statusCode: 404, error: 'HTTP 404' } },
    });

    // A private address is Firecrawl's 422 (docs/firecrawl.md), named as the scrape's URL: a scrape has no seed.
    const refused = await post('/v2/scrape', { url: 'http://10.0.0.1/' });
    expect(refused.status).toBe(422);
    expect(await json(refused)).toMatchObject({
      success: false,
      code: 'PRIVATE_ADDRESS',
      error: 'http://10.0.0.1/ is a private network address; allow it with ALLOW_PRIVATE_NETWORKS to scrape it',
    });

    // Search is not supported: said in a 200 with success false, the shape firecrawl-mcp's firecrawl_search can show.
    for (const path of ['/v2/search', '/v1/search']) {
      const search = await post(path, { query: 'x' });
      expect(search.status).toBe(200);
      expect(await json(search)).toEqual({
        success: false,
        error: `POST ${path} is not supported by edgecrawl's Firecrawl-compatible API (see docs/firecrawl.md)`,
      });
    }
    const agent = await post('/v2/agent', { prompt: 'x' });
    expect(agent.status).toBe(404);
    expect(await json(agent)).toMatchObject({ success: false, code: 'NOT_SUPPORTED' });
  });

  it("answers /v1/scrape with Firecrawl's document when the body is Firecrawl's, and edgecrawl's answer otherwise", async () => {
    const url = `${site()}/t/${namespace()}/docs/`;
    const firecrawl = await json(await post('/v1/scrape', { url, formats: ['markdown'], origin: 'js-sdk@1.21.1' }));
    expect(firecrawl).toMatchObject({ success: true, data: { metadata: { sourceURL: url, statusCode: 200 } } });
    const own = await json(await post('/v1/scrape', { url, formats: ['markdown'] }));
    expect(own).toMatchObject({ url, status: 200 });
    expect(own.success).toBeUndefined();
  });

  it('answers a bare {url} on /v1/scrape as edgecrawl (no Firecrawl key in it), and on /firecrawl/v1 as Firecrawl', async () => {
    const url = `${site()}/t/${namespace()}/docs/`;
    // /v1/scrape is edgecrawl's and Firecrawl's v1 alike: a body with no key only Firecrawl's has is edgecrawl's.
    const own = await json(await post('/v1/scrape', { url }));
    expect(own).toMatchObject({ url, status: 200 });
    expect(own.success).toBeUndefined();
    // Under /firecrawl every route is Firecrawl's, whatever the body.
    for (const version of ['v1', 'v2']) {
      const firecrawl = await json(await post(`/firecrawl/${version}/scrape`, { url }));
      expect(firecrawl).toMatchObject({ success: true, data: { metadata: { sourceURL: url, statusCode: 200 } } });
      const map = await json(await post(`/firecrawl/${version}/map`, { url }));
      expect(map).toMatchObject({ success: true });
    }
    const unknown = await post('/firecrawl/v2/extract', { urls: [url] });
    expect(unknown.status).toBe(404);
    expect(await json(unknown)).toMatchObject({ success: false, code: 'NOT_SUPPORTED' });
    // Search answers 200 {success: false} there too, as at /v2/search (what firecrawl-mcp can show).
    const search = await post('/firecrawl/v2/search', { query: 'x' });
    expect(search.status).toBe(200);
    expect(await json(search)).toMatchObject({ success: false, error: expect.stringMatching(/not supported/) });
    const refused = await post('/firecrawl/v1/scrape', { url }, 'wrong');
    expect(refused.status).toBe(401);
    expect(await json(refused)).toMatchObject({ success: false });
  });

  it('starts a crawl under /firecrawl/v2 whose status URL stays under /firecrawl', async () => {
    const url = `${site()}/t/${namespace()}/docs/`;
    const started = await json(await post('/firecrawl/v2/crawl', { url, limit: 2 }));
    expect(started.success).toBe(true);
    expect(String(started.url)).toBe(`http://edgecrawl.test/firecrawl/v2/crawl/${String(started.id)}`);
    const done = await waitForJob(`/firecrawl/v2/crawl/${String(started.id)}`);
    expect(done.status).toBe('completed');
  });

  it("answers from the page cache within maxAge (v2's default: two days), and fetches with maxAge 0", async () => {
    const url = `${site()}/t/${namespace()}/docs/`;
    const first = (await json(await post('/v2/scrape', { url }))).data as Doc;
    expect(first.metadata.cacheState).toBe('miss');
    const cached = (await json(await post('/v2/scrape', { url }))).data as Doc;
    expect(cached.metadata).toMatchObject({ cacheState: 'hit', cachedAt: expect.any(String) });
    expect(cached.markdown).toBe(first.markdown);
    const fresh = (await json(await post('/v2/scrape', { url, maxAge: 0 }))).data as Doc;
    expect(fresh.metadata.cacheState).toBe('miss');
    // Without main-content detection and with a tag excluded, the document is another.
    const whole = (await json(await post('/v2/scrape', { url, onlyMainContent: false, excludeTags: ['nav'] })))
      .data as Doc;
    expect(whole.markdown).not.toBe(first.markdown);
  });

  it('answers 408 SCRAPE_TIMEOUT when the scrape outlasts its timeout', async () => {
    const url = `${site()}/t/${namespace()}/tree-3-d3000/p1.html`;
    const res = await post('/v2/scrape', { url, timeout: 500, maxAge: 0 });
    expect(res.status).toBe(408);
    expect(await json(res)).toMatchObject({ success: false, code: 'SCRAPE_TIMEOUT' });
  });

  it('tracks changes against the last scrape of the page: new, then same, with the git diff mode', async () => {
    const url = `${site()}/t/${namespace()}/docs/`;
    const formats = ['markdown', { type: 'changeTracking', modes: ['git-diff'] }];
    const first = (await json(await post('/v2/scrape', { url, formats }))).data as Json;
    expect(first.changeTracking).toMatchObject({ changeStatus: 'new', previousScrapeAt: null });
    const second = (await json(await post('/v2/scrape', { url, formats }))).data as Json;
    expect(second.changeTracking).toMatchObject({
      changeStatus: 'same',
      previousScrapeAt: expect.any(String),
      diff: { text: '' },
    });
  });
});

describe('Firecrawl crawl', () => {
  it('crawls under the start path, pages its status with absolute next links, and shows in /v1/crawls', async () => {
    const ns = namespace();
    const start = `${site()}/t/${ns}/tree-12/`;
    const started = await json(
      await post('/v2/crawl', { url: start, limit: 12, scrapeOptions: { formats: ['markdown'] } }),
    );
    expect(started).toMatchObject({ success: true, id: expect.any(String) });
    const id = started.id as string;
    expect(started.url).toBe(`http://edgecrawl.test/v2/crawl/${id}`);

    const done = await waitForJob(`/v2/crawl/${id}`);
    expect(done).toMatchObject({ success: true, status: 'completed', completed: expect.any(Number) });
    const { docs, pages } = await allDocs(`/v2/crawl/${id}?limit=4`);
    expect(pages).toBeGreaterThan(2);
    const urls = docs.map((d) => d.metadata.sourceURL as string);
    expect(new Set(urls).size).toBe(urls.length);
    expect(urls.length).toBe(done.completed);
    expect(urls.every((u) => u.startsWith(start))).toBe(true);
    expect(docs.every((d) => typeof d.markdown === 'string')).toBe(true);

    // The crawl is edgecrawl's own: listed, and read through /v1/crawls too.
    const list = await json(await edgecrawlApi('/v1/crawls?limit=50'));
    expect((list.crawls as { id: string }[]).some((c) => c.id === id)).toBe(true);
    const own = await waitForCrawl(id);
    expect(own.config).toMatchObject({ seeds: [start], maxPages: 12, sitemaps: true });
  });

  it('gives crawl documents their changeTracking against the last crawl from the same URL: new, then same or changed', async () => {
    const ns = namespace();
    const url = `${site()}/t/${ns}/cond-3/`;
    const body = { url, scrapeOptions: { formats: ['markdown', 'changeTracking'] } };
    type Tracked = Doc & {
      changeTracking?: { previousScrapeAt: string | null; changeStatus: string; visibility: string };
    };
    const crawl = async () => {
      const started = await json(await post('/v2/crawl', body));
      await waitForJob(`/v2/crawl/${String(started.id)}`);
      const { docs } = await allDocs(`/v2/crawl/${String(started.id)}`);
      return new Map((docs as Tracked[]).map((d) => [String(d.metadata.sourceURL).replace(url, ''), d.changeTracking]));
    };
    const first = await crawl();
    expect([...first.keys()].sort()).toEqual(['', 'p1.html', 'p2.html', 'p3.html']);
    for (const tracked of first.values())
      expect(tracked).toEqual({ previousScrapeAt: null, changeStatus: 'new', visibility: 'visible' });
    await fetch(`${site()}/__bump/${ns}`, { method: 'PUT' });
    const second = await crawl();
    expect(second.get('p1.html')).toMatchObject({ changeStatus: 'same', visibility: 'visible' });
    // The start page lists one more page now; p2's title changed, its markdown did not (what is compared).
    expect(second.get('')).toMatchObject({ changeStatus: 'changed' });
    expect(second.get('p2.html')).toMatchObject({ changeStatus: 'same' });
    expect(second.get('p4.html')).toEqual({ previousScrapeAt: null, changeStatus: 'new', visibility: 'visible' });
    expect(Date.parse(second.get('p1.html')?.previousScrapeAt ?? '')).toBeLessThan(Date.now());
  });

  it('maps includePaths (a regex on the path) and says in `warning` what it ignored', async () => {
    const ns = namespace();
    const start = `${site()}/t/${ns}/tree-12/`;
    const started = await json(
      await post('/v2/crawl', {
        url: start,
        includePaths: ['p1\\.html$', 'p2\\.html$', 'p3\\.html$'],
        ignoreRobotsTxt: true,
      }),
    );
    expect(started.warning).toMatch(/ignoreRobotsTxt \(edgecrawl always obeys robots.txt\)/);
    const done = await waitForJob(`/v2/crawl/${started.id as string}`);
    expect(done.warning).toMatch(/ignoreRobotsTxt/);
    const urls = (done.data as Doc[]).map((d) => (d.metadata.sourceURL as string).replace(start, ''));
    expect(urls.every((u) => /^p[123]\.html$/.test(u) || u === '')).toBe(true);
  });

  it('lists errors and robots.txt refusals, cancels, and answers 404 "Job not found"', async () => {
    const base = inject('hosts')[26] as string;
    await fetch(`${base}/__robots`, { method: 'PUT', body: 'User-agent: *\nDisallow: /t/*/misc/ok2.html\n' });
    const start = `${base}/t/${namespace()}/misc/`;
    const started = await json(await post('/v1/crawl', { url: start, limit: 30, crawlEntireDomain: true }));
    const id = started.id as string;
    await waitForJob(`/v1/crawl/${id}`);
    for (const method of ['GET', 'DELETE']) {
      const errors = await json(await api(`/v1/crawl/${id}/errors`, { method }));
      expect((errors.errors as { url: string }[]).map((e) => e.url)).toContain(`${start}missing.html`);
      expect(errors.robotsBlocked).toEqual([`${start}ok2.html`]);
    }
    const cancelled = await json(await api(`/v2/crawl/${id}`, { method: 'DELETE' }));
    expect(cancelled.success).toBe(true);
    const missing = await api(`/v2/crawl/${crypto.randomUUID()}`);
    expect(missing.status).toBe(404);
    expect(await json(missing)).toMatchObject({ success: false, error: 'Job not found' });
  });

  it('batch-scrapes URLs as a crawl that follows no link, invalid ones listed, and purge removes the job', async () => {
    const base = `${site()}/t/${namespace()}/tree-12/`;
    const urls = [`${base}p2.html`, `${base}p3.html`, 'not a url'];
    const started = await json(await post('/v2/batch/scrape', { urls, formats: ['markdown', 'links'] }));
    expect(started).toMatchObject({ success: true, invalidURLs: ['not a url'] });
    const id = started.id as string;
    expect(started.url).toBe(`http://edgecrawl.test/v2/batch/scrape/${id}`);
    const done = await waitForJob(`/v2/batch/scrape/${id}`);
    expect(done).toMatchObject({ status: 'completed', total: 2, completed: 2 });
    const docs = done.data as Doc[];
    expect(docs.map((d) => d.metadata.sourceURL).sort()).toEqual(urls.slice(0, 2));
    expect(docs.every((d) => Array.isArray(d.links))).toBe(true);

    const purged = await edgecrawlApi(`/v1/crawls/${id}?purge=true`, { method: 'DELETE' });
    expect(purged.status).toBeLessThan(300);
    const row = await env.DB.prepare('SELECT 1 FROM firecrawl_jobs WHERE crawl_id = ?').bind(id).first();
    expect(row).toBeNull();
  });
});

describe("edgecrawl's own crawls through Firecrawl's API", () => {
  it('reads a crawl started through /v1/crawls with the formats of its spec: a plain one as fetched, with no markdown', async () => {
    const start = `${site()}/t/${namespace()}/tree-3/`;
    const [plain, extracted] = await Promise.all([
      createCrawl({ seeds: [start], extract: null }),
      createCrawl({ seeds: [start], extract: { formats: ['markdown', 'links'] } }),
    ]);
    await Promise.all([waitForCrawl(plain), waitForCrawl(extracted)]);
    const plainDocs = (await waitForJob(`/v2/crawl/${plain}`)).data as Doc[];
    expect(plainDocs.length).toBeGreaterThan(1);
    for (const doc of plainDocs) {
      expect(doc.markdown).toBeUndefined();
      expect(doc.rawHtml).toMatch(/<html/i);
      expect(doc.metadata.title).toEqual(expect.any(String));
    }
    const docs = (await waitForJob(`/v2/crawl/${extracted}`)).data as Doc[];
    expect(docs.every((d) => typeof d.markdown === 'string' && Array.isArray(d.links) && d.rawHtml === undefined)).toBe(
      true,
    );
  });
});

/** The private test site's secrets of a namespace (test/support/private-site.ts), and what its log says it got. */
function privateSite(ns: string) {
  const basic = `Basic ${btoa(`user-${ns}:pass-${ns}`)}`;
  return {
    base: `${site()}/t/${ns}/private/`,
    key: `key-${ns}`,
    session: `sess-${ns}`,
    basic,
    secrets: [`key-${ns}`, `sess-${ns}`, `pass-${ns}`, basic.slice('Basic '.length)],
    log: async () =>
      (await (await fetch(`${site()}/__creds/${ns}`)).json()) as { path: string; apiKey: string | null }[],
  };
}

/** Fails naming the secret when an answer holds one. */
function expectNoSecret(answers: readonly unknown[], secrets: readonly string[]): void {
  const text = JSON.stringify(answers);
  for (const secret of secrets) expect(text.includes(secret), `an answer holds ${secret}`).toBe(false);
}

describe("Firecrawl's headers: a site behind a login", () => {
  it('scrapes the private header page with headers, the Cookie header as cookies, User-Agent left out with a warning', async () => {
    const ns = namespace();
    const p = privateSite(ns);
    const headers = { 'X-Api-Key': p.key, 'User-Agent': 'firecrawl-sdk', Cookie: `session=${p.session}` };
    const res = await post('/v2/scrape', { url: `${p.base}header/c.html`, headers, origin: 'js-sdk@4.42.0' });
    const body = await json(res);
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body.warning).toBe('headers edgecrawl sets itself, not sent: User-Agent');
    const doc = body.data as Doc;
    expect(doc.metadata).toMatchObject({ statusCode: 200, cacheState: 'miss' });
    expect(doc.markdown).toMatch(/Header page header\/c\.html/);
    const cookie = (await json(await post('/v2/scrape', { url: `${p.base}cookie/a.html`, headers }))).data as Doc;
    expect(cookie.metadata.statusCode).toBe(200);
    expect(cookie.markdown).toMatch(/Cookie page a\.html/);
    // Without them, the site refuses: a document of its 403.
    const refused = (await json(await post('/v2/scrape', { url: `${p.base}header/c.html`, maxAge: 0 }))).data as Doc;
    expect(refused.metadata.statusCode).toBe(403);
    // A page fetched with credentials is never kept for another scrape.
    const again = (await json(await post('/v2/scrape', { url: `${p.base}header/c.html`, headers }))).data as Doc;
    expect(again.metadata.cacheState).toBe('miss');
    expect((await p.log()).filter((h) => h.path.endsWith('header/c.html')).map((h) => h.apiKey)).toEqual([
      p.key,
      null,
      p.key,
    ]);
    expectNoSecret([body, cookie, refused, again], p.secrets);
  });

  it('crawls the private pages with scrapeOptions.headers, whose values no answer shows', async () => {
    const ns = namespace();
    const p = privateSite(ns);
    const headers = { 'X-Api-Key': p.key, Authorization: p.basic, Cookie: `session=${p.session}` };
    const started = await json(await post('/v2/crawl', { url: p.base, limit: 20, scrapeOptions: { headers } }));
    expect(started, JSON.stringify(started)).toMatchObject({ success: true, id: expect.any(String) });
    expect(started.warning).toBeUndefined();
    const id = started.id as string;
    const done = await waitForJob(`/v2/crawl/${id}`);
    expect(done.status).toBe('completed');
    const { docs } = await allDocs(`/v2/crawl/${id}`);
    const statuses = Object.fromEntries(
      docs.map((d) => [(d.metadata.sourceURL as string).replace(p.base, ''), d.metadata.statusCode]),
    );
    expect(statuses).toMatchObject({
      'header/c.html': 200,
      'basic/b.html': 200,
      'cookie/a.html': 200,
      'cookie/a2.html': 200,
    });
    const own = await waitForCrawl(id);
    expect(own.config.credentials).toEqual({
      hosts: [new URL(p.base).hostname],
      headers: ['X-Api-Key', 'Authorization'],
      cookies: [{ name: 'session', domain: null, path: '/', secure: false }],
      authenticate: false,
      login: null,
    });
    const answers = [
      started,
      done,
      docs,
      own,
      await json(await api(`/v2/crawl/${id}/errors`)),
      await json(await api('/v2/crawl/active')),
      await json(await edgecrawlApi(`/v1/crawls/${id}`)),
      await json(await edgecrawlApi('/v1/crawls?limit=50')),
    ];
    expectNoSecret(answers, p.secrets);
  });

  it('refuses a crawl with headers where the deployment has no CREDENTIALS_KEY, and still scrapes with them', async () => {
    const ns = namespace();
    const p = privateSite(ns);
    const bare = { ...env, CREDENTIALS_KEY: undefined };
    const call = (path: string, body: unknown) =>
      createApp().fetch(
        new Request(`http://edgecrawl.test${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: 'Bearer test-token' },
          body: JSON.stringify(body),
        }),
        bare,
      );
    const refused = await call('/v2/crawl', { url: p.base, scrapeOptions: { headers: { 'X-Api-Key': p.key } } });
    expect(refused.status).toBe(400);
    const error = await json(refused);
    expect(error).toMatchObject({ success: false, error: expect.stringMatching(/CREDENTIALS_KEY/) });
    expectNoSecret([error], p.secrets);
    // User-Agent alone gives nothing to keep: the crawl starts, with its warning.
    const plain = await json(
      await call('/v2/batch/scrape', { urls: [`${p.base}index.html`], headers: { 'User-Agent': 'x' } }),
    );
    expect(plain).toMatchObject({ success: true, warning: 'headers edgecrawl sets itself, not sent: User-Agent' });
    const scraped = await json(
      await call('/v2/scrape', { url: `${p.base}header/c.html`, headers: { 'X-Api-Key': p.key } }),
    );
    expect(scraped).toMatchObject({ success: true, data: { metadata: { statusCode: 200 } } });
  });

  it("sends a /v1/scrape body of edgecrawl's own with headers to edgecrawl's scrape, not Firecrawl's", async () => {
    const p = privateSite(namespace());
    const res = await edgecrawlApi('/v1/scrape', {
      method: 'POST',
      body: JSON.stringify({ url: `${p.base}header/c.html`, headers: { 'X-Api-Key': p.key } }),
    });
    const body = await json(res);
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ status: 200, markdown: expect.stringMatching(/Header page/) });
    expect(body.success).toBeUndefined();
    expectNoSecret([body], p.secrets);
  });
});

describe('Firecrawl map', () => {
  it('answers /v2/map with {url} objects and /v1/map (a Firecrawl body) with strings', async () => {
    const start = `${site()}/t/${namespace()}/tree-12/`;
    const v2 = await json(await post('/v2/map', { url: start, origin: 'js-sdk@4.42.0' }));
    expect(v2.success).toBe(true);
    const links = v2.links as { url: string }[];
    expect(links.map((l) => l.url)).toContain(`${start}p1.html`);
    const v1 = await json(await post('/v1/map', { url: start, includeSubdomains: false }));
    expect(v1.links).toContain(`${start}p1.html`);
  });
});
