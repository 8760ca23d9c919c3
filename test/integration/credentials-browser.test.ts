import { env } from 'cloudflare:workers';
import { describe, expect, inject, it } from 'vitest';
import { startCrawl } from '../../src/jobs/start';
import { POOL_NAME } from '../../src/objects/browser-pool';
import { getSchedule } from '../../src/storage/d1/schedules';
import { allPages, api, createCrawl, namespace, waitForCrawl } from '../support/api';
import { leakedTabs } from '../support/browsers';
import type { CredentialHit } from '../support/private-site';

/** Hosts of their own (no other file uses them), so the log of the credentials each host got is this file's alone. */
const host = () => inject('hosts')[21] as string;
const otherHost = () => inject('hosts')[22] as string;

/** Every request of the namespace the private site received, with the credentials it carried (any host's log). */
async function credsOf(ns: string): Promise<CredentialHit[]> {
  return (await (await fetch(`${host()}/__creds/${ns}`)).json()) as CredentialHit[];
}

interface ScrapeView {
  finalUrl: string;
  rendered: string | null;
  markdown?: string;
}

async function scrape(body: Record<string, unknown>): Promise<{ status: number; body: ScrapeView }> {
  const res = await api('/v1/scrape', { method: 'POST', body: JSON.stringify({ maxAge: 0, ...body }) });
  return { status: res.status, body: (await res.json()) as ScrapeView };
}

const SCRIPTED = 'The rendered runbook arrived by script';

describe('renders with credentials', () => {
  it("a rendered scrape with the session cookie reads the page its script builds; the cookie goes to the page's host alone, and never to the browser's shared context", async () => {
    const ns = namespace();
    const url = `${host()}/t/${ns}/private/cookie/app.html`;
    const cookies = [{ name: 'session', value: `sess-${ns}` }];
    const signedIn = await scrape({ url, render: 'always', cookies, formats: ['markdown'] });
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
    expect(signedIn.body.rendered).toBe('always');
    expect(signedIn.body.markdown).toContain(SCRIPTED);
    expect(signedIn.body.markdown).toContain('which dashboards to open first');

    const hits = await credsOf(ns);
    const pageHost = new URL(url).host;
    // The page fetched, the page rendered, and the data its script fetched: each with the cookie.
    const withCookie = hits.filter((h) => h.cookie?.includes(`session=sess-${ns}`));
    expect(withCookie.map((h) => h.path.replace(`/t/${ns}/private/`, '')).sort()).toEqual([
      'cookie/app.html',
      'cookie/app.html',
      'cookie/data.json',
    ]);
    for (const hit of hits) expect(hit.host, JSON.stringify(hit)).toBe(pageHost);

    // The same render without the cookie (the same pooled browser): not let in, so nothing was left behind.
    const anonymous = await scrape({ url, render: 'always', formats: ['markdown'] });
    expect(anonymous.body.markdown ?? '').not.toContain(SCRIPTED);
    expect(anonymous.body.markdown ?? '').not.toContain('Runbook app');
    const after = (await credsOf(ns)).slice(hits.length);
    expect(after.length).toBeGreaterThan(0);
    for (const hit of after) expect(hit.cookie, JSON.stringify(hit)).toBeNull();

    expect((await env.BROWSERS.getByName(POOL_NAME).census()).held).toBe(0);
    expect(await leakedTabs()).toBe(0);
  });

  it("a rendered page's requests to a credential host carry the basic credentials; its requests to another host do not", async () => {
    const ns = namespace();
    const authenticate = { username: `user-${ns}`, password: `pass-${ns}` };
    const other = new URL(otherHost()).host;
    const url = `${host()}/t/${ns}/private/mixed.html?other=${encodeURIComponent(other)}`;
    const credentialsFor = [new URL(url).hostname];
    const { status, body } = await scrape({
      url,
      render: 'always',
      authenticate,
      credentialsFor,
      formats: ['markdown'],
    });
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.markdown).toContain('Both hosts answered');
    const hits = (await credsOf(ns)).map(({ host, path, authorization }) => ({
      host,
      page: path.replace(/^.*\/private\//, '').replace(/\?.*$/, ''),
      authorization,
    }));
    const basic = `Basic ${btoa(`user-${ns}:pass-${ns}`)}`;
    const own = new URL(url).host;
    expect(hits).toEqual(
      expect.arrayContaining([
        { host: own, page: 'mixed.html', authorization: basic }, // fetched
        { host: own, page: 'mixed.html', authorization: basic }, // rendered
        { host: own, page: 'elsewhere.html', authorization: basic },
        { host: other, page: 'elsewhere.html', authorization: null },
      ]),
    );
    expect(hits).toHaveLength(4);
  });

  it("a crawl's rendered pages carry its headers", async () => {
    const ns = namespace();
    const url = `${host()}/t/${ns}/private/header/c.html`;
    const id = await createCrawl({
      seeds: [url],
      maxDepth: 0,
      render: 'always',
      headers: { 'X-Api-Key': `key-${ns}` },
    });
    const crawl = await waitForCrawl(id);
    expect(crawl.counts).toMatchObject({ stored: 1, failed: 0 });
    const [page] = await allPages(id);
    expect(page?.rendered).toBe('always');
    const hits = await credsOf(ns);
    expect(hits.map((h) => h.apiKey)).toEqual([`key-${ns}`, `key-${ns}`]); // fetched, then rendered
  });
});

interface ErrorsView {
  errors: { url: string; outcome: string; reason: string; code: string }[];
}

/** A crawl's markdown of `url`. */
async function markdownOf(id: string, url: string): Promise<string> {
  const res = await api(`/v1/crawls/${id}/content?url=${encodeURIComponent(url)}&format=markdown`);
  expect(res.status, url).toBe(200);
  return res.text();
}

const loginOf = (base: string, ns: string, password = `pass-${ns}`) => ({
  url: `${base}/t/${ns}/private/login.html`,
  actions: [
    { type: 'type', selector: '#user', text: `user-${ns}` },
    { type: 'type', selector: '#pass', text: password },
    { type: 'click', selector: '#go' },
  ],
});

describe('a crawl behind a form login', () => {
  it("logs in once as it starts and crawls with the session's cookies; the login is shown by its steps, never what it typed", async () => {
    const ns = namespace();
    const base = `${host()}/t/${ns}/private`;
    const id = await createCrawl({ seeds: [`${base}/cookie/a.html`], login: loginOf(host(), ns) });
    const crawl = await waitForCrawl(id);
    expect(crawl.counts, JSON.stringify(crawl)).toMatchObject({ stored: 2, failed: 0 });
    const pages = (await allPages(id)).map((p) => p.url).sort();
    expect(pages).toEqual([`${base}/cookie/a.html`, `${base}/cookie/a2.html`]);
    expect(await markdownOf(id, `${base}/cookie/a.html`)).toContain('Cookie page a.html is a private page');
    expect(await markdownOf(id, `${base}/cookie/a2.html`)).toContain('Cookie page a2.html is a private page');

    const shown = await (await api(`/v1/crawls/${id}`)).text();
    const { config } = JSON.parse(shown) as {
      config: { credentials: { login: unknown; cookies: { name: string }[] } };
    };
    expect(config.credentials.login).toEqual({
      url: `${base}/login.html`,
      actions: [
        { type: 'type', selector: '#user' },
        { type: 'type', selector: '#pass' },
        { type: 'click', selector: '#go' },
      ],
    });
    expect(config.credentials.cookies.map((c) => c.name)).toContain('session');
    expect(shown).not.toContain(`pass-${ns}`);
    expect(shown).not.toContain(`user-${ns}`);
    expect(shown).not.toContain(`sess-${ns}`);

    // The crawler's own requests for the pages carried the session the login got.
    const fetched = (await credsOf(ns)).filter((h) => /\/cookie\/a2?\.html$/.test(h.path));
    expect(fetched.length).toBeGreaterThanOrEqual(3); // a.html after the login's redirect, then a.html and a2.html
    for (const hit of fetched) expect(hit.cookie).toContain(`session=sess-${ns}`);
  });

  it("renders a page with the login's session: its script's request carries it too", async () => {
    const ns = namespace();
    const url = `${host()}/t/${ns}/private/cookie/app.html`;
    const id = await createCrawl({ seeds: [url], maxDepth: 0, render: 'always', login: loginOf(host(), ns) });
    expect((await waitForCrawl(id)).counts).toMatchObject({ stored: 1, failed: 0 });
    expect(await markdownOf(id, url)).toContain(SCRIPTED);
  });

  it('a wrong password ends the crawl at once, completed with no page, its login_failed error saying why', async () => {
    const ns = namespace();
    const id = await createCrawl({
      seeds: [`${host()}/t/${ns}/private/cookie/a.html`],
      login: loginOf(host(), ns, 'not-the-password'),
    });
    const crawl = await waitForCrawl(id);
    expect(crawl.status).toBe('completed');
    expect(crawl.counts.stored).toBe(0);
    expect(crawl.access).toMatchObject({ loginFailed: true, message: expect.stringMatching(/^login failed: /) });
    expect(await allPages(id)).toEqual([]);
    const { errors } = (await (await api(`/v1/crawls/${id}/errors`)).json()) as ErrorsView;
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({
      url: `${host()}/t/${ns}/private/login.html`,
      outcome: 'failed',
      code: 'login_failed',
    });
    expect(errors[0]?.reason).toMatch(/^login failed: still on the login page after its 3 actions \(a password field/);
    expect(JSON.stringify(errors)).not.toContain('not-the-password');
    const stats = (await (await api(`/v1/crawls/${id}/stats`)).json()) as { errorCodes: { code: string }[] };
    expect(stats.errorCodes.map((c) => c.code)).toEqual(['login_failed']);
    // The counts agree with the errors: the login URL is the crawl's one URL, failed.
    expect(crawl.counts).toMatchObject({ discovered: 1, failed: 1, stored: 0, skipped: 0 });
    // Tried again, it would be crawled as a page without a session: refused, saying why.
    const retry = await api(`/v1/crawls/${id}/retry-errors`, { method: 'POST', body: '{}' });
    expect(retry.status).toBe(409);
    expect(await retry.text()).toContain('login failed');
    // Nothing but the login page was asked for: the seed was never fetched.
    const paths = (await credsOf(ns)).map((h) => h.path.replace(`/t/${ns}/private/`, ''));
    expect(new Set(paths)).toEqual(new Set(['login.html']));
  });

  it('a login whose action cannot be done fails, naming the action', async () => {
    const ns = namespace();
    const login = loginOf(host(), ns);
    const id = await createCrawl({
      seeds: [`${host()}/t/${ns}/private/cookie/a.html`],
      login: { ...login, actions: [...login.actions.slice(0, 1), { type: 'click', selector: '#nope' }] },
    });
    await waitForCrawl(id);
    const { errors } = (await (await api(`/v1/crawls/${id}/errors`)).json()) as ErrorsView;
    expect(errors[0]?.code).toBe('login_failed');
    expect(errors[0]?.reason).toBe(
      'login failed: action 2 of 2 (click "#nope") could not be done: no element matches "#nope"',
    );
  });

  it("a schedule's every run logs in anew: a session ended between runs is no matter", async () => {
    const ns = namespace();
    const base = `${host()}/t/${ns}/private`;
    // A run a year away: no trigger (nor another file's runDueSchedules) runs it; the test runs it as the trigger does.
    const crawl = { seeds: [`${base}/cookie/a.html`], login: loginOf(host(), ns) };
    const res = await api('/v1/schedules', { method: 'POST', body: JSON.stringify({ cron: '0 0 1 1 *', crawl }) });
    const created = (await res.json()) as { id: string };
    expect(res.status, JSON.stringify(created)).toBe(201);
    const shown = await (await api(`/v1/schedules/${created.id}`)).text();
    expect(shown).toContain('"selector":"#pass"');
    expect(shown).not.toContain(`pass-${ns}`);
    const schedule = await getSchedule(env.DB, created.id);
    if (!schedule) throw new Error('no schedule');
    const run = async (recrawlOf: string | true) => {
      const id = await startCrawl(env, { ...schedule.config, recrawlOf }, { scheduleId: schedule.id });
      expect((await waitForCrawl(id)).counts).toMatchObject({ stored: 2, failed: 0 });
      return id;
    };
    const first = await run(true);
    await fetch(`${host()}/__expire/${ns}`, { method: 'PUT' });
    const second = await run(first);
    expect(await markdownOf(second, `${base}/cookie/a2.html`)).toContain('Cookie page a2.html is a private page');
    await api(`/v1/schedules/${created.id}`, { method: 'DELETE' });
  });

  it('a login page on a private address is refused up front, as a seed there is', async () => {
    const login = { ...loginOf('http://10.1.2.3', 'x'), url: 'http://10.1.2.3/login' };
    const res = await api('/v1/crawls', { method: 'POST', body: JSON.stringify({ seeds: [host()], login }) });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { code: 'private_address' } });
  });
});
