/**
 * The dashboard in a real browser: Chromium from npm (@sparticuz/chromium ships the binary inside the package;
 * CHROMIUM_PATH picks another one), driven by playwright-core, against `wrangler dev` and the loopback test site.
 * Logs in, starts a crawl, watches it reach 100%, opens an error, retries it, cancels another crawl, and looks at
 * it all on a phone-sized screen. Screenshots go to SCREENSHOT_DIR (a temporary folder unless set;
 * `SCREENSHOT_DIR=docs/dashboard` refreshes the README's).
 */
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sites, startSites, startWorker, type Worker } from '../../scripts/lib/local.ts';
import { launchChromium, logInAs } from '../support/chromium.ts';

const shots = process.env.SCREENSHOT_DIR ?? mkdtempSync(join(tmpdir(), 'edgecrawl-screenshots-'));

let sites: Sites;
let worker: Worker;
let browser: Browser;

beforeAll(async () => {
  mkdirSync(shots, { recursive: true });
  sites = await startSites(0);
  worker = await startWorker({ HOST_MIN_INTERVAL_MS: '0', HOST_MAX_CONCURRENCY: '4', CHECK_RESPONSES: 'true' });
  browser = await launchChromium();
});
const logIn = (page: Page) => logInAs(page, worker);

afterAll(async () => {
  await browser?.close();
  await worker?.stop();
  await sites?.stop();
});

describe('the dashboard', () => {
  it('logs in, starts a crawl, shows it reach 100%, opens an error and retries it', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on(
      'console',
      (message) =>
        message.type() === 'error' &&
        !/status of 40[0-9]/.test(message.text()) &&
        problems.push(`console: ${message.text()}`),
    );

    // A wrong token is refused, and nothing is kept of it.
    await page.goto(`${worker.url}/`);
    await page.getByLabel('API token').fill('not-the-token');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect.poll(() => page.getByRole('alert').first().textContent()).toMatch(/not accepted/);
    await logIn(page);
    // The token lives in this tab's session storage only.
    expect(await page.evaluate(() => [localStorage.length, sessionStorage.getItem('edgecrawl-token')])).toEqual([
      0,
      worker.token,
    ]);

    // Start a crawl of the loopback site: a 40-page tree served with 100 ms latency, and the misc pages
    // (redirects, a 404, a redirect to file:) for errors.
    const ns = `dash${Date.now().toString(36)}`;
    const seeds = [`${sites.siteA}/t/${ns}/tree-40-d100/`, `${sites.siteA}/t/${ns}/misc/`];
    await page.getByRole('button', { name: 'New crawl' }).click(); // the form is behind it
    await page.getByLabel('Seed URLs (one per line)').fill(seeds.join('\n'));
    await page.getByRole('button', { name: 'Start crawl' }).click();
    await expect.poll(() => page.url()).toMatch(/#\/crawls\/[0-9a-f-]{36}$/);
    const id = /#\/crawls\/([0-9a-f-]{36})$/.exec(page.url())![1]!;
    const progress = page.getByRole('progressbar', { name: 'Crawl progress' });
    await expect.poll(() => progress.isVisible()).toBe(true);
    await expect.poll(() => page.locator('#crawl-status .badge').textContent()).toBe('running');
    await page.screenshot({ path: join(shots, 'dashboard-running.png') });

    // Progress reaches 100% when the crawl completes.
    const seen: number[] = [];
    await expect
      .poll(
        async () => {
          seen.push(Number(await progress.getAttribute('aria-valuenow')));
          return page.locator('#crawl-status .badge').textContent();
        },
        { timeout: 60_000, interval: 250 },
      )
      .toBe('completed');
    await expect.poll(() => progress.getAttribute('aria-valuenow')).toBe('100');
    // It was watched on its way (done over discovered: it can step back as new links are found).
    expect(seen.some((v) => v < 100)).toBe(true);
    expect(await page.locator('#progress-text').textContent()).toMatch(/^100% · (\d+) of \1 URLs done, 0 pending$/);

    // The figures are the API's.
    const api = async <T>(path: string): Promise<T> =>
      (
        await fetch(`${worker.url}${path}`, { headers: { authorization: `Bearer ${worker.token}` } })
      ).json() as Promise<T>;
    const stats = await api<{
      counts: { stored: number; failed: number; fetched: number };
      statuses: { status: number; count: number }[];
    }>(`/v1/crawls/${id}/stats`);
    const figure = (label: string) =>
      page
        .locator('.stats div')
        .filter({ has: page.locator('dt', { hasText: new RegExp(`^${label}$`) }) })
        .locator('dd');
    expect(await figure('stored').textContent()).toBe(String(stats.counts.stored));
    expect(await figure('failed').textContent()).toBe(String(stats.counts.failed));
    // The crawl's cost so far, from its counted usage (the usage may still grow by the last consumer's report).
    await expect
      .poll(
        async () => {
          const usage = await api<{ estimate: { usd: number } }>(`/v1/crawls/${id}/usage`);
          const shown = await figure('cost so far').textContent();
          return shown === `$${usage.estimate.usd.toPrecision(2)}` || shown === `$${usage.estimate.usd.toFixed(2)}`;
        },
        { timeout: 15_000 },
      )
      .toBe(true);
    expect(await figure('\\$ per million pages').textContent()).toMatch(/^\$\d/);
    // Renders and their browser time, as usage counts them (the test site's pages are server-rendered: none).
    const rendered = await api<{ renders: number; operations: { browserSeconds: number } }>(`/v1/crawls/${id}/usage`);
    expect(await figure('rendered').textContent()).toBe(String(rendered.renders));
    expect(await figure('browser time').textContent()).toBe(`${rendered.operations.browserSeconds.toFixed(1)} s`);
    const statusTable = page.getByRole('table', { name: 'Pages by HTTP status' });
    for (const { status, count } of stats.statuses)
      expect(
        await statusTable.getByRole('row', { name: new RegExp(`^${status} ${count}$`) }).count(),
        String(status),
      ).toBe(1);
    expect(
      await page
        .getByRole('table', { name: 'Hosts and politeness' })
        .getByRole('cell', { name: '127.0.0.1', exact: true })
        .count(),
    ).toBe(1);
    // robots.txt in words, per origin when the host has several: a 404 means there is none, everything allowed.
    const hostRow = page
      .getByRole('table', { name: 'Hosts and politeness' })
      .getByRole('row', { name: /^127\.0\.0\.1 / });
    expect(await hostRow.textContent()).toContain(`${sites.siteA}: none: all allowed (robots.txt answered http 404)`);
    expect(await page.getByRole('table', { name: 'Recent pages' }).getByRole('row').count()).toBe(11);

    // Open an error: its details show, and stay open across refreshes.
    const missing = page.locator('#errors details').filter({ hasText: `${sites.siteA}/t/${ns}/misc/missing.html` });
    await missing.locator('summary').click();
    await expect.poll(() => missing.getAttribute('open')).toBe('');
    const detail = (term: string) =>
      missing.locator('dt', { hasText: new RegExp(`^${term}$`) }).locator('xpath=following-sibling::dd[1]');
    expect(await detail('HTTP status').textContent()).toBe('404');
    expect(await detail('Reason').textContent()).toBe('http 404');
    expect(await detail('Attempts').textContent()).toBe('1');
    await page.waitForTimeout(5500); // past a refresh
    expect(await missing.getAttribute('open')).toBe('');
    await missing.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(shots, 'dashboard-error.png'), fullPage: true });

    // Retry it: the crawl runs again, the URL fails again (it is a 404), the crawl completes again.
    await missing.getByRole('button', { name: 'Retry this URL' }).click();
    await expect.poll(() => page.locator('#announce').textContent()).toMatch(/queued again/);
    await expect.poll(() => page.locator('#crawl-status .badge').textContent(), { timeout: 30_000 }).toBe('completed');
    await expect
      .poll(async () => (await api<{ counts: { failed: number; fetched: number } }>(`/v1/crawls/${id}`)).counts.fetched)
      .toBe(stats.counts.fetched + 1);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('cancels a running crawl, and fits a phone screen', async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await logIn(page);
    const ns = `dashc${Date.now().toString(36)}`;
    await page.getByRole('button', { name: 'New crawl' }).click(); // the form is behind it
    await page.getByLabel('Seed URLs (one per line)').fill(`${sites.siteA}/t/${ns}/pure-300-d200/`);
    await page.getByLabel('JavaScript').selectOption('never');
    await page.getByRole('button', { name: 'Start crawl' }).click();
    await expect.poll(() => page.locator('#crawl-status .badge').textContent()).toBe('running');
    // The form's choice of rendering is the crawl's.
    const started = /#\/crawls\/([0-9a-f-]{36})$/.exec(page.url())?.[1];
    const crawl = (await (
      await fetch(`${worker.url}/v1/crawls/${started}`, { headers: { authorization: `Bearer ${worker.token}` } })
    ).json()) as { config: { render: string } };
    expect(crawl.config.render).toBe('never');
    await expect
      .poll(
        async () =>
          Number(await page.getByRole('progressbar').getAttribute('aria-valuenow')) > 0 ||
          (await page.locator('.stats dd').nth(2).textContent()) !== '0',
        { timeout: 20_000 },
      )
      .toBe(true);
    // Nothing wider than the screen.
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await page.screenshot({ path: join(shots, 'dashboard-phone.png'), fullPage: true });

    await page.getByRole('button', { name: 'Cancel crawl' }).click();
    await expect.poll(() => page.locator('#crawl-status .badge').textContent()).toBe('cancelled');
    await expect.poll(() => page.getByRole('button', { name: 'Cancel crawl' }).isVisible()).toBe(false);

    // The list shows both crawls, the cancelled one with its status.
    await page.getByRole('link', { name: '← All crawls' }).click();
    const row = page.getByRole('table', { name: 'Recent crawls' }).getByRole('row').filter({ hasText: ns });
    await expect.poll(() => row.locator('.badge').textContent()).toBe('cancelled');
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await page.screenshot({ path: join(shots, 'dashboard-list-phone.png'), fullPage: true });

    // Logging out forgets the token.
    await page.getByRole('button', { name: 'Log out' }).click();
    expect(await page.evaluate(() => sessionStorage.getItem('edgecrawl-token'))).toBeNull();
    await expect.poll(() => page.getByLabel('API token').isVisible()).toBe(true);
    await page.close();
  });

  it("shows a page's extraction record, and tries a spec on a URL", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    await logIn(page);
    const root = `${sites.siteA}/t/dashx${Date.now().toString(36)}/docs/`;
    const request = {
      seeds: [root],
      maxDepth: 1,
      extract: {
        formats: ['markdown', 'text', 'metadata', 'jsonLd'],
        fields: { name: { selector: 'h1.product-title' } },
      },
    };
    const res = await fetch(`${worker.url}/v1/crawls`, {
      method: 'POST',
      headers: { authorization: `Bearer ${worker.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(request),
    });
    const { id } = (await res.json()) as { id: string };
    await page.goto(`${worker.url}/#/crawls/${id}`);
    await expect.poll(() => page.locator('#crawl-status .badge').textContent(), { timeout: 60_000 }).toBe('completed');

    // From the recent pages to the page view: the markdown rendered, the metadata and JSON-LD shown.
    await page
      .getByRole('table', { name: 'Recent pages' })
      .getByRole('link', { name: /article\.html$/ })
      .click();
    await expect.poll(() => page.locator('.markdown h3').first().textContent()).toBe('Getting started');
    expect(await page.locator('.markdown table th').allTextContents()).toEqual(['Option', 'Default']);
    expect(await page.locator('.markdown pre code').first().getAttribute('data-lang')).toBe('ts');
    await page.getByRole('tab', { name: 'Metadata' }).click();
    const metadata = page.getByRole('table', { name: 'Metadata' });
    expect(await metadata.getByRole('row', { name: /^title Getting started \| Docs$/ }).count()).toBe(1);
    expect(await metadata.getByRole('row', { name: /^headline Getting started$/ }).count()).toBe(1);
    await page.getByRole('tab', { name: 'JSON-LD' }).click();
    await expect.poll(() => page.getByRole('tabpanel').locator('pre').first().textContent()).toContain('TechArticle');
    await page.screenshot({ path: join(shots, 'dashboard-page.png'), fullPage: true });

    // Try a spec on the product page from the home view.
    await page.getByRole('link', { name: '← Crawl' }).click();
    await page.getByRole('link', { name: '← All crawls' }).click();
    await page.getByRole('button', { name: 'New crawl' }).click();
    await page.locator('summary', { hasText: /^Extraction$/ }).click();
    await page.getByLabel('Page URL').fill(`${root}product.html`);
    await page
      .getByLabel('Extraction spec (JSON)')
      .fill(JSON.stringify({ formats: ['text'], fields: { price: { selector: '.price', type: 'number' } } }));
    await page.getByRole('button', { name: 'Try spec' }).click();
    await page.locator('#try-result').getByRole('tab', { name: 'Fields' }).click();
    await expect
      .poll(() =>
        page.locator('#try-result').getByRole('table', { name: 'Fields' }).getByRole('row').nth(1).textContent(),
      )
      .toBe('price1299');
    // Markup inside links, and a footnote link, rendered as such (not as raw markdown).
    await page.getByLabel('Page URL').fill(`${sites.siteA}/t/dashr${Date.now().toString(36)}/watch/refs.html`);
    await page.getByLabel('Extraction spec (JSON)').fill(JSON.stringify({ formats: ['markdown'] }));
    await page.getByRole('button', { name: 'Try spec' }).click();
    const rendered = page.locator('#try-result .markdown');
    await expect.poll(() => rendered.locator('a strong').textContent()).toBe('RFC 7159');
    expect(await rendered.locator('a code').textContent()).toBe('json');
    expect(await rendered.getByRole('link', { name: '[1]' }).count()).toBe(1);
    expect(await rendered.textContent()).not.toMatch(/\*\*|\]\(/);
    await page.getByLabel('Extraction spec (JSON)').fill('{ not json');
    await page.getByRole('button', { name: 'Try spec' }).click();
    await expect.poll(() => page.locator('#try-error').textContent()).toMatch(/not valid JSON/i);
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe('the session', () => {
  it('is shared by a second tab, which says so when a crawl does not exist; logging out ends it in every tab', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const first = await context.newPage();
    const problems: string[] = [];
    for (const page of [first]) page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    await logIn(first);

    // A second tab opened on an unknown crawl: no login asked, an error state instead of a blank page.
    const second = await context.newPage();
    second.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    await second.goto(`${worker.url}/#/crawls/${crypto.randomUUID()}`);
    await expect.poll(() => second.getByRole('heading', { name: 'Crawl not found' }).isVisible()).toBe(true);
    expect(await second.locator('#login').isVisible()).toBe(false);
    expect(await second.getByRole('alert').filter({ hasText: 'the crawl was purged' }).count()).toBe(1);
    await second.screenshot({ path: join(shots, 'dashboard-not-found.png') });
    await second.getByRole('link', { name: '← All crawls' }).click();
    await expect.poll(() => second.getByRole('heading', { name: 'Crawls', level: 1 }).isVisible()).toBe(true);

    // Log out in the second tab: the first one asks for the token again.
    await second.getByRole('button', { name: 'Log out' }).click();
    await expect.poll(() => first.locator('#login').isVisible()).toBe(true);
    expect(await first.locator('#login-error').textContent()).toBe('Logged out in another tab.');
    // A new tab now finds no session.
    const third = await context.newPage();
    await third.goto(`${worker.url}/`);
    await expect.poll(() => third.locator('#login').isVisible()).toBe(true);
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('changes in the dashboard', () => {
  const post = async (body: unknown): Promise<string> => {
    const res = await fetch(`${worker.url}/v1/crawls`, {
      method: 'POST',
      headers: { authorization: `Bearer ${worker.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return ((await res.json()) as { id: string }).id;
  };
  const ended = async (id: string) => {
    await expect
      .poll(
        async () =>
          (
            (await (
              await fetch(`${worker.url}/v1/crawls/${id}`, { headers: { authorization: `Bearer ${worker.token}` } })
            ).json()) as { status: string }
          ).status,
        { timeout: 60_000 },
      )
      .toBe('completed');
  };

  it("lists what changed since the previous crawl, and shows a page's diff and changed fields", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    await logIn(page);
    const root = `${sites.siteA}/t/dashw${Date.now().toString(36)}/watch/`;
    const settings = {
      seeds: [root],
      extract: { formats: ['markdown'], fields: { price: { selector: '.price' } } },
      ignore: ['.live'],
    };
    const first = await post(settings);
    await ended(first);
    await fetch(`${root}__next`);
    const second = await post({ ...settings, previousCrawlId: first });
    await ended(second);

    await page.goto(`${worker.url}/#/crawls/${second}`);
    const changed = page.getByRole('table', { name: 'Changed pages' });
    await expect.poll(() => changed.getByRole('row').count(), { timeout: 30_000 }).toBe(6);
    expect(await page.locator('.change-counts').textContent()).toBe('new 1 · changed 3 · gone 1 · unchanged 2');
    expect(
      await changed
        .getByRole('row', { name: /^gone / })
        .getByRole('link')
        .count(),
    ).toBe(0);
    await page.screenshot({ path: join(shots, 'dashboard-changes.png'), fullPage: true });

    await changed.getByRole('link', { name: /article\.html$/ }).click();
    const diff = page.getByLabel('Unified diff');
    await expect
      .poll(() => diff.locator('.add').allTextContents())
      .toEqual([expect.stringMatching(/^\+Dams now hold most of that sand back/)]);
    expect(await diff.locator('.del').allTextContents()).toEqual([expect.stringMatching(/^-Where the current slows/)]);
    await page.screenshot({ path: join(shots, 'dashboard-diff.png'), fullPage: true });

    await page.getByRole('link', { name: '← Crawl' }).click();
    await changed.getByRole('link', { name: /product\.html$/ }).click();
    const fields = page.getByRole('table', { name: 'Changed fields' });
    await expect.poll(() => fields.getByRole('row').nth(1).textContent()).toBe('price"€129""€149"');
    expect(problems).toEqual([]);
    await page.close();
  });
});

/** The API reference page (/reference): the Worker's OpenAPI document (/v1/openapi.json) drawn in the browser. */
describe('the API reference', () => {
  /** A page that records page errors, console errors and CSP violations. */
  async function open(options: BrowserContextOptions, problems: string[]): Promise<Page> {
    const context = await browser.newContext(options);
    const page = await context.newPage();
    await page.addInitScript(
      "document.addEventListener('securitypolicyviolation', (e) => console.error('CSP violation: ' + e.violatedDirective + ' ' + e.blockedURI))",
    );
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));
    return page;
  }
  const operation = (page: Page, title: string) =>
    page.locator('section.op', { has: page.getByRole('heading', { name: title, exact: true, level: 3 }) });

  it('shows the operations, their bodies, parameters and a curl example; filters them; follows links', async () => {
    const problems: string[] = [];
    const page = await open(
      { viewport: { width: 1280, height: 900 }, permissions: ['clipboard-read', 'clipboard-write'] },
      problems,
    );
    // From the dashboard's header.
    await page.goto(`${worker.url}/`);
    await page.getByRole('link', { name: 'API reference' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/reference');
    const create = operation(page, 'POST /v1/crawls');
    await expect.poll(() => create.isVisible(), { timeout: 10_000 }).toBe(true);
    const document = (await (await fetch(`${worker.url}/v1/openapi.json`)).json()) as { info: { title: string } };
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(document.info.title);
    expect(await page.getByRole('main').getAttribute('aria-busy')).toBeNull();

    // The body's fields, seeds required; the recursive field spec is shown without looping.
    const body = create.locator('.op-part', { has: page.getByRole('heading', { name: /^Request body/ }) });
    const seeds = body.locator('[data-field="seeds"]').first();
    expect(await seeds.isVisible()).toBe(true);
    expect(await seeds.locator('.field-head').textContent()).toMatch(/^seeds\s*array of string\s*required$/);
    expect(await body.locator('[data-field="maxPages"] .field-head').first().textContent()).toMatch(
      /^maxPages\s*integer or null\s*optional$/,
    );
    expect(await body.getByText(/recursive/).count()).toBeGreaterThan(0);
    expect(await create.locator('.response h5').allTextContents()).toEqual(
      expect.arrayContaining([expect.stringMatching(/^201/), expect.stringMatching(/^400/)]),
    );

    // The curl example: the token as a bearer header, a JSON body with the required seeds.
    const curl = (await create.locator('pre.curl').textContent())!;
    expect(curl).toContain(`curl -X POST '${worker.url}/v1/crawls'`);
    expect(curl).toContain('-H "Authorization: Bearer $API_TOKEN"');
    const json = JSON.parse(/-d '([\s\S]*)'$/.exec(curl)![1]!) as { seeds: string[] };
    expect(json.seeds.length).toBeGreaterThan(0);
    await create.getByRole('button', { name: /^Copy the curl command/ }).click();
    await expect.poll(() => create.locator('button.copy').textContent()).toBe('Copied');
    expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(curl);

    // A parameters table: a path parameter and query parameters with their defaults and bounds.
    const pages = operation(page, 'GET /v1/crawls/{id}/pages');
    const params = pages.getByRole('table', { name: 'Parameters of GET /v1/crawls/{id}/pages' });
    expect(await params.getByRole('row', { name: /^id path string .*required/ }).count()).toBe(1);
    expect(await params.getByRole('row', { name: /^limit query integer no 100 1–1000/ }).count()).toBe(1);
    expect(await pages.locator('pre.curl').textContent()).toMatch(
      /^curl '[^']+\/v1\/crawls\/([0-9a-f-]{36}|\{id\})\/pages'/,
    );
    await page.screenshot({ path: join(shots, 'reference.png') });

    // The filter: by path or summary, the contents too.
    const visibleOps = () => page.locator('section.op:visible h3').allTextContents();
    const total = (await visibleOps()).length;
    await page.getByLabel('Filter operations').fill('retry');
    await expect.poll(visibleOps).toEqual(['POST /v1/crawls/{id}/retry-errors']);
    expect(await page.locator('#filter-count').textContent()).toBe(`1 of ${total} operations`);
    expect(await page.locator('#toc li:visible').count()).toBe(1);
    await page.getByLabel('Filter operations').fill('no such operation');
    await expect.poll(() => page.locator('#filter-count').textContent()).toMatch(/^No operation matches/);
    await page.getByLabel('Filter operations').press('Escape');
    await expect.poll(async () => (await visibleOps()).length).toBe(total);

    // The contents link to each operation's anchor.
    await page.locator('#toc a', { hasText: '/v1/crawls/{id}/pages' }).click();
    const id = (await pages.getAttribute('id'))!;
    expect(new URL(page.url()).hash).toBe(`#${id}`);
    await expect.poll(async () => Math.abs((await pages.boundingBox())!.y)).toBeLessThan(40);
    expect(problems).toEqual([]);
    await page.context().close();

    // A link to an operation opens the page there, once the document is drawn.
    const linked = await open({ viewport: { width: 1280, height: 900 } }, problems);
    await linked.goto(`${worker.url}/reference#${id}`);
    await expect.poll(() => operation(linked, 'GET /v1/crawls/{id}/pages').isVisible(), { timeout: 10_000 }).toBe(true);
    await expect
      .poll(async () => Math.abs((await operation(linked, 'GET /v1/crawls/{id}/pages').boundingBox())!.y))
      .toBeLessThan(40);
    expect(problems).toEqual([]);
    await linked.context().close();
  });

  it('fits a phone screen, in the dark', async () => {
    const problems: string[] = [];
    const page = await open(
      { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, colorScheme: 'dark' },
      problems,
    );
    await page.goto(`${worker.url}/reference`);
    await expect.poll(() => operation(page, 'POST /v1/crawls').isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await page.screenshot({ path: join(shots, 'reference-phone.png') });
    // The contents start closed on a phone; opened, they link to the operations.
    await page.getByText('Operations', { exact: true }).click();
    await page
      .locator('#toc a', { hasText: /^POST\s*\/v1\/crawls\s*Start a crawl$/ })
      .first()
      .click();
    await expect
      .poll(async () => Math.abs((await operation(page, 'POST /v1/crawls').boundingBox())!.y))
      .toBeLessThan(40);
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await page.screenshot({ path: join(shots, 'reference-operation-phone.png') });
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('says so when the document cannot be had, and tries again', async () => {
    const problems: string[] = [];
    const page = await open({ viewport: { width: 1280, height: 900 } }, problems);
    let failing = true;
    await page.route('**/v1/openapi.json', (route) =>
      failing
        ? route.fulfill({ status: 503, contentType: 'application/json', body: '{"error":{"code":"x","message":"x"}}' })
        : route.fallback(),
    );
    await page.goto(`${worker.url}/reference`);
    const alert = page.getByRole('alert');
    await expect.poll(() => alert.textContent()).toMatch(/could not be loaded.*503/);
    await page.screenshot({ path: join(shots, 'reference-error.png') });
    failing = false;
    await alert.getByRole('button', { name: 'Try again' }).click();
    await expect.poll(() => operation(page, 'POST /v1/crawls').isVisible(), { timeout: 10_000 }).toBe(true);
    // The failed request is the only thing the console reports.
    expect(problems.filter((p) => !/status of 503/.test(p))).toEqual([]);
    await page.context().close();
  });
});
