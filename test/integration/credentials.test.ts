import { env } from 'cloudflare:workers';
import { gunzipSync } from 'node:zlib';
import { describe, expect, inject, it } from 'vitest';
import { requestRefusal } from '../../src/api/validate';
import { allPages, api, createCrawl, getCrawl, namespace, site, waitForCrawl } from '../support/api';
import type { CredentialHit } from '../support/private-site';
import { waitForDeliveries } from '../support/webhooks';

/**
 * Crawls behind a login (issue 35): the private site (test/support/private-site.ts) needs a cookie, basic credentials
 * or an API header; a second host (its own loopback address) is linked and redirected to, and must never get one.
 */

/** A host of its own for "another host": the private site answers on every test host. */
const otherHost = () => new URL(inject('hosts')[28] as string).host;

const secretsOf = (ns: string) => [
  `sess-${ns}`,
  `pass-${ns}`,
  `key-${ns}`,
  btoa(`user-${ns}:pass-${ns}`),
  // The cookie a private page sets, in its answer's headers: a session, kept out of what is stored.
  `tok-${ns}`,
];

const credentials = (ns: string) => ({
  cookies: [{ name: 'session', value: `sess-${ns}` }],
  authenticate: { username: `user-${ns}`, password: `pass-${ns}` },
  headers: { 'X-Api-Key': `key-${ns}` },
});

async function hits(ns: string): Promise<CredentialHit[]> {
  return (await (await fetch(`${site()}/__creds/${ns}`)).json()) as CredentialHit[];
}

const text = async (path: string, init?: RequestInit) => {
  const res = await api(path, init);
  expect(res.status, path).toBeLessThan(300);
  return res.text();
};

function expectNoSecret(where: string, body: string, ns: string): void {
  for (const secret of secretsOf(ns)) expect(body.includes(secret), `${where} holds ${secret}`).toBe(false);
}

describe('crawling behind a login', () => {
  it('reads pages behind a cookie, basic credentials and a header; another host linked and redirected to never gets one', async () => {
    const ns = namespace();
    const other = otherHost();
    const id = await createCrawl({
      seeds: [`${site()}/t/${ns}/private/index.html?other=${encodeURIComponent(other)}`],
      scope: 'any',
      include: [`re:/t/${ns}/private/`],
      ...credentials(ns),
      webhook: {
        url: `${site()}/__hook/${ns}`,
        secret: 'credentials-test-webhook-secret',
        events: ['page.stored', 'crawl.completed'],
      },
    });
    const done = await waitForCrawl(id);
    expect(done.status).toBe('completed');
    const pages = await allPages(id);
    const byPath = new Map(pages.map((p) => [new URL(p.url).pathname.replace(`/t/${ns}/private/`, ''), p]));
    for (const path of ['cookie/a.html', 'cookie/a2.html', 'basic/b.html', 'header/c.html'])
      expect(byPath.get(path)?.status, path).toBe(200);
    // The second host was reached by a link and by a redirect...
    expect(byPath.get('elsewhere.html')?.status).toBe(200);
    expect(byPath.get('landed.html')?.status).toBe(200);
    const record = await text(
      `/v1/crawls/${id}/content?url=${encodeURIComponent(byPath.get('basic/b.html')?.url ?? '')}&format=markdown`,
    );
    expect(record).toContain('Basic page basic/b.html is a private page');
    // ...and, as its server saw it, got no cookie, no Authorization and no API key.
    const seen = await hits(ns);
    const atOther = seen.filter((h) => h.host === other);
    expect(atOther.map((h) => h.path).sort()).toEqual(
      [`/t/${ns}/private/elsewhere.html`, `/t/${ns}/private/landed.html`].sort(),
    );
    for (const hit of atOther) expect(hit).toMatchObject({ cookie: null, authorization: null, apiKey: null });
    const home = seen.filter((h) => h.host !== other);
    for (const hit of home) expect(hit.apiKey, hit.path).toBe(`key-${ns}`);

    // The crawl shows what it was let in with, by name; nothing it answers holds a secret.
    const crawl = await getCrawl(id);
    expect(crawl.config.credentials).toEqual({
      hosts: ['127.0.0.1'],
      headers: ['X-Api-Key'],
      cookies: [{ name: 'session', domain: null, path: '/', secure: false }],
      authenticate: true,
      login: null,
    });
    expect(crawl.access).toBeUndefined();
    const deliveries = await waitForDeliveries(ns, pages.filter((p) => p.status === 200).length + 1);
    const warc = await api(`/v1/crawls/${id}/exports`, { method: 'POST', body: '{}' });
    const written = (await warc.json()) as { download: string };
    const warcText = new TextDecoder('latin1').decode(
      gunzipSync(new Uint8Array(await (await api(written.download)).arrayBuffer())),
    );
    expect(warcText).toContain('cookie: [redacted]');
    expect(warcText).toContain('authorization: [redacted]');
    expect(warcText).toContain('x-api-key: [redacted]');
    const answers = {
      crawl: JSON.stringify(crawl),
      list: await text('/v1/crawls?limit=100'),
      pages: await text(`/v1/crawls/${id}/pages`),
      jsonl: await text(`/v1/crawls/${id}/export?format=jsonl`),
      csv: await text(`/v1/crawls/${id}/export?format=csv`),
      llms: await text(`/v1/crawls/${id}/llms-full.txt`),
      stats: await text(`/v1/crawls/${id}/stats`),
      webhooks: JSON.stringify(deliveries.map((d) => d.body)),
      warc: warcText,
    };
    for (const [where, body] of Object.entries(answers)) expectNoSecret(where, body, ns);
    // Stored sealed: the row D1 keeps holds no secret in the clear.
    const row = await env.DB.prepare('SELECT config, credentialed FROM crawls WHERE id = ?')
      .bind(id)
      .first<{ config: string; credentialed: number }>();
    expect(row?.credentialed).toBe(1);
    expect(row?.config).toMatch(/"sealed":"v1\./);
    expectNoSecret('the D1 row', row?.config ?? '', ns);
  });

  it('keeps the session a site renews every third page, for its own host only, sealed, and purges it', async () => {
    const ns = namespace();
    const other = otherHost();
    const id = await createCrawl({
      seeds: [`${site()}/t/${ns}/private/rotating/p1.html?other=${encodeURIComponent(other)}`],
      scope: 'any',
      include: [`re:/t/${ns}/private/`],
      cookies: [{ name: 'rsess', value: `rot-${ns}-0` }],
      // Ten pages alike in a row: not a trap here.
      traps: { urlPatterns: false },
    });
    const done = await waitForCrawl(id);
    const pages = await allPages(id);
    const rotating = pages.filter((p) => p.url.includes('/rotating/'));
    expect(rotating.map((p) => [new URL(p.url).pathname.split('/').pop(), p.status])).toEqual(
      Array.from({ length: 10 }, (_, i) => [`p${i + 1}.html`, 200]).sort(),
    );
    expect(done.counts.failed).toBe(0);
    const seen = await hits(ns);
    // Each page went with the session the site had last given: rot-0 for p1..p3, rot-1 for p4..p6, and so on.
    const sent = seen
      .filter((h) => h.path.includes('/rotating/'))
      .map((h) => /rsess=([^;]+)/.exec(h.cookie ?? '')?.[1]);
    expect(sent).toEqual(Array.from({ length: 10 }, (_, i) => `rot-${ns}-${Math.floor(i / 3)}`));
    // The other host never got a cookie, and the one it set was never kept nor sent home.
    const atOther = seen.filter((h) => h.host === other);
    expect(atOther.length).toBeGreaterThan(0);
    for (const hit of atOther) expect(hit.cookie).toBeNull();
    for (const hit of seen) expect(hit.cookie ?? '').not.toContain('planted');
    // The jar is kept sealed in the crawl's object, shown by nothing, and gone once the crawl is purged.
    const stub = env.CRAWL.getByName(id);
    const jar = await stub.readJar();
    expect(jar?.sealed).toMatch(/^v1\./);
    expect(jar?.sealed).not.toContain(`rot-${ns}`);
    const views = [
      JSON.stringify(await getCrawl(id)),
      await text(`/v1/crawls/${id}/pages`),
      await text(`/v1/crawls/${id}/stats`),
    ];
    for (const view of views) expect(view).not.toMatch(new RegExp(`rot-${ns}-[1-9]`));
    await api(`/v1/crawls/${id}?purge=true`, { method: 'DELETE' });
    expect(await stub.readJar()).toBeNull();
  });

  it('records pages refused mid-crawl as such, and the crawl says its session expired', async () => {
    const ns = namespace();
    await fetch(`${site()}/__expire/${ns}`, { method: 'PUT' });
    const id = await createCrawl({
      seeds: [`${site()}/t/${ns}/private/index.html`],
      cookies: [{ name: 'session', value: `sess-${ns}` }],
    });
    await waitForCrawl(id);
    const errors = (await (await api(`/v1/crawls/${id}/errors`)).json()) as {
      errors: { url: string; code: string; reason: string }[];
    };
    const codes = Object.fromEntries(errors.errors.map((e) => [new URL(e.url).pathname.split('/private/')[1], e.code]));
    expect(codes).toEqual({
      'cookie/a.html': 'login_redirect',
      'basic/b.html': 'credentials_refused',
      'header/c.html': 'credentials_refused',
    });
    // The login page it was sent to is not stored as content.
    const pages = await allPages(id);
    expect(pages.some((p) => p.url.includes('login.html'))).toBe(false);
    const crawl = await getCrawl(id);
    expect(crawl.access).toMatchObject({ refused: 3, loginFailed: false, sessionExpired: true });
    expect(crawl.access?.message).toContain('session expired');
  });

  it('a recrawl whose session expired calls the pages it could not read unreached, never gone', async () => {
    const ns = namespace();
    const seed = `${site()}/t/${ns}/private/cookie/a.html`;
    const cookies = [{ name: 'session', value: `sess-${ns}` }];
    const first = await createCrawl({ seeds: [seed], cookies });
    expect((await waitForCrawl(first)).counts).toMatchObject({ stored: 2 }); // a.html, and a2.html it links to
    await fetch(`${site()}/__expire/${ns}`, { method: 'PUT' });
    const second = await createCrawl({ seeds: [seed], cookies, previousCrawlId: first });
    const crawl = await waitForCrawl(second);
    expect(crawl.access).toMatchObject({ refused: 1 });
    // a2.html is linked from a page the session no longer reaches: unread, so not known to be gone.
    expect(crawl.changes).toMatchObject({ gone: 0, unreached: 2, provisional: false });
    const gone = (await (await api(`/v1/crawls/${second}/changes?kind=gone`)).json()) as { changes: unknown[] };
    expect(gone.changes).toEqual([]);
  });

  it('never serves a page fetched with credentials to a scrape without them, nor fills the cache with one', async () => {
    const ns = namespace();
    const url = `${site()}/t/${ns}/private/cookie/a.html`;
    const id = await createCrawl({ seeds: [url], maxDepth: 0, cookies: [{ name: 'session', value: `sess-${ns}` }] });
    expect((await allPages(await waitForCrawl(id).then(() => id)))[0]?.status).toBe(200);
    const scrape = async (body: Record<string, unknown>) => {
      const res = await api('/v1/scrape', { method: 'POST', body: JSON.stringify(body) });
      expect(res.status, await res.clone().text()).toBe(200);
      return (await res.json()) as { cached: boolean; markdown?: string; finalUrl: string };
    };
    const anonymous = await scrape({ url, maxAge: 3600 });
    expect(anonymous.cached).toBe(false);
    expect(anonymous.finalUrl).toContain('login.html');
    expect(anonymous.markdown).not.toContain('private page');
    // A scrape with the cookie reads the page; it is kept for no one after it.
    const second = `${site()}/t/${ns}/private/cookie/a2.html`;
    const withCookie = await scrape({ url: second, cookies: [{ name: 'session', value: `sess-${ns}` }] });
    expect(withCookie.markdown).toContain('private page');
    const after = await scrape({ url: second, maxAge: 3600 });
    expect(after.cached).toBe(false);
    expect(after.markdown).not.toContain('private page');
    // Nor does a crawl with credentials take the anonymous copy just stored (a login page) from the cache.
    const again = await createCrawl({
      seeds: [second],
      maxDepth: 0,
      maxAge: 3600,
      cookies: [{ name: 'session', value: `sess-${ns}` }],
    });
    await waitForCrawl(again);
    const [page] = await allPages(again);
    expect(page?.cachedFrom ?? null).toBeNull();
    expect(await text(`/v1/crawls/${again}/content?url=${encodeURIComponent(second)}&format=markdown`)).toContain(
      'private page',
    );
    // Purged, the crawl forgets its sealed credentials at once (its row goes once the purge settles).
    const sealed = () =>
      env.DB.prepare("SELECT json_extract(config, '$.credentials.sealed') AS sealed FROM crawls WHERE id = ?")
        .bind(id)
        .first<{ sealed: string | null }>();
    expect((await sealed())?.sealed).toMatch(/^v1\./);
    expect((await api(`/v1/crawls/${id}?purge=true`, { method: 'DELETE' })).status).toBeLessThan(300);
    expect((await sealed())?.sealed ?? null).toBeNull();
  });

  it('refuses credentials for a crawl where the deployment has no key to seal them', () => {
    const request = {
      seeds: ['https://example.com/'],
      webhook: null,
      cookies: [{ name: 'a', value: 'b', path: '/', secure: false }],
    };
    expect(requestRefusal({ ...env, CREDENTIALS_KEY: undefined }, request)).toMatchObject({
      code: 'credentials_unavailable',
      path: ['cookies'],
      message: expect.stringContaining('wrangler secret put CREDENTIALS_KEY'),
    });
    expect(requestRefusal(env, request)).toBeNull();
  });

  it('refuses what it cannot send safely, and credentialsFor without credentials', async () => {
    const post = (body: Record<string, unknown>, path = '/v1/crawls') =>
      api(path, { method: 'POST', body: JSON.stringify(body) });
    const seed = `${site()}/t/${namespace()}/private/index.html`;
    for (const [headers, says] of [
      [{ Host: 'example.com' }, 'Host cannot be set'],
      [{ Cookie: 'a=b' }, 'give cookies in `cookies`'],
      [{ 'User-Agent': 'x' }, "crawler's identity"],
      [{ 'X-Bad': 'a\r\nb' }, 'no line break'],
    ] as const) {
      const res = await post({ seeds: [seed], headers });
      expect(res.status).toBe(400);
      expect(await res.text()).toContain(says);
    }
    const alone = await post({ seeds: [seed], credentialsFor: ['example.com'] });
    expect(alone.status).toBe(400);
    expect(await alone.text()).toContain('credentialsFor');
    const scrape = await post({ url: seed, headers: { Connection: 'close' } }, '/v1/scrape');
    expect(scrape.status).toBe(400);
  });

  it('keeps a schedule’s credentials sealed, shows their names, and deletes them with it', async () => {
    const ns = namespace();
    const res = await api('/v1/schedules', {
      method: 'POST',
      body: JSON.stringify({
        everySeconds: 86_400,
        crawl: { seeds: [`${site()}/t/${ns}/private/index.html`], ...credentials(ns) },
      }),
    });
    const body = await res.text();
    expect(res.status, body).toBe(201);
    expectNoSecret('the schedule', body, ns);
    const schedule = JSON.parse(body) as { id: string; crawl: { credentials: { headers: string[] } } };
    expect(schedule.crawl.credentials.headers).toEqual(['X-Api-Key']);
    const row = await env.DB.prepare('SELECT config FROM schedules WHERE id = ?')
      .bind(schedule.id)
      .first<{ config: string }>();
    expectNoSecret('the schedule row', row?.config ?? '', ns);
    expect(row?.config).toContain('"sealed"');
    expect((await api(`/v1/schedules/${schedule.id}`, { method: 'DELETE' })).status).toBe(200);
    const gone = await env.DB.prepare('SELECT COUNT(*) AS n FROM schedules WHERE id = ?')
      .bind(schedule.id)
      .first<{ n: number }>();
    expect(gone?.n).toBe(0);
  });
});
