import { env } from 'cloudflare:workers';
import { describe, expect, inject, it } from 'vitest';
import { POOL_NAME } from '../../src/objects/browser-pool';
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
