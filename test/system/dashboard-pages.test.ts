/**
 * The pages browser in a real browser (Chromium, against `wrangler dev` and the loopback test site): a 300-page crawl
 * plus the misc pages (redirects, a 404, text/plain), paged through to the end and compared with the API's listing,
 * filtered by status and outcome, searched by title and by extracted text, a row opened. Screenshots go to
 * SCREENSHOT_DIR (a temporary folder unless set).
 */
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, crawlToEnd, type Sites, startSites, startWorker, type Worker } from '../../scripts/lib/local.ts';
import { launchChromium, logInAs } from '../support/chromium.ts';

const shots = process.env.SCREENSHOT_DIR ?? mkdtempSync(join(tmpdir(), 'edgecrawl-screenshots-'));

interface Listed {
  url: string;
  status: number;
  title: string | null;
}
interface Listing {
  pages: Listed[];
  cursor: string | null;
}

let sites: Sites;
let worker: Worker;
let browser: Browser;
let id = '';
let all: Listed[] = [];

/** Every page the API lists for `query`, following its cursors. */
async function apiPages(query: string): Promise<Listed[]> {
  const out: Listed[] = [];
  let cursor: string | null = null;
  do {
    const answer: Listing = await api<Listing>(
      worker,
      `/v1/crawls/${id}/pages?limit=1000&${query}${cursor ? `&cursor=${cursor}` : ''}`,
    );
    out.push(...answer.pages);
    cursor = answer.cursor;
  } while (cursor);
  return out;
}

beforeAll(async () => {
  mkdirSync(shots, { recursive: true });
  sites = await startSites(0);
  worker = await startWorker({ HOST_MIN_INTERVAL_MS: '0', HOST_MAX_CONCURRENCY: '8', CHECK_RESPONSES: 'true' });
  browser = await launchChromium();
  const ns = `pages${Date.now().toString(36)}`;
  const crawl = await crawlToEnd(worker, {
    seeds: [`${sites.siteA}/t/${ns}/pure-300-d200/`, `${sites.siteA}/t/${ns}/misc/`],
    extract: { formats: ['text'] },
  });
  expect(crawl.status).toBe('completed');
  id = crawl.id;
  all = await apiPages('');
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await worker?.stop();
  await sites?.stop();
});

/** The URLs of the rows shown (each row's link opens its record). */
async function shownUrls(page: Page): Promise<string[]> {
  const hrefs = await page
    .locator('#pages-results tbody tr td:first-child a')
    .evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
  return hrefs.map((href) => decodeURIComponent(href.split('?url=')[1] ?? ''));
}

/** Waits for the results to settle on a status matching `status`, and returns the URLs shown. */
async function settled(page: Page, status: RegExp): Promise<string[]> {
  const fresh = page.locator('#pages-status:not([data-stale])');
  await expect.poll(() => fresh.textContent(), { timeout: 30_000 }).toMatch(status);
  return shownUrls(page);
}

async function applyFilters(page: Page, set: (page: Page) => Promise<void>): Promise<void> {
  if (!page.url().endsWith('/pages')) {
    await page.locator('#pages-status').evaluate((el) => el.setAttribute('data-stale', ''));
    await page.getByRole('link', { name: 'Clear filters' }).click();
    await settled(page, /^Pages 1–/);
  }
  await set(page);
  // The view drawn before is marked, so that only the new one's results count.
  await page.locator('#pages-status').evaluate((el) => el.setAttribute('data-stale', ''));
  await page.getByRole('button', { name: 'Apply filters' }).click();
}

describe('the pages browser', () => {
  it('pages through every page of the crawl: the API listing, no gaps, no repeats', async () => {
    expect(all.length).toBeGreaterThan(300);
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    await logInAs(page, worker);
    await page.goto(`${worker.url}/#/crawls/${id}`);
    await page.getByRole('link', { name: 'Browse all pages' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Pages', level: 1 }).isVisible()).toBe(true);
    const seen: string[] = [];
    const pages: string[][] = [];
    for (let start = 1; ; start += 100) {
      const urls = await settled(page, new RegExp(`^Pages ${start}–`));
      pages.push(urls);
      seen.push(...urls);
      if (await page.getByRole('button', { name: 'Next' }).isDisabled()) break;
      await page.getByRole('button', { name: 'Next' }).click();
    }
    expect(seen).toEqual(all.map((p) => p.url));
    // Next, disabled on the last page, left the focus on the count rather than on nothing.
    expect(await page.evaluate<string>('document.activeElement?.id ?? ""')).toBe('pages-status');
    expect(await page.locator('#pages-status').textContent()).toBe(
      `Pages ${pages.length * 100 - 99}–${all.length} (the last)`,
    );
    // Previous goes back a page, by the stack of cursors.
    await page.getByRole('button', { name: 'Previous' }).click();
    expect(await settled(page, new RegExp(`^Pages ${pages.length * 100 - 199}–`))).toEqual(pages.at(-2));
    expect(problems).toEqual([]);
    await page.close();
  });

  it('filters by status and outcome, searches titles and text, keeps the filters in the URL, opens a row', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await logInAs(page, worker);
    await page.goto(`${worker.url}/#/crawls/${id}/pages`);
    await settled(page, /^Pages 1–100$/);

    await applyFilters(page, (p) =>
      p
        .getByLabel('Status')
        .selectOption('4xx')
        .then(() => undefined),
    );
    const clientErrors = all.filter((p) => p.status >= 400 && p.status < 500).map((p) => p.url);
    expect(clientErrors.length).toBeGreaterThan(0);
    expect(await settled(page, /^Pages 1–\d+ \(the last\)$/)).toEqual(clientErrors);
    expect(page.url()).toMatch(/\/pages\?status=4xx$/);

    await applyFilters(page, (p) =>
      p
        .getByLabel('Outcome')
        .selectOption('failed')
        .then(() => undefined),
    );
    const failed = (await apiPages('outcome=failed')).map((p) => p.url);
    expect(failed.length).toBeGreaterThan(0);
    expect(await settled(page, /\(the last\)$/)).toEqual(failed);
    // The filters survive a reload.
    await page.reload();
    expect(await settled(page, /\(the last\)$/)).toEqual(failed);
    expect(await page.getByLabel('Outcome').inputValue()).toBe('failed');

    // A title word: "Tree page 150" (and its URL, p150.html) only.
    await applyFilters(page, (p) => p.getByLabel('Search', { exact: true }).fill('150'));
    expect(await settled(page, /\(the last\)$/)).toEqual(
      all.filter((p) => p.title === 'Tree page 150').map((p) => p.url),
    );

    // Words of the extracted text, in no title: the browser reads window after window to fill its page.
    const inText = (await apiPages('text=polite+queue')).map((p) => p.url);
    expect(inText.length).toBeGreaterThan(100);
    // Every status the results show on their way, recorded in the page (a string: run there, not in Node).
    await page.evaluate(`window.statuses = [];
      new MutationObserver(() => {
        const text = document.getElementById('pages-status')?.textContent;
        if (text) window.statuses.push(text);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });`);
    await applyFilters(page, async (p) => {
      await p.getByLabel('Search', { exact: true }).fill('polite queue');
      await p.getByLabel('Search in').selectOption('text');
    });
    expect(await settled(page, /^Pages 1–100$/)).toEqual(inText.slice(0, 100));
    // It said how far it had searched on its way (a text search reads 200 records a request).
    const statuses = await page.evaluate<string[]>('window.statuses');
    expect(
      statuses.some((t) => /^Searched 200 rows so far, \d+ found…$/.test(t)),
      statuses.join(' | '),
    ).toBe(true);
    expect(page.url()).toMatch(/\/pages\?text=polite\+queue$/);
    await page.screenshot({ path: join(shots, 'dashboard-pages.png') });
    await page.getByRole('button', { name: 'Next' }).click();
    expect(await settled(page, /^Pages 101–/)).toEqual(inText.slice(100, 200));

    // Stop, with the API slowed down: what the first window found so far, and Next goes on from there.
    await page.route(/\/pages\?.*text=/, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await route.continue().catch(() => undefined);
    });
    await page.reload();
    await expect
      .poll(() => page.locator('#pages-status').textContent(), { timeout: 30_000 })
      .toMatch(/^Searched 200 rows so far/);
    await page.getByRole('button', { name: 'Stop' }).click();
    const partial = await settled(page, /\(stopped: Next searches on\)$/);
    expect(partial.length).toBeGreaterThan(0);
    expect(partial.length).toBeLessThan(100);
    expect(partial).toEqual(inText.slice(0, partial.length));
    await page.getByRole('button', { name: 'Next' }).click();
    expect(await settled(page, new RegExp(`^Pages ${partial.length + 1}–`))).toEqual(
      inText.slice(partial.length, partial.length + 100),
    );
    await page.unroute(/\/pages\?.*text=/);

    // Nothing matches: said so.
    await applyFilters(page, async (p) => {
      await p.getByLabel('Search', { exact: true }).fill('nowhere-to-be-found');
      await p.getByLabel('Search in').selectOption('text');
    });
    await settled(page, /^No pages\.$/);
    expect(await page.locator('#pages-results').textContent()).toBe('No pages match these filters.');

    // A row opens the record.
    await page.goto(`${worker.url}/#/crawls/${id}/pages?q=150`);
    await settled(page, /\(the last\)$/);
    await page.locator('#pages-results tbody a').first().click();
    await expect.poll(() => page.locator('h1.url-title').textContent()).toMatch(/\/p150\.html$/);
    await expect.poll(() => page.getByRole('heading', { name: 'Record' }).isVisible()).toBe(true);
    await page.close();
  });

  it('says what went wrong: a filter the API refuses, an unknown crawl; and fits a phone', async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await logInAs(page, worker);
    await page.goto(`${worker.url}/#/crawls/${id}/pages?status=999`);
    await expect
      .poll(() => page.locator('#pages-results [role=alert]').textContent())
      .toMatch(/status: "999" is not a status code/);
    await page.goto(`${worker.url}/#/crawls/00000000-0000-4000-8000-000000000000/pages`);
    await expect.poll(() => page.getByRole('heading', { name: 'Crawl not found' }).isVisible()).toBe(true);

    await page.goto(`${worker.url}/#/crawls/${id}/pages?status=4xx`);
    await settled(page, /\(the last\)$/);
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await page.screenshot({ path: join(shots, 'dashboard-pages-phone.png'), fullPage: true });
    await page.close();
  });
});
