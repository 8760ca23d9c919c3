import { env } from 'cloudflare:workers';
import { describe, expect, inject, it } from 'vitest';
import { POOL_NAME } from '../../src/objects/browser-pool';
import { allPages, api, createCrawl, namespace, site, waitForCrawl } from '../support/api';
import { leakedTabs } from '../support/browsers';
import type { HostLogEntry } from '../support/host-log';

const RENDERED = ['app-1', 'app-2', 'app-3', 'deep-1', 'deep-2', 'deep-3'];
const PLAIN = ['index', 'ssr-1', 'ssr-2', 'mixed'];

/** Requests of the test's namespace that the test site received, with their User-Agent. */
async function requestsOf(ns: string): Promise<HostLogEntry[]> {
  const res = await fetch(`${site()}/__hostlog`);
  const { entries } = (await res.json()) as { entries: HostLogEntry[] };
  return entries.filter((e) => e.path.startsWith(`/t/${ns}/`));
}

const fromBrowser = (e: HostLogEntry) => e.userAgent.includes('HeadlessChrome');
const nameOf = (url: string) => /\/([a-z]+(?:-\d+)?)\.html$/.exec(url)?.[1] ?? 'index';

async function markdownOf(id: string, url: string): Promise<string> {
  const res = await api(`/v1/crawls/${id}/content?url=${encodeURIComponent(url)}&format=markdown`);
  expect(res.status, url).toBe(200);
  return res.text();
}

describe('rendering under auto', () => {
  it('reads a forum thread an app shell writes inside <noscript>, without a browser: the page has its text', async () => {
    const ns = namespace();
    const url = `${site()}/t/${ns}/spa/forum.html`;
    const res = await api('/v1/scrape', { method: 'POST', body: JSON.stringify({ url, maxAge: 0 }) });
    expect(res.status).toBe(200);
    const scraped = (await res.json()) as { markdown: string; rendered: string | null };
    expect(scraped.rendered).toBeNull();
    expect(scraped.markdown).toMatch(/^# Cache after deploy/);
    for (const post of ['forum-first-post says', 'forum-first-post again says', 'forum-reply says'])
      expect(scraped.markdown).toContain(post);
    for (const furniture of ['Terms of Service', 'Powered by']) expect(scraped.markdown).not.toContain(furniture);
    expect((await requestsOf(ns)).filter(fromBrowser)).toEqual([]);
  });

  it('renders the pages scripts build, follows their script-made links, and leaves server-rendered pages alone', async () => {
    const ns = namespace();
    const root = `${site()}/t/${ns}/spa/`;
    const id = await createCrawl({ seeds: [root], extract: { formats: ['markdown'] } });
    const crawl = await waitForCrawl(id);
    expect(crawl.counts).toMatchObject({ stored: 10, failed: 0 });

    const pages = await allPages(id);
    const byName = new Map(pages.map((p) => [nameOf(p.url), p]));
    expect([...byName.keys()].sort()).toEqual([...RENDERED, ...PLAIN].sort());
    for (const name of RENDERED) expect(byName.get(name)?.rendered, name).toMatch(/^auto: /);
    for (const name of PLAIN) expect(byName.get(name)?.rendered, name).toBeNull();
    for (const name of RENDERED) {
      const markdown = await markdownOf(id, `${root}${name}.html`);
      expect(markdown).toContain(`${name}-token`);
    }

    // The browser asked for the rendered pages (and their script), never for a server-rendered page.
    const requests = await requestsOf(ns);
    const browserPaths = requests.filter(fromBrowser).map((e) => e.path.slice(`/t/${ns}/spa/`.length));
    expect(browserPaths.filter((p) => p.endsWith('.html')).sort()).toEqual(RENDERED.map((n) => `${n}.html`).sort());
    for (const name of PLAIN) expect(browserPaths).not.toContain(`${name === 'index' ? '' : `${name}.html`}`);

    // The HTML as fetched is kept beside the rendered DOM.
    const fetched = await api(`/v1/crawls/${id}/content?url=${encodeURIComponent(`${root}app-1.html`)}&source=fetched`);
    expect(await fetched.text()).toContain('<div id="root" data-page="app-1"');
    const stored = await api(`/v1/crawls/${id}/content?url=${encodeURIComponent(`${root}app-1.html`)}`);
    expect(await stored.text()).toContain('app-1-token');

    const usage = (await (await api(`/v1/crawls/${id}/usage`)).json()) as {
      operations: { browserSeconds: number };
      renders: number;
      estimate: { breakdown: { browserSeconds: number } };
    };
    expect(usage.renders).toBe(RENDERED.length);
    expect(usage.operations.browserSeconds).toBeGreaterThan(0);
    expect(usage.estimate.breakdown.browserSeconds).toBeGreaterThan(0);

    // Every browser went back to the pool, and every tab was closed.
    const census = await env.BROWSERS.getByName(POOL_NAME).census();
    expect(census.held).toBe(0);
    expect(await leakedTabs()).toBe(0);
  });
});

interface ScrapeView {
  finalUrl: string;
  rendered: string | null;
  screenshot: string | null;
  markdown?: string;
  warnings: string[];
}

async function scrape(body: Record<string, unknown>): Promise<{ status: number; body: ScrapeView }> {
  const res = await api('/v1/scrape', { method: 'POST', body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as ScrapeView };
}

describe('render modes', () => {
  it('never: pages are stored as fetched, and links only scripts make are not found', async () => {
    const ns = namespace();
    const root = `${site()}/t/${ns}/spa/`;
    const id = await createCrawl({ seeds: [root], render: 'never', extract: { formats: ['markdown'] } });
    const crawl = await waitForCrawl(id);
    const names = (await allPages(id)).map((p) => nameOf(p.url)).sort();
    expect(names).toEqual(['app-1', 'index', 'mixed', 'ssr-1', 'ssr-2']);
    expect(crawl.counts.stored).toBe(5);
    expect((await requestsOf(ns)).filter(fromBrowser)).toEqual([]);
  });

  it('maxRenders: past it, pages are stored unrendered with a warning', async () => {
    const ns = namespace();
    const root = `${site()}/t/${ns}/spa/`;
    const id = await createCrawl({ seeds: [root], maxRenders: 1, extract: { formats: ['markdown'] } });
    await waitForCrawl(id);
    const pages = await allPages(id);
    expect(pages.filter((p) => p.rendered !== null).map((p) => nameOf(p.url))).toEqual(['app-1']);
    const app2 = pages.find((p) => nameOf(p.url) === 'app-2');
    expect(app2?.rendered).toBeNull();
    const record = (await (
      await api(`/v1/crawls/${id}/record?url=${encodeURIComponent(`${root}app-2.html`)}`)
    ).json()) as { warnings: string[] };
    expect(record.warnings).toContain('render: maxRenders (1) reached, not rendered');
  });

  it('scrape with render "always": markdown of the rendered page and a real PNG screenshot', async () => {
    const url = `${site()}/t/${namespace()}/spa/ssr-1.html`;
    const full = await scrape({ url, render: 'always', extract: { formats: ['markdown', 'screenshot@fullPage'] } });
    expect(full.status, JSON.stringify(full.body)).toBe(200);
    expect(full.body.rendered).toBe('always');
    expect(full.body.markdown).toContain('ssr-1');
    const png = Uint8Array.from(atob(full.body.screenshot?.replace('data:image/png;base64,', '') ?? ''), (c) =>
      c.charCodeAt(0),
    );
    expect([...png.slice(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(png.byteLength).toBeGreaterThan(1000);

    // `formats` alone, as Firecrawl's scrape takes them: the rest of the spec by default.
    const shot = await scrape({ url, formats: ['markdown', 'screenshot'] });
    expect(shot.body.rendered).toBe('screenshot');
    expect(shot.body.screenshot).toMatch(/^data:image\/png;base64,iVBORw0KGgo/);
    expect(shot.body.markdown).toContain('ssr-1');

    const app = await scrape({ url: url.replace('ssr-1', 'app-2'), extract: { formats: ['markdown'] } });
    expect(app.body.rendered).toBe('auto: noscript-requires-js');
    expect(app.body.markdown).toContain('app-2-token');
    expect(app.body.screenshot).toBeNull();
  });

  it("refuses every request a page's script makes to a private address", async () => {
    const ns = namespace();
    const url = `${site()}/t/${ns}/spa/trap.html`;
    const { status, body } = await scrape({ url, extract: { formats: ['markdown'] } });
    expect(status).toBe(200);
    expect(body.markdown).toContain('trap-1-token');
    // Give any request that got out time to arrive: none did.
    await new Promise((r) => setTimeout(r, 500));
    expect(await (await fetch(`${site()}/__trap/${ns}`)).json()).toEqual([]);
    expect(body.warnings).toContain('render: refused 4 requests to private network addresses');
  });

  it('a page whose network is never quiet is read once its text settles; dialogs are dismissed', async () => {
    const base = `${site()}/t/${namespace()}/spa/`;
    const started = Date.now();
    const busy = await scrape({ url: `${base}busy.html`, extract: { formats: ['markdown'] } });
    expect(busy.body.markdown).toContain('busy-1-token');
    expect(Date.now() - started).toBeLessThan(15_000);
    const dialogs = await scrape({ url: `${base}dialogs.html`, extract: { formats: ['markdown'] } });
    expect(dialogs.body.markdown).toContain('dialogs-1-token');
  });

  it('a page whose scripts never yield is stored unrendered, with a warning, in bounded time', async () => {
    const url = `${site()}/t/${namespace()}/spa/hang.html`;
    const started = Date.now();
    const { status, body } = await scrape({ url, extract: { formats: ['markdown'] } });
    expect(status).toBe(200);
    expect(body.rendered).toBeNull();
    expect(body.warnings, JSON.stringify(body)).toContainEqual(expect.stringMatching(/^render: .*timed out/));
    expect(Date.now() - started).toBeLessThan(30_000);
    expect((await env.BROWSERS.getByName(POOL_NAME).census()).held).toBe(0);
  });
});

describe('rendering in a crawl', () => {
  it('a render is a request to the host: paced by the host gate like the fetches', async () => {
    const base = inject('hosts')[15] as string; // a loopback host of its own (throttle.test.ts has 14)
    const ns = namespace();
    const interval = 400;
    const id = await createCrawl({ seeds: [`${base}/t/${ns}/spa/app-1.html`], maxDepth: 1, hostIntervalMs: interval });
    await waitForCrawl(id);
    const { entries } = (await (await fetch(`${base}/__hostlog`)).json()) as { entries: HostLogEntry[] };
    const pages = entries.filter((e) => e.path.startsWith(`/t/${ns}/`) && e.path.endsWith('.html'));
    // app-1, app-2 and deep-1, each fetched and then rendered: six requests for pages, each a slot of the gate
    // (app-2's and deep-1's may interleave: both are found on app-1).
    expect(pages).toHaveLength(6);
    const byPage = Map.groupBy(pages, (e) => e.path);
    expect([...byPage.keys()].map((path) => path.split('/').pop()).sort()).toEqual([
      'app-1.html',
      'app-2.html',
      'deep-1.html',
    ]);
    for (const asked of byPage.values()) expect(asked.map((e) => fromBrowser(e))).toEqual([false, true]);
    const gaps = pages.slice(1).map((e, i) => e.at - (pages[i] as HostLogEntry).at);
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(interval - 20);
  });

  it('a screenshot format renders every page and stores its PNG beside the body', async () => {
    const root = `${site()}/t/${namespace()}/spa/`;
    const id = await createCrawl({ seeds: [`${root}ssr-1.html`], maxDepth: 0, extract: { formats: ['screenshot'] } });
    await waitForCrawl(id);
    const [page] = await allPages(id);
    expect(page?.rendered).toBe('screenshot');
    const res = await api(`/v1/crawls/${id}/screenshot?url=${encodeURIComponent(`${root}ssr-1.html`)}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    const png = new Uint8Array(await res.arrayBuffer());
    expect([...png.slice(1, 4)]).toEqual([0x50, 0x4e, 0x47]);
    const none = await createCrawl({ seeds: [`${root}ssr-2.html`], maxDepth: 0 });
    await waitForCrawl(none);
    const missing = await api(`/v1/crawls/${none}/screenshot?url=${encodeURIComponent(`${root}ssr-2.html`)}`);
    expect(missing.status).toBe(404);
  });
});

describe('rendering options are validated', () => {
  it.each([
    ['an unknown mode', { render: 'sometimes' }, 'render'],
    ['a wait past 30 s', { waitFor: 30_001 }, 'waitFor'],
    ['an invalid selector to wait for', { waitFor: 'div[' }, 'waitFor'],
    ['a negative maxRenders', { maxRenders: -1 }, 'maxRenders'],
    ['a screenshot without a browser', { render: 'never', extract: { formats: ['screenshot'] } }, 'screenshot'],
  ])('crawls refuse %s', async (_name, fields, path) => {
    const res = await api('/v1/crawls', { method: 'POST', body: JSON.stringify({ seeds: [site()], ...fields }) });
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toContain(path);
  });

  it.each([
    ['actions without a browser', { render: 'never', actions: [{ type: 'click', selector: 'a' }] }],
    ['an unknown action', { actions: [{ type: 'hover', selector: 'a' }] }],
    ['a wait with neither milliseconds nor a selector', { actions: [{ type: 'wait' }] }],
    ['a key not in the list', { actions: [{ type: 'press', key: 'F5' }] }],
    ['formats both alone and in extract', { formats: ['markdown'], extract: { formats: ['text'] } }],
  ])('scrapes refuse %s', async (_name, fields) => {
    const res = await api('/v1/scrape', { method: 'POST', body: JSON.stringify({ url: site(), ...fields }) });
    expect(res.status).toBe(400);
  });

  it('a scrape runs its actions in the page before reading it', async () => {
    const url = `${site()}/t/${namespace()}/spa/app-1.html`;
    const actions = [
      { type: 'wait', selector: 'article a' },
      { type: 'click', selector: 'article a' },
      { type: 'scroll', direction: 'down' },
      { type: 'write', text: 'typed where the focus is' },
    ];
    const { status, body } = await scrape({ url, actions, extract: { formats: ['markdown'] } });
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.rendered).toBe('always');
    expect(body.markdown).toContain('app-1-token');
  });

  it('a scrape whose action cannot be done fails, naming the action and its selector, and stores nothing', async () => {
    const ns = namespace();
    const url = `${site()}/t/${ns}/spa/app-1.html`;
    const click = await api('/v1/scrape', {
      method: 'POST',
      body: JSON.stringify({ url, actions: [{ type: 'scroll' }, { type: 'click', selector: '#nope' }], maxAge: 0 }),
    });
    expect(click.status).toBe(422);
    expect(await click.json()).toEqual({
      error: {
        code: 'action_failed',
        message: 'action 2 of 2 (click "#nope") could not be done: no element matches "#nope"; the page was not read',
      },
    });
    // A wait for a selector that never appears runs out within the render's time, and says so.
    const started = Date.now();
    const wait = await api('/v1/scrape', {
      method: 'POST',
      body: JSON.stringify({ url, actions: [{ type: 'wait', selector: '.never' }], maxAge: 0 }),
    });
    expect(wait.status).toBe(422);
    const { error } = (await wait.json()) as { error: { code: string; message: string } };
    expect(error.code).toBe('action_failed');
    expect(error.message).toMatch(
      /^action 1 of 1 \(wait for "\.never"\) could not be done: "\.never" did not appear within \d+ ms/,
    );
    expect(Date.now() - started).toBeLessThan(20_000);
    // Neither failed scrape left a copy for the page cache: the next scrape fetches the page.
    const next = await scrape({ url, extract: { formats: ['markdown'] } });
    expect(next.status).toBe(200);
    expect((next.body as ScrapeView & { cached: boolean }).cached).toBe(false);
  });

  it('a scrape whose page cannot be rendered does not answer it unrendered when it asked for actions', async () => {
    const url = `${site()}/t/${namespace()}/spa/hang.html`;
    const res = await api('/v1/scrape', {
      method: 'POST',
      body: JSON.stringify({ url, actions: [{ type: 'click', selector: 'a' }] }),
    });
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(res.status, JSON.stringify(body)).toBe(502);
    expect(body.error.code).toBe('render_failed');
    expect(body.error.message).toMatch(
      /^the page could not be rendered, so its action was not done: render: .*timed out/,
    );
  });
});
