/**
 * The dashboard's record view in a real browser (Chromium from npm, against `wrangler dev` and the loopback test
 * site): a crawled page opened in each of its tabs (markdown rendered, text, metadata, JSON-LD, fields, links, raw
 * body, screenshot, changes), the tabs driven by the keyboard and kept in the URL, crawled markup shown as text and
 * never run, and the Markdown renderer's footnotes and unsafe links. Screenshots go to SCREENSHOT_DIR (a temporary
 * folder unless set; `SCREENSHOT_DIR=docs/dashboard` refreshes the README's).
 */
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
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
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await worker?.stop();
  await sites?.stop();
});

const api = async <T>(path: string, init: RequestInit = {}): Promise<T> => {
  const res = await fetch(`${worker.url}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${worker.token}`, 'content-type': 'application/json' },
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<T>;
};

/** Starts a crawl and waits for it to end (a plain loop: it also runs in beforeAll, where expect.poll cannot). */
async function crawl(request: Record<string, unknown>): Promise<string> {
  const { id } = await api<{ id: string }>('/v1/crawls', { method: 'POST', body: JSON.stringify(request) });
  for (const until = Date.now() + 90_000; Date.now() < until; ) {
    const { status } = await api<{ status: string }>(`/v1/crawls/${id}`);
    if (status === 'completed') return id;
    if (status !== 'running') throw new Error(`crawl ${id} ended ${status}`);
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`crawl ${id} did not end in 90 s`);
}

/** A page that records page errors, console errors, CSP violations and dialogs (crawled scripts running). */
async function watched(page: Page, problems: string[]): Promise<Page> {
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('dialog', (dialog) => {
    problems.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  page.on('response', (r) => r.status() >= 500 && problems.push(`${r.status()} ${r.url()}`));
  page.on(
    'console',
    (m) => m.type() === 'error' && !/status of [45]0[0-9]/.test(m.text()) && problems.push(`console: ${m.text()}`),
  );
  return page;
}

const EXTRACT = {
  formats: ['markdown', 'text', 'metadata', 'jsonLd', 'links'],
  fields: { price: { selector: '.price', type: 'number' }, qty: { selector: '.qty', type: 'number' } },
};

describe('the record view', () => {
  let id: string;
  let url: string;
  const problems: string[] = [];

  beforeAll(async () => {
    url = `${sites.siteA}/t/rec${Date.now().toString(36)}/docs/record.html`;
    id = await crawl({ seeds: [url], maxDepth: 0, extract: EXTRACT });
  }, 120_000);

  const open = async (page: Page, tab = '') => {
    await logInAs(page, worker);
    await page.goto(`${worker.url}/#/crawls/${id}/page?url=${encodeURIComponent(url)}${tab ? `&tab=${tab}` : ''}`);
    await expect.poll(() => page.getByRole('tablist', { name: 'Record' }).isVisible()).toBe(true);
  };
  const panel = (page: Page) => page.locator('[role=tabpanel]:not([hidden])');
  const select = async (page: Page, name: string, shot: string) => {
    await page.getByRole('tab', { name, exact: true }).click();
    expect(await page.getByRole('tab', { selected: true }).textContent()).toBe(name);
    await expect.poll(() => panel(page).locator(':scope > [role=status]').count()).toBe(0);
    await page.screenshot({ path: join(shots, `dashboard-record-${shot}.png`), fullPage: true });
    return panel(page);
  };

  it('shows the essentials and the markdown rendered, crawled markup as text', async () => {
    const page = await watched(await browser.newPage({ viewport: { width: 1280, height: 900 } }), problems);
    await open(page);
    const tabs = await page.getByRole('tab').allTextContents();
    expect(tabs).toEqual(['Markdown', 'Text', 'Metadata', 'JSON-LD', 'Fields', 'Links', 'Raw']);
    const fact = (name: string) =>
      page.locator('.essentials div').filter({ has: page.locator('dt', { hasText: new RegExp(`^${name}$`) }) });
    expect(await fact('Status').locator('dd').textContent()).toBe('HTTP 200');
    expect(await fact('Rendered').locator('dd').textContent()).toBe('no');
    expect(await fact('Content type').locator('dd').textContent()).toMatch(/^text\/html/);

    const md = panel(page).locator('.markdown');
    await expect.poll(() => md.locator('h3').first().textContent()).toBe('Field notes');
    expect(await md.locator('table td').allTextContents()).toEqual(['maxPages', '1000', 'maxDepth', '3']);
    expect(await md.locator('figure.code figcaption').textContent()).toBe('js');
    expect(await md.locator('pre code').textContent()).toBe(
      'const notes = await crawl("field");\nconsole.log(notes.length);',
    );
    expect(await md.locator('ul ul li').textContent()).toBe('Robots first');
    expect(await md.locator('blockquote').textContent()).toBe('Politeness is a feature.');
    const guide = md.getByRole('link', { name: 'the guide' });
    expect(await guide.locator('strong').textContent()).toBe('the guide');
    expect(await guide.getAttribute('rel')).toBe('noopener noreferrer nofollow');
    expect(await md.locator('.image-ref').textContent()).toBe('[image: a chart]');
    // The page's escaped markup is text, and nothing of it became an element or ran.
    expect(await md.textContent()).toContain('<script>alert("md")</script>');
    expect(await md.textContent()).toContain('<img src=x onerror=alert(2)>');
    expect(await page.locator('.record script, .record img, .record [onerror]').count()).toBe(0);
    await page.screenshot({ path: join(shots, 'dashboard-record.png'), fullPage: true });

    // The keyboard: arrows, Home and End move between tabs (wrapping), focus and selection together.
    await page.getByRole('tab', { name: 'Markdown' }).focus();
    const selected = async () => page.getByRole('tab', { selected: true }).textContent();
    const focused = async () => page.evaluate<string>('document.activeElement?.textContent');
    for (const [key, name] of [
      ['ArrowRight', 'Text'],
      ['End', 'Raw'],
      ['ArrowRight', 'Markdown'],
      ['ArrowLeft', 'Raw'],
      ['Home', 'Markdown'],
    ] as const) {
      await page.keyboard.press(key);
      expect([await selected(), await focused()], key).toEqual([name, name]);
    }
    expect(await page.locator('[role=tabpanel]:not([hidden])').count()).toBe(1);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('opens the text, metadata, JSON-LD, fields, links and raw tabs, and keeps the tab in the URL', async () => {
    const page = await watched(await browser.newPage({ viewport: { width: 1280, height: 900 } }), problems);
    await open(page);
    let box = await select(page, 'Text', 'text');
    expect(await box.locator('pre.text').textContent()).toContain('Crawlers read pages');
    expect(page.url()).toMatch(/&tab=text$/);
    await page.reload();
    await expect.poll(() => page.getByRole('tab', { selected: true }).textContent()).toBe('Text');
    await expect.poll(() => panel(page).locator('pre.text').count()).toBe(1);

    box = await select(page, 'Metadata', 'metadata');
    const metadata = box.getByRole('table', { name: 'Metadata' });
    expect(await metadata.getByRole('row', { name: /^description Notes on crawling\.$/ }).count()).toBe(1);

    box = await select(page, 'JSON-LD', 'json-ld');
    expect(await box.getByRole('heading').allTextContents()).toEqual(['Item 1: Article', 'Item 2: BreadcrumbList']);
    expect(await box.locator('pre').first().textContent()).toContain('"headline": "Field notes"');

    box = await select(page, 'Fields', 'fields');
    const rows = box.getByRole('table', { name: 'Fields' }).getByRole('row');
    expect(await rows.allTextContents()).toEqual(['NameValueError', 'price42.5', 'qty–not a number: "many"']);

    const { links } = await api<{ links: string[] }>(`/v1/crawls/${id}/links?url=${encodeURIComponent(url)}`);
    box = await select(page, 'Links', 'links');
    expect(await box.locator('.links-count').textContent()).toMatch(new RegExp(`^${links.length} links: `));
    expect(await box.locator('.links a').count()).toBe(links.length);
    expect(await box.locator('.links a').allTextContents()).toContain('https://example.org/guide');
    await box.getByLabel('Filter links').fill('example.org');
    await expect.poll(() => box.getByRole('status').textContent()).toBe(`1 of ${links.length} links match.`);
    expect(await box.locator('.links a').count()).toBe(1);

    box = await select(page, 'Raw', 'raw');
    const raw = box.locator('pre.raw');
    expect(await raw.textContent()).toMatch(/^<!doctype html>/);
    expect(await raw.textContent()).toContain('<script>alert("raw")</script>');
    expect(await raw.locator('*').count()).toBe(0);
    expect(await page.locator('.record script, .record img').count()).toBe(0);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('fits a phone, and says what is wrong for a page not in the crawl', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
    const page = await watched(await context.newPage(), problems);
    await open(page);
    await expect.poll(() => panel(page).locator('.markdown table').count()).toBe(1);
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await page.screenshot({ path: join(shots, 'dashboard-record-phone.png'), fullPage: true });

    await page.goto(`${worker.url}/#/crawls/${id}/page?url=${encodeURIComponent(`${url}?missing`)}`);
    await expect.poll(() => page.getByRole('alert').last().textContent()).toMatch(/^no page .* in this crawl$/);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("shows a recrawl's changes as a tab, and a rendered page's screenshot", async () => {
    const page = await watched(await browser.newPage({ viewport: { width: 1280, height: 900 } }), problems);
    const again = await crawl({ seeds: [url], maxDepth: 0, extract: EXTRACT, previousCrawlId: id });
    await logInAs(page, worker);
    await page.goto(`${worker.url}/#/crawls/${again}/page?url=${encodeURIComponent(url)}&tab=changes`);
    await expect.poll(() => page.getByRole('tab', { selected: true }).textContent()).toBe('Changes');
    await expect.poll(() => panel(page).textContent()).toContain('The content did not change.');
    await page.screenshot({ path: join(shots, 'dashboard-record-changes.png'), fullPage: true });

    const article = `${sites.siteA}/t/shot${Date.now().toString(36)}/docs/article.html`;
    const shot = await crawl({ seeds: [article], maxDepth: 0, extract: { formats: ['markdown', 'screenshot'] } });
    await page.goto(`${worker.url}/#/crawls/${shot}/page?url=${encodeURIComponent(article)}&tab=screenshot`);
    await expect
      .poll(() => page.getByRole('tab', { selected: true }).textContent(), { timeout: 15_000 })
      .toBe('Screenshot');
    const image = panel(page).getByRole('img', { name: `Screenshot of ${article}` });
    await expect
      .poll(() => image.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth))
      .toBeGreaterThan(0);
    expect(await image.getAttribute('src')).toMatch(/^blob:/);
    await page.screenshot({ path: join(shots, 'dashboard-record-screenshot.png'), fullPage: true });
    expect(problems).toEqual([]);
    await page.close();
  });

  it('renders footnotes, and leaves unsafe links and markup as text (the renderer in the browser)', async () => {
    const page = await watched(await browser.newPage({ viewport: { width: 1280, height: 900 } }), problems);
    await logInAs(page, worker);
    const markdown = [
      'Claim[^a] and another[^b].',
      '',
      '[run](javascript:alert(1)) [data](data:text/html,<script>alert(1)</script>) <img src=x onerror=alert(1)>',
      '',
      '| L | C | R |',
      '|:--|:-:|--:|',
      '| 1 | 2 | 3 |',
      '',
      '[^a]: First note.',
      '[^b]: Second <script>alert(1)</script> note.',
    ].join('\n');
    // The dashboard's own module, imported as the page would (script-src 'self'), renders into the view.
    await page.evaluate(`import('/markdown-view.js').then((m) => {
      document.getElementById('view').replaceChildren(m.renderMarkdown(${JSON.stringify(markdown)}));
    })`);
    const md = page.locator('#view .markdown');
    await expect.poll(() => md.locator('sup.footnote-ref').allTextContents()).toEqual(['1', '2']);
    expect(await md.locator('.footnotes li').allTextContents()).toEqual([
      'First note. ↩',
      'Second <script>alert(1)</script> note. ↩',
    ]);
    await md.getByRole('link', { name: 'Footnote 2' }).click();
    expect(await page.evaluate<string>('document.activeElement?.textContent')).toMatch(/^Second/);
    expect(page.url()).not.toContain('fn-');
    expect(await md.locator('a').evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''))).not.toContainEqual(
      expect.stringMatching(/^(javascript|data):/),
    );
    expect(await md.textContent()).toContain('[run](javascript:alert(1))');
    expect(await md.locator('script, img').count()).toBe(0);
    expect(await md.locator('td').evaluateAll((tds) => tds.map((td) => td.className))).toEqual([
      'align-left',
      'align-center',
      'align-right',
    ]);
    expect(problems).toEqual([]);
    await page.close();
  });
});
