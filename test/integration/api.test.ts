import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/api/app';
import { api, createCrawl, getCrawl, namespace, site, waitForCrawl } from '../support/api';

async function errorOf(res: Response): Promise<{ status: number; code: string; message: string }> {
  const body = (await res.json()) as { error: { code: string; message: string } };
  return { status: res.status, code: body.error.code, message: body.error.message };
}

const post = (body: string, headers: Record<string, string> = {}) =>
  api('/v1/crawls', { method: 'POST', body, headers });

describe('auth', () => {
  it('health needs no token', async () => {
    const res = await api('/v1/health', { token: null });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
  });

  it('no token or a wrong one is 401 with a JSON error', async () => {
    expect(await errorOf(await api('/v1/crawls', { token: null }))).toMatchObject({
      status: 401,
      code: 'unauthorized',
    });
    expect(await errorOf(await api('/v1/crawls', { token: 'test-tokeN' }))).toMatchObject({
      status: 401,
      code: 'unauthorized',
    });
    expect(await errorOf(await api('/v1/crawls', { token: '' }))).toMatchObject({ status: 401 });
    const basic = await api('/v1/crawls', { token: null, headers: { authorization: 'Basic dGVzdC10b2tlbg==' } });
    expect(basic.status).toBe(401);
  });

  it('a Worker without API_TOKEN refuses to run crawls instead of being open', async () => {
    const app = createApp();
    const res = await app.fetch(
      new Request('http://x/v1/crawls', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"seeds":["https://example.com/"]}',
      }),
      { ...env, API_TOKEN: undefined },
    );
    expect(await errorOf(res)).toMatchObject({ status: 503, code: 'not_configured' });
  });
});

describe('POST /v1/crawls validation', () => {
  const cases: [string, string, number, string, RegExp][] = [
    ['malformed JSON', '{"seeds": [', 400, 'invalid_json', /not valid JSON/],
    ['a JSON array', '[]', 400, 'invalid_request', /\(body\)/],
    ['no seeds', '{}', 400, 'invalid_request', /seeds/],
    ['empty seeds', '{"seeds": []}', 400, 'invalid_request', /seeds/],
    ['a seed of the wrong type', '{"seeds": [42]}', 400, 'invalid_request', /seeds\.0/],
    ['a non-http seed', '{"seeds": ["ftp://example.com/"]}', 400, 'invalid_request', /not an absolute http\(s\) URL/],
    ['a relative seed', '{"seeds": ["/just/a/path"]}', 400, 'invalid_request', /not an absolute http\(s\) URL/],
    ['a javascript: seed', '{"seeds": ["javascript:alert(1)"]}', 400, 'invalid_request', /seeds\.0/],
    ['an unknown field', '{"seeds": ["https://example.com/"], "maxPagez": 3}', 400, 'invalid_request', /maxPagez/],
    ['an unknown scope', '{"seeds": ["https://example.com/"], "scope": "galaxy"}', 400, 'invalid_request', /scope/],
    ['a negative maxDepth', '{"seeds": ["https://example.com/"], "maxDepth": -1}', 400, 'invalid_request', /maxDepth/],
    [
      'a fractional maxPages',
      '{"seeds": ["https://example.com/"], "maxPages": 2.5}',
      400,
      'invalid_request',
      /maxPages/,
    ],
    ['an absurd maxPages', '{"seeds": ["https://example.com/"], "maxPages": 1e12}', 400, 'invalid_request', /maxPages/],
    [
      'maxPages as a string',
      '{"seeds": ["https://example.com/"], "maxPages": "10"}',
      400,
      'invalid_request',
      /maxPages/,
    ],
    [
      'a broken regex pattern',
      '{"seeds": ["https://example.com/"], "include": ["re:("]}',
      400,
      'invalid_request',
      /invalid regular expression/,
    ],
    ['an empty pattern', '{"seeds": ["https://example.com/"], "exclude": [""]}', 400, 'invalid_request', /exclude\.0/],
    [
      'a /regex/ pattern (regular expressions start with re:)',
      '{"seeds":["https://example.com/"],"include":["/\\\\/blog\\\\//"]}',
      400,
      'invalid_request',
      /include\.0: pattern "\/\\\\\/blog\\\\\/\/" never matches: patterns are matched against the whole URL.*re:\\\/blog\\\//,
    ],
    [
      'a path glob',
      '{"seeds":["https://example.com/"],"exclude":["/blog/**"]}',
      400,
      'invalid_request',
      /"\*\*\/blog\/\*\*"/,
    ],
  ];
  for (const [name, body, status, code, message] of cases) {
    it(`rejects ${name}`, async () => {
      const err = await errorOf(await post(body));
      expect(err).toMatchObject({ status, code });
      expect(err.message).toMatch(message);
    });
  }

  it('rejects too many seeds', async () => {
    const seeds = Array.from({ length: 1001 }, (_, i) => `https://example.com/${i}`);
    const error = await errorOf(await post(JSON.stringify({ seeds })));
    expect(error).toMatchObject({ status: 400, code: 'invalid_request' });
    expect(error.message).toMatch(/seeds: a crawl takes at most 1000 seeds; for more, start from a page or a sitemap/);
  });

  it('names the seed cap when 10,000 seeds are too large a body (413), for crawls and schedules', async () => {
    const seeds = Array.from({ length: 10_000 }, (_, i) => `https://example.com/products/item-${i}.html`);
    const error = await errorOf(await post(JSON.stringify({ seeds })));
    expect(error).toMatchObject({ status: 413, code: 'payload_too_large' });
    expect(error.message).toMatch(/larger than 262144 bytes: a crawl takes at most 1000 seeds; for more/);
    const schedule = JSON.stringify({ everySeconds: 86_400, crawl: { seeds } });
    const res = await api('/v1/schedules', { method: 'POST', body: schedule });
    expect(res.status).toBe(413);
    expect(await res.text()).toMatch(/at most 1000 seeds/);
  });

  it('rejects a huge body with 413', async () => {
    const body = JSON.stringify({ seeds: ['https://example.com/'], include: ['x'.repeat(300 * 1024)] });
    expect(await errorOf(await post(body))).toMatchObject({ status: 413, code: 'payload_too_large' });
  });

  it('rejects a body that is not JSON by content type with 415', async () => {
    const err = await errorOf(await post('{"seeds":["https://example.com/"]}', { 'content-type': 'text/plain' }));
    expect(err).toMatchObject({ status: 415, code: 'unsupported_media_type' });
  });

  it('refuses private seeds when ALLOW_PRIVATE_NETWORKS is false, naming the setting', async () => {
    const app = createApp();
    for (const seed of [
      'http://127.0.0.1/',
      'http://localhost:8080/',
      'http://[::1]/',
      'http://169.254.169.254/latest/meta-data',
      'http://2130706433/',
      'http://10.0.0.1/',
    ]) {
      const res = await app.fetch(
        new Request('http://x/v1/crawls', {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: 'Bearer test-token' },
          body: JSON.stringify({ seeds: [seed] }),
        }),
        { ...env, ALLOW_PRIVATE_NETWORKS: 'false' },
      );
      const err = await errorOf(res);
      expect(err, seed).toMatchObject({ status: 400, code: 'private_address' });
      expect(err.message).toContain('ALLOW_PRIVATE_NETWORKS');
    }
  });

  it('stores nothing for a rejected request', async () => {
    const before = await env.DB.prepare('SELECT COUNT(*) AS n FROM crawls').first<{ n: number }>();
    await post('{"seeds": ["https://example.com/"], "bogus": true}');
    const after = await env.DB.prepare('SELECT COUNT(*) AS n FROM crawls').first<{ n: number }>();
    expect(after?.n).toBe(before?.n);
  });

  it('normalizes and deduplicates seeds and fills defaults', async () => {
    const ns = namespace();
    const root = `${site()}/t/${ns}/pure-3/`;
    const id = await createCrawl({ seeds: [root, `${root.replace('http://', 'HTTP://')}#frag`, `${root}./`] });
    const res = await api(`/v1/crawls/${id}`);
    const body = (await res.json()) as { config: Record<string, unknown> };
    expect(body.config).toEqual({
      seeds: [root],
      scope: 'same-host',
      include: [],
      exclude: [],
      maxDepth: null,
      maxModelPages: null,
      // A crawl left alone always ends (issue 43): 10,000 URLs unless told otherwise (null: no limit).
      maxPages: 10_000,
      maxPagesPerHost: null,
      traps: {
        repeatedSegments: true,
        deepPaths: true,
        pathEchoes: true,
        urlPatterns: true,
        sessionParams: true,
        soft404: true,
      },
      hostIntervalMs: null,
      hostConcurrency: null,
      sitemaps: false,
      links: true,
      ignoreQuery: false,
      priority: 'normal',
      boost: [],
      credentials: null,
      webhook: null,
      // Markdown and metadata of each page's main content (issue 31: it was null, a plain crawl).
      extract: { formats: ['markdown', 'metadata'], mainContent: true, include: [], exclude: [], fields: {} },
      ignore: [],
      duplicates: 'skip',
      retentionDays: null,
      previousCrawlId: null,
      maxAge: null,
      render: 'auto',
      waitFor: null,
      maxRenders: 10_000,
    });
    await waitForCrawl(id);
  });
});

describe('crawl resources', () => {
  it('unknown and malformed ids are 404', async () => {
    for (const path of [
      `/v1/crawls/${crypto.randomUUID()}`,
      '/v1/crawls/not-a-uuid',
      `/v1/crawls/${crypto.randomUUID()}/pages`,
      `/v1/crawls/x/content?url=http://a/`,
    ]) {
      expect(await errorOf(await api(path)), path).toMatchObject({ status: 404, code: 'not_found' });
    }
    expect((await api(`/v1/crawls/${crypto.randomUUID()}`, { method: 'DELETE' })).status).toBe(404);
  });

  it('unknown routes are a JSON 404', async () => {
    expect(await errorOf(await api('/v1/nothing-here'))).toMatchObject({ status: 404, code: 'not_found' });
  });

  it('pages: limit and cursor are validated; pagination is stable and complete', async () => {
    const ns = namespace();
    const id = await createCrawl({ seeds: [`${site()}/t/${ns}/pure-20/`] });
    await waitForCrawl(id);
    for (const query of ['limit=0', 'limit=1001', 'limit=abc', 'cursor=%%%', 'cursor=bm9wZQ', 'bogus=1']) {
      expect((await api(`/v1/crawls/${id}/pages?${query}`)).status, query).toBe(400);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    let calls = 0;
    do {
      const res = await api(`/v1/crawls/${id}/pages?limit=6${cursor ? `&cursor=${cursor}` : ''}`);
      const body = (await res.json()) as { pages: { url: string }[]; cursor: string | null };
      seen.push(...body.pages.map((p) => p.url));
      cursor = body.cursor;
      calls++;
    } while (cursor);
    expect(seen).toHaveLength(21);
    expect(new Set(seen).size).toBe(21);
    expect([...seen].sort()).toEqual(seen);
    expect(calls).toBe(4);
  });

  it('content: requires a url, normalizes it, 404s what was not stored', async () => {
    const ns = namespace();
    const root = `${site()}/t/${ns}/pure-2/`;
    const id = await createCrawl({ seeds: [root] });
    await waitForCrawl(id);
    expect((await api(`/v1/crawls/${id}/content`)).status).toBe(400);
    expect((await api(`/v1/crawls/${id}/content?url=notaurl`)).status).toBe(400);
    expect((await api(`/v1/crawls/${id}/content?url=${encodeURIComponent(`${root}p9.html`)}`)).status).toBe(404);
    // Another spelling of the same URL: upper-case scheme, dot segment, %70 for "p", a fragment.
    const spelling = `${root.replace('http://', 'HTTP://')}./%701.html#x`;
    const res = await api(`/v1/crawls/${id}/content?url=${encodeURIComponent(spelling)}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await res.text()).toContain('<title>Tree page 1</title>');
  });

  it('lists crawls newest first with a cursor', async () => {
    const res = await api('/v1/crawls?limit=2');
    expect(res.status).toBe(200);
    const body = (await res.json()) as { crawls: { id: string; status: string }[]; cursor: string | null };
    expect(body.crawls.length).toBeLessThanOrEqual(2);
    if (body.cursor) {
      const next = (await (await api(`/v1/crawls?limit=2&cursor=${body.cursor}`)).json()) as {
        crawls: { id: string }[];
      };
      expect(next.crawls.map((c) => c.id)).not.toContain(body.crawls[0]?.id);
    }
    expect((await api('/v1/crawls?cursor=garbage!')).status).toBe(400);
  });

  it("lists each crawl's counts, rate and cost: as it ended from D1, live while it runs", async () => {
    type Item = {
      id: string;
      status: string;
      counts: { stored: number; fetched: number; discovered: number } | null;
      pending: number | null;
      pagesPerSecond: number | null;
      usd: number | null;
    };
    const listed = async (id: string) =>
      ((await (await api('/v1/crawls?limit=100')).json()) as { crawls: Item[] }).crawls.find((c) => c.id === id);
    const ns = namespace();
    const done = await createCrawl({ seeds: [`${site()}/t/${ns}/pure-5/`] });
    await waitForCrawl(done);
    const view = (await (await api(`/v1/crawls/${done}`)).json()) as { counts: Item['counts'] };
    const item = await listed(done);
    expect(item?.counts).toEqual(view.counts);
    expect(item?.counts?.stored).toBeGreaterThanOrEqual(5);
    expect(item?.pending).toBe(0);
    expect(item?.pagesPerSecond).toBeGreaterThan(0);
    expect(item?.usd).toBeGreaterThan(0);
    // The ended crawl's figures are the ones its object wrote to D1 with its last status.
    const row = await env.DB.prepare('SELECT summary FROM crawls WHERE id = ?').bind(done).first<{ summary: string }>();
    expect(JSON.parse(row?.summary ?? 'null')).toMatchObject({ counts: view.counts, pending: 0 });

    // A running crawl (a 300-page tree served slowly) is asked live: its counts move.
    const running = await createCrawl({ seeds: [`${site()}/t/${namespace()}/pure-300-d200/`] });
    await expect
      .poll(async () => (await listed(running))?.counts?.fetched ?? 0, { timeout: 20_000 })
      .toBeGreaterThan(0);
    const live = await listed(running);
    expect(live?.status).toBe('running');
    expect(live?.pending).toBeGreaterThan(0);
    await api(`/v1/crawls/${running}`, { method: 'DELETE' });
  });

  it('says when a crawl finished: null while it runs, the same time in the crawl, its stats and the list', async () => {
    const ns = namespace();
    const id = await createCrawl({ seeds: [`${site()}/t/${ns}/pure-2/`] });
    const started = await getCrawl(id);
    if (started.status === 'running') expect(started.finishedAt).toBeNull();
    const ended = await waitForCrawl(id);
    expect(ended.status).toBe('completed');
    expect(ended.finishedAt).not.toBeNull();
    expect(Date.parse(ended.finishedAt ?? '')).toBeGreaterThanOrEqual(Date.parse(ended.createdAt));
    const stats = (await (await api(`/v1/crawls/${id}/stats`)).json()) as { finishedAt: string | null };
    expect(stats.finishedAt).toBe(ended.finishedAt);
    // The list reads D1's row, which the crawl's object updates as it ends.
    const listed = async () => {
      const list = (await (await api('/v1/crawls?limit=100')).json()) as {
        crawls: { id: string; finishedAt: string }[];
      };
      return list.crawls.find((c) => c.id === id)?.finishedAt;
    };
    await expect.poll(listed, { timeout: 5000 }).toBe(ended.finishedAt);
  });

  it('cancel is idempotent and a completed crawl stays completed', async () => {
    const ns = namespace();
    const id = await createCrawl({ seeds: [`${site()}/t/${ns}/pure-1/`] });
    await waitForCrawl(id);
    const res = await api(`/v1/crawls/${id}`, { method: 'DELETE' });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { status: string }).status).toBe('completed');
  });
});

describe('errors and retry-errors', () => {
  it('lists failed and skipped URLs with reasons, filtered and paginated', async () => {
    const ns = namespace();
    const root = `${site()}/t/${ns}/misc/`;
    const id = await createCrawl({ seeds: [root] });
    await waitForCrawl(id);
    const all: { url: string; outcome: string; reason: string; attempts: number; httpStatus: number | null }[] = [];
    let cursor: string | null = null;
    do {
      const res = await api(`/v1/crawls/${id}/errors?limit=5${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      const body = (await res.json()) as { errors: typeof all; cursor: string | null };
      all.push(...body.errors);
      cursor = body.cursor;
    } while (cursor);
    expect(all).toHaveLength(13);
    expect([...all.map((e) => e.url)].sort()).toEqual(all.map((e) => e.url));
    expect(all.find((e) => e.url === `${root}missing.html`)).toMatchObject({
      outcome: 'failed',
      reason: 'http 404',
      attempts: 1,
      httpStatus: 404,
    });
    const failed = (await (await api(`/v1/crawls/${id}/errors?outcome=failed`)).json()) as { errors: typeof all };
    expect(failed.errors.map((e) => e.url.replace(root, '')).sort()).toEqual(['chain-5', 'missing.html', 'to-file']);
    for (const query of ['outcome=bogus', 'limit=0', 'limit=x', 'cursor=!!', 'extra=1']) {
      expect((await api(`/v1/crawls/${id}/errors?${query}`)).status, query).toBe(400);
    }
    expect((await api(`/v1/crawls/${crypto.randomUUID()}/errors`)).status).toBe(404);
  });

  it('retry-errors re-enqueues failed URLs: a fixed page is then stored, and the counts still add up', async () => {
    const ns = namespace();
    const url = `${site()}/t/${ns}/misc/fixable.html`;
    const id = await createCrawl({ seeds: [url] });
    const first = await waitForCrawl(id);
    expect(first.counts).toMatchObject({ discovered: 1, stored: 0, failed: 1 });

    await fetch(`${site()}/__fix/${ns}`, { method: 'PUT' });
    const res = await api(`/v1/crawls/${id}/retry-errors`, { method: 'POST' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ id, status: 'running', retried: 1, remaining: 0 });
    const second = await waitForCrawl(id);
    expect(second.status).toBe('completed');
    expect(second.counts).toMatchObject({ discovered: 1, stored: 1, failed: 0, fetched: 2 });
    const errors = (await (await api(`/v1/crawls/${id}/errors`)).json()) as { errors: unknown[] };
    expect(errors.errors).toEqual([]);
    const again = (await (
      await api(`/v1/crawls/${id}/retry-errors`, { method: 'POST', body: '{"limit": 10}' })
    ).json()) as { retried: number };
    expect(again.retried).toBe(0);
  });

  it('retry-errors validates its input and refuses cancelled crawls', async () => {
    const ns = namespace();
    const id = await createCrawl({ seeds: [`${site()}/t/${ns}/pure-1/`] });
    await waitForCrawl(id);
    for (const body of ['{"limit": 0}', '{"limit": "5"}', '{"bogus": 1}', '{oops', '[]']) {
      const res = await api(`/v1/crawls/${id}/retry-errors`, { method: 'POST', body });
      expect(res.status, body).toBe(400);
    }
    expect((await api(`/v1/crawls/${crypto.randomUUID()}/retry-errors`, { method: 'POST' })).status).toBe(404);
    const slow = await createCrawl({ seeds: [`${site()}/t/${namespace()}/pure-50-d200/`] });
    await api(`/v1/crawls/${slow}`, { method: 'DELETE' });
    const res = await api(`/v1/crawls/${slow}/retry-errors`, { method: 'POST' });
    expect(await errorOf(res)).toMatchObject({ status: 409, code: 'conflict' });
  });
});
