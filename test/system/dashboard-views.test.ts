/**
 * The dashboard's overview views in Chromium: the crawl list's figures (counts, progress, rate, cost, the schedule a
 * run came from) against the API, the activity chart's axes and tooltip, and an accessibility check (axe-core) of
 * every view on a desktop and a phone-sized screen, with their screenshots (SCREENSHOT_DIR=docs/dashboard refreshes
 * the README's).
 */
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sites, startSites, startWorker, type Worker } from '../../scripts/lib/local.ts';
import { launchChromium, logInAs, seriousViolations as violations } from '../support/chromium.ts';

const shots = process.env.SCREENSHOT_DIR ?? mkdtempSync(join(tmpdir(), 'edgecrawl-screenshots-'));

let sites: Sites;
let worker: Worker;
let browser: Browser;
/** A completed crawl with errors, a schedule's run, and a crawl with an extract spec (and its article page). */
let crawlId: string;
let runId: string;
let docsId: string;
let article: string;

const api = async <T>(path: string, init: RequestInit = {}): Promise<T> => {
  const res = await fetch(`${worker.url}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${worker.token}`, 'content-type': 'application/json' },
  });
  return (await res.json()) as T;
};

/** Polls `get` until it answers something truthy (hooks cannot use expect.poll). */
async function until<T>(get: () => Promise<T>, what: string, timeoutMs = 90_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await get();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const completed = (id: string) =>
  until(async () => (await api<{ status: string }>(`/v1/crawls/${id}`)).status === 'completed', `${id} to complete`);

beforeAll(async () => {
  mkdirSync(shots, { recursive: true });
  sites = await startSites(0);
  worker = await startWorker(
    { HOST_MIN_INTERVAL_MS: '0', HOST_MAX_CONCURRENCY: '8', CHECK_RESPONSES: 'true' },
    { args: ['--test-scheduled'] },
  );
  browser = await launchChromium();
  const ns = `views${Date.now().toString(36)}`;
  // The calendar's trap and the soft 404s give the crawl page its traps to show.
  const seeds = [
    `${sites.siteA}/t/${ns}/tree-40-d20/`,
    `${sites.siteA}/t/${ns}/misc/`,
    `${sites.siteA}/t/${ns}/trap-calendar/`,
    `${sites.siteA}/t/${ns}/trap-soft404/`,
  ];
  crawlId = (await api<{ id: string }>('/v1/crawls', { method: 'POST', body: JSON.stringify({ seeds }) })).id;
  const schedule = await api<{ id: string; lastCrawlId: string | null }>('/v1/schedules', {
    method: 'POST',
    body: JSON.stringify({ everySeconds: 3600, crawl: { seeds: [`${sites.siteA}/t/${ns}r/pure-5/`] } }),
  });
  // The cron trigger, fired by hand: it starts the schedules that are due (a new one is, at once).
  await fetch(`${worker.url}/__scheduled?cron=${encodeURIComponent('* * * * *')}`);
  runId = await until(async () => {
    const list = await api<{ crawls: { id: string; scheduleId: string | null }[] }>('/v1/crawls?limit=100');
    return list.crawls.find((c) => c.scheduleId === schedule.id)?.id ?? '';
  }, "the schedule's first run");
  const docs = `${sites.siteA}/t/${ns}d/docs/`;
  article = `${docs}article.html`;
  const extract = { formats: ['markdown', 'text', 'metadata', 'jsonLd'], fields: { title: { selector: 'h1' } } };
  docsId = (
    await api<{ id: string }>('/v1/crawls', {
      method: 'POST',
      body: JSON.stringify({ seeds: [docs], maxDepth: 1, extract }),
    })
  ).id;
  await completed(crawlId);
  await completed(runId);
  await completed(docsId);
});
afterAll(async () => {
  await browser?.close();
  await worker?.stop();
  await sites?.stop();
});

describe('the crawl list', () => {
  it("shows each crawl's progress, pages, rate and cost as the API counts them, and the schedule of a run", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await logInAs(page, worker);
    type Item = {
      id: string;
      counts: { stored: number; failed: number };
      pagesPerSecond: number;
      usd: number;
    };
    const list = await api<{ crawls: Item[] }>('/v1/crawls?limit=20');
    const item = list.crawls.find((c) => c.id === crawlId);
    if (!item) throw new Error('crawl not listed');
    const row = page
      .getByRole('table', { name: 'Recent crawls' })
      .getByRole('row')
      .filter({ has: page.locator(`a[href="#/crawls/${crawlId}"]`) });
    await expect.poll(() => row.count()).toBe(1);
    const cells = await row.getByRole('cell').allTextContents();
    expect(cells[1]).toBe('completed');
    expect(cells[2]).toBe('100%');
    expect(cells[3]).toBe(`${item.counts.stored} · ${item.counts.failed} failed`);
    expect(cells[4]).toBe(item.pagesPerSecond.toFixed(1));
    expect(cells[5]).toMatch(/^\$\d/);
    expect(cells[6]).toBe('by hand');
    const run = page
      .getByRole('table', { name: 'Recent crawls' })
      .getByRole('row')
      .filter({ has: page.locator(`a[href="#/crawls/${runId}"]`) });
    expect((await run.getByRole('cell').allTextContents())[6]).toBe('schedule every 3,600 s');
    await page.close();
  });
});

/**
 * What of the text of `selector`'s elements is laid out badly, as the page has it: a word drawn on two lines (a break
 * inside it), text wider than its box (clipped), or more lines than `maxLines`. Run in the page (a script: the
 * tests' TypeScript has no DOM).
 */
const layoutProblems = (selector: string, maxLines: number) => `(() => {
  const problems = [];
  for (const el of document.querySelectorAll(${JSON.stringify(selector)})) {
    const text = el.firstChild;
    const label = ${JSON.stringify(selector)} + ' "' + el.textContent + '"';
    if (el.scrollWidth > el.clientWidth) problems.push(label + ' is wider than its box');
    if (!(text instanceof Text)) continue;
    const range = document.createRange();
    const lines = (from, to) => {
      range.setStart(text, from);
      range.setEnd(text, to);
      return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
    };
    if (lines(0, text.length) > ${maxLines}) problems.push(label + ' takes more than ${maxLines} line(s)');
    for (const word of text.data.matchAll(/\\S+/g))
      if (lines(word.index, word.index + word[0].length) > 1) problems.push(label + ' breaks inside "' + word[0] + '"');
  }
  return problems;
})()`;

describe('at 1400x1000, a desktop screen', () => {
  it('the home view shows the crawls first, the new-crawl form behind a button', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await logInAs(page, worker);
    const list = page.getByRole('table', { name: 'Recent crawls' });
    await expect.poll(() => list.isVisible()).toBe(true);
    // The list starts within the first screen, with rows of it in view; the form is not shown.
    const box = await list.boundingBox();
    expect(box?.y ?? Number.POSITIVE_INFINITY).toBeLessThan(400);
    expect(await page.locator('#new-crawl').isVisible()).toBe(false);
    const toggle = page.getByRole('button', { name: 'New crawl' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    await toggle.click();
    expect(await page.locator('#new-crawl').isVisible()).toBe(true);
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    await expect.poll(() => page.evaluate<string | undefined>('document.activeElement?.id')).toBe('seeds');
    await toggle.click();
    expect(await page.locator('#new-crawl').isVisible()).toBe(false);
    await page.close();
  });

  it("a crawl's figures each fit on one line, and the hosts table's headings break between words only", async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await logInAs(page, worker);
    await page.goto(`${worker.url}/#/crawls/${crawlId}`);
    await expect.poll(() => page.locator('#crawl-status .badge').textContent()).toBe('completed');
    await expect.poll(() => page.getByRole('table', { name: 'Hosts and politeness' }).isVisible()).toBe(true);
    await expect.poll(() => page.locator('.stats dt', { hasText: 'cost so far' }).count()).toBe(1);
    // A cost of a few millionths of a dollar, as a small crawl's: the longest figure the card shows.
    await page.evaluate(`[...document.querySelectorAll('.stats div')]
      .find((d) => d.querySelector('dt')?.textContent === 'cost so far')
      .querySelector('dd').textContent = '$0.000092'`);
    expect.soft(await page.evaluate<string[]>(layoutProblems('.stats dt', 2))).toEqual([]);
    expect.soft(await page.evaluate<string[]>(layoutProblems('.stats dd', 1))).toEqual([]);
    // "Backing off" is one heading of two words, not "Backi / ng off", also beside the long robots.txt of real hosts.
    await page.evaluate(`for (const row of document.querySelectorAll('#hosts-title ~ div tbody tr')) {
      row.cells[0].textContent = 'www.a-rather-long-host-name-of-a-real-site.example.com';
      row.cells[5].textContent = ${JSON.stringify(`${'https://www.a-rather-long-host-name-of-a-real-site.example.com: rules, crawl-delay 1000 ms; '.repeat(6)}`)};
    }`);
    expect.soft(await page.evaluate<string[]>(layoutProblems('#hosts-title ~ div th', 2))).toEqual([]);
    await page.close();
  });
});

describe("a crawl's credentials", () => {
  it('are shown by name in its settings (hosts, headers, cookies, basic), never their values', async () => {
    const ns = `viewsc${Date.now().toString(36)}`;
    const base = `${sites.siteA}/t/${ns}/private/`;
    const secrets = [`key-${ns}`, `sess-${ns}`, `pass-${ns}`];
    const { id } = await api<{ id: string }>('/v1/crawls', {
      method: 'POST',
      body: JSON.stringify({
        seeds: [`${base}header/c.html`],
        maxDepth: 0,
        headers: { 'X-Api-Key': `key-${ns}` },
        cookies: [{ name: 'session', value: `sess-${ns}` }],
        authenticate: { username: `user-${ns}`, password: `pass-${ns}` },
      }),
    });
    await completed(id);
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await logInAs(page, worker);
    await page.goto(`${worker.url}/#/crawls/${id}`);
    const list = page.locator('#credentials');
    await expect.poll(() => list.isVisible()).toBe(true);
    const rows = await list
      .locator('div')
      .evaluateAll((divs) => divs.map((d) => [d.querySelector('dt')?.textContent, d.querySelector('dd')?.textContent]));
    expect(rows).toEqual([
      ['Sent to', new URL(base).hostname],
      ['Headers', 'X-Api-Key'],
      ['Cookies', 'session'],
      ['Basic credentials', 'yes'],
    ]);
    // Nothing in the page, the settings' JSON included, holds a value.
    const text = await page.content();
    expect(text).toContain('"credentials"');
    for (const secret of secrets) expect(text).not.toContain(secret);
    expect(await violations(page)).toEqual([]);
    await page.close();
  });
});

describe('the schedules list', () => {
  it('deletes a schedule once asked and confirmed; its runs are kept', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await logInAs(page, worker);
    const created = await api<{ id: string; crawl: { seeds: string[] } }>('/v1/schedules', {
      method: 'POST',
      body: JSON.stringify({
        everySeconds: 86_400,
        crawl: { seeds: [`${sites.siteA}/t/gone${Date.now().toString(36)}/pure-1/`] },
      }),
    });
    const seed = created.crawl.seeds[0] ?? '';
    const button = page.getByRole('button', { name: `Delete the schedule of ${seed}` });
    await expect.poll(() => button.isVisible(), { timeout: 10_000 }).toBe(true);
    // Dismissed: nothing happens.
    page.once('dialog', (dialog) => void dialog.dismiss());
    await button.click();
    const listed = async () =>
      (await api<{ schedules: { id: string }[] }>('/v1/schedules?limit=100')).schedules.some(
        (s) => s.id === created.id,
      );
    expect(await listed()).toBe(true);
    page.once('dialog', (dialog) => void dialog.accept());
    await button.click();
    await expect.poll(() => page.locator('#announce').textContent()).toBe('Schedule deleted.');
    expect(await listed()).toBe(false);
    // The list is drawn again after the announcement (public/app.js), so its button goes a moment later.
    await expect.poll(() => button.count()).toBe(0);
    // The other schedule's run is still listed.
    expect(
      await page.getByRole('table', { name: 'Recent crawls' }).locator(`a[href="#/crawls/${runId}"]`).count(),
    ).toBe(1);
    await page.close();
  });
});

describe('the activity chart', () => {
  it('has axes with units, a legend, a tooltip under the pointer and the keyboard, and its figures as a table', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await logInAs(page, worker);
    await page.goto(`${worker.url}/#/crawls/${crawlId}`);
    const chart = page.locator('#chart figure');
    await expect.poll(() => chart.isVisible()).toBe(true);
    expect(await chart.locator('figcaption').textContent()).toMatch(/y: pages per \d+ (s|min|h) · x: time$/);
    const y = await chart.locator('.chart-y span').allTextContents();
    expect(Number(y[0])).toBeGreaterThan(0);
    expect(y[2]).toBe('0');
    expect(await chart.locator('.chart-x span').count()).toBeGreaterThanOrEqual(2);
    const area = chart.locator('.chart-area');
    await area.hover();
    await expect.poll(() => chart.locator('.chart-tip').textContent()).toMatch(/ fetched, \d+ failed in /);
    await area.focus();
    await page.keyboard.press('End');
    const last = await chart.locator('.chart-tip').textContent();
    await page.keyboard.press('Home');
    expect(await chart.locator('.chart-tip').textContent()).not.toBe(last);
    // The table holds the same totals as the API's series.
    const stats = await api<{ series: { fetched: number }[] }>(`/v1/crawls/${crawlId}/stats`);
    await chart.getByText('Figures as a table').click();
    const fetched = await chart.locator('tbody tr td:nth-child(2)').allTextContents();
    expect(fetched.reduce((n, v) => n + Number(v.replace(/,/g, '')), 0)).toBe(
      stats.series.slice(-120).reduce((n, p) => n + p.fetched, 0),
    );
    await chart.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(shots, 'dashboard-chart.png') });
    await page.close();
  });
});

describe('the traps of a crawl', () => {
  it('shows the patterns found, the URLs they kept out, and soft 404s among the errors by code, as /stats has them', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await logInAs(page, worker);
    await page.goto(`${worker.url}/#/crawls/${crawlId}`);
    const stats = await api<{ traps: { rules: { rule: string; pattern: string }[]; skipped: { reason: string }[] } }>(
      `/v1/crawls/${crawlId}/stats`,
    );
    expect(stats.traps.rules.some((r) => r.rule === 'urlPatterns' && r.pattern.includes('/events/'))).toBe(true);
    const found = page.getByRole('table', { name: 'Traps found' });
    await expect.poll(() => found.isVisible()).toBe(true);
    expect(await found.textContent()).toContain(stats.traps.rules[0]?.pattern ?? '?');
    const kept = page.getByRole('table', { name: 'URLs kept out of traps' });
    expect(await kept.textContent()).toContain(stats.traps.skipped[0]?.reason ?? '?');
    expect(await page.getByRole('table', { name: 'Errors by code' }).textContent()).toContain('soft_404');
    await page.close();
  });
});

describe('a server that went away', () => {
  it('leaves the figures shown, marked out of date, then offers to try again; all is back when it is', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await logInAs(page, worker);
    await page.goto(`${worker.url}/#/crawls/${crawlId}`);
    await expect.poll(() => page.locator('#crawl-status .badge').textContent()).toBe('completed');
    // Every API call fails from now on, as when the crawler stops.
    await page.route('**/v1/**', (route) => route.abort('connectionrefused'));
    const banner = page.getByRole('status').filter({ hasText: 'Could not refresh' });
    await expect.poll(() => banner.isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await banner.textContent()).toMatch(/may be out of date; trying again/);
    expect(await page.locator('#crawl-status .badge').textContent()).toBe('completed');
    await page.screenshot({ path: join(shots, 'dashboard-offline.png') });
    // A view opened meanwhile says the API cannot be reached, with a way to try again.
    await page.goto(`${worker.url}/#/crawls/${runId}`);
    await expect.poll(() => page.getByRole('heading', { name: 'The API cannot be reached' }).isVisible()).toBe(true);
    await page.unroute('**/v1/**');
    await page.getByRole('button', { name: 'Try again' }).click();
    await expect.poll(() => page.locator('#crawl-status .badge').textContent()).toBe('completed');
    await expect.poll(() => banner.isVisible()).toBe(false);
    await page.close();
  });
});

describe('every view', () => {
  /** The views: where to go, what to wait for, and the screenshot's name. */
  const views = (): { name: string; hash: string; ready: (page: Page) => Promise<boolean> }[] => [
    { name: 'list', hash: '#/', ready: (p) => p.getByRole('table', { name: 'Recent crawls' }).isVisible() },
    {
      name: 'crawl',
      hash: `#/crawls/${crawlId}`,
      ready: async (p) => (await p.locator('#crawl-status .badge').textContent()) === 'completed',
    },
    {
      name: 'pages',
      hash: `#/crawls/${crawlId}/pages`,
      ready: (p) => p.getByRole('table', { name: 'Pages of the crawl' }).isVisible(),
    },
    {
      name: 'pages-4xx',
      hash: `#/crawls/${crawlId}/pages?status=4xx`,
      ready: (p) => p.getByRole('table', { name: 'Pages of the crawl' }).isVisible(),
    },
    ...['markdown', 'text', 'metadata', 'json-ld', 'fields', 'links', 'raw'].map((tab) => ({
      name: `record-${tab}`,
      hash: `#/crawls/${docsId}/page?url=${encodeURIComponent(article)}&tab=${tab}`,
      ready: async (p: Page) =>
        (await p.getByRole('tab', { selected: true }).getAttribute('id'))?.endsWith(tab) === true &&
        !(await p.getByRole('tabpanel').getByText('Loading…').isVisible()),
    })),
    {
      name: 'not-found',
      hash: `#/crawls/${crypto.randomUUID()}`,
      ready: (p) => p.getByRole('heading', { name: 'Crawl not found' }).isVisible(),
    },
  ];

  for (const [device, viewport] of [
    ['desktop', { width: 1280, height: 900 }],
    ['phone', { width: 390, height: 844 }],
  ] as const)
    it(`has no serious accessibility violations, and fits the screen (${device})`, async () => {
      const context = await browser.newContext({
        viewport,
        isMobile: device === 'phone',
        hasTouch: device === 'phone',
      });
      const page = await context.newPage();
      // Nothing the page does is refused by the CSP or throws (a 404 answer is the not-found view's own).
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      page.on('console', (m) => {
        if (m.type() === 'error' && !/status of 404/.test(m.text())) problems.push(m.text());
      });
      await page.goto(`${worker.url}/`);
      expect(await violations(page), 'login').toEqual([]);
      await logInAs(page, worker);
      const found: Record<string, string[]> = {};
      for (const view of views()) {
        await page.goto(`${worker.url}/${view.hash}`);
        await expect.poll(() => view.ready(page), { timeout: 30_000 }).toBe(true);
        found[view.name] = await violations(page);
        expect(await page.evaluate<number>('document.documentElement.scrollWidth'), view.name).toBeLessThanOrEqual(
          viewport.width,
        );
        // The record's other tabs have their own screenshots (dashboard-record.test.ts).
        if (!view.name.startsWith('record-') || view.name === 'record-markdown')
          await page.screenshot({ path: join(shots, `dashboard-view-${view.name}-${device}.png`), fullPage: true });
      }
      expect(found).toEqual(Object.fromEntries(views().map((v) => [v.name, []])));
      expect(problems).toEqual([]);
      await context.close();
    });
});
