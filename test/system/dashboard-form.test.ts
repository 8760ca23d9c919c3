/**
 * The dashboard's new-crawl form in a real browser (Chromium from npm, as in dashboard.test.ts), against `wrangler
 * dev` and the loopback test site: the API checks the settings as they are typed (a spec that is not JSON gets its
 * line and column, a bad format or selector the API's issue next to the editor), a spec is tried on one URL, settings
 * of several groups are set and previewed as the JSON request, the crawl starts with exactly those settings, and the
 * same form creates a schedule. Screenshots go to SCREENSHOT_DIR (a temporary folder unless set).
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

beforeAll(async () => {
  mkdirSync(shots, { recursive: true });
  sites = await startSites(0);
  worker = await startWorker({ HOST_MIN_INTERVAL_MS: '0', CHECK_RESPONSES: 'true' });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await worker?.stop();
  await sites?.stop();
});

async function api<T>(path: string, init: RequestInit = {}): Promise<T> {
  const headers = { authorization: `Bearer ${worker.token}`, 'content-type': 'application/json' };
  const res = await fetch(`${worker.url}${path}`, { ...init, headers });
  expect(res.ok, `${path}: ${res.status}`).toBe(true);
  return (await res.json()) as T;
}

/** Collects page errors and console errors (but the 4xx answers the browser logs). */
function watchProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on(
    'console',
    (m) => m.type() === 'error' && !/status of 40[0-9]/.test(m.text()) && problems.push(`console: ${m.text()}`),
  );
  return problems;
}

const open = (page: Page, group: string) =>
  page.locator('summary', { hasText: new RegExp(`^${group.replace(/[()]/g, '\\$&')}$`) }).click();

type Config = Record<string, unknown>;

describe('the new-crawl form', () => {
  it('checks settings as they are typed, tries a spec, and starts a crawl with exactly its settings', async () => {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      permissions: ['clipboard-read', 'clipboard-write'],
    });
    const page = await context.newPage();
    const problems = watchProblems(page);
    await logInAs(page, worker);
    const ns = `form${Date.now().toString(36)}`;
    const seed = `${sites.siteA}/t/${ns}/tree-10/`;
    await page.getByRole('button', { name: 'New crawl' }).click(); // the form is behind it
    await page.getByLabel('Seed URLs (one per line)').fill(seed);
    await open(page, 'Extraction');
    const spec = page.getByLabel('Extraction spec (JSON)');
    const specError = page.locator('#extract-spec-error');

    // Empty, the API's default: markdown and metadata, shown checked. No format at all is a plain crawl (null).
    const box = (name: string) => page.getByLabel(name, { exact: true });
    expect([await box('markdown').isChecked(), await box('metadata').isChecked()]).toEqual([true, true]);
    await box('markdown').uncheck();
    await box('metadata').uncheck();
    expect(await spec.inputValue()).toBe('null');
    const sent = async () => JSON.parse((await page.locator('#request-json').textContent()) ?? '{}') as object;
    await expect.poll(sent).toMatchObject({ extract: null });

    // Not JSON: where, by line and column, and the format boxes wait for it to be fixed.
    await spec.fill('{\n  "formats": ["markdown",]\n}');
    await expect.poll(() => specError.textContent()).toMatch(/^Not valid JSON at line 2, column \d+: /);
    expect(await spec.getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByLabel('markdown', { exact: true }).isDisabled()).toBe(true);

    // JSON, but an unknown format and a selector that does not parse: the API's issues, under the editor, unsent.
    const before = (await api<{ crawls: unknown[] }>('/v1/crawls')).crawls.length;
    await spec.fill(JSON.stringify({ formats: ['pdf'], fields: { heading: { selector: 'h1[' } } }));
    await expect.poll(() => specError.textContent()).toMatch(/formats\.0: .*markdown/);
    expect(await specError.textContent()).toMatch(/fields\.heading\.selector: invalid CSS selector "h1\["/);
    await expect.poll(() => page.locator('#form-issues').textContent()).toMatch(/^2 issues to fix:/);
    await page.locator('#new-crawl').screenshot({ path: join(shots, 'dashboard-form-invalid.png') });
    expect(await violations(page)).toEqual([]);
    // Submitted as it is, nothing starts: the issues are pointed at.
    await page.getByRole('button', { name: 'Start crawl' }).click();
    await expect.poll(() => page.locator('#start-error').textContent()).toBe('Not started: fix the 2 issues below.');
    expect(await page.evaluate<string | undefined>('document.activeElement?.id')).toBe('extract-spec');
    expect((await api<{ crawls: unknown[] }>('/v1/crawls')).crawls.length).toBe(before);

    // Fixed; the format boxes follow the JSON, and edit it.
    await spec.fill(JSON.stringify({ formats: ['markdown'], fields: { heading: { selector: 'h1' } } }));
    await expect.poll(() => page.locator('#check-status').textContent()).toBe('The settings are valid.');
    expect(await specError.textContent()).toBe('');
    expect(await spec.getAttribute('aria-invalid')).toBeNull();
    expect(await page.getByLabel('markdown', { exact: true }).isChecked()).toBe(true);
    await page.getByLabel('metadata', { exact: true }).check();
    expect(JSON.parse(await spec.inputValue())).toEqual({
      formats: ['markdown', 'metadata'],
      fields: { heading: { selector: 'h1' } },
    });

    // Tried on one page: its record, as a crawl would store it.
    await page.getByLabel('Page URL to try the spec on').fill(`${seed}p1.html`);
    await page.getByRole('button', { name: 'Try spec on one URL' }).click();
    await expect.poll(() => page.locator('#try-result').textContent(), { timeout: 20_000 }).toContain('Page 1 of 10');

    // Settings of other groups.
    await page.getByLabel('Max pages').fill('5');
    await open(page, 'Politeness');
    await page.getByLabel('Requests in flight per host').fill('2');
    await open(page, 'Retention');
    await page.getByLabel('Keep data for (days)').fill('7');
    await open(page, 'Webhook');
    await page.getByLabel('Webhook URL').fill(`${sites.siteA}/hook`);
    await page.getByLabel('Signing secret (16+ characters)').fill('a-secret-of-16-chars');
    await page.getByLabel('crawl.completed').check();
    await open(page, 'Behind a login');
    await page.getByLabel('Request headers (one per line, Name: value)').fill('X-Api-Key: form-key-1');
    await page.getByLabel('Cookies (a=1; b=2)').fill('session=form-session-2; theme=dark');
    await page.getByLabel('Basic user name').fill('ada');
    await page.getByLabel('Basic password').fill('form-password-3');

    // The request, as it will be sent: what was set, nothing else.
    const expected = {
      seeds: [seed],
      maxPages: 5,
      extract: { formats: ['markdown', 'metadata'], fields: { heading: { selector: 'h1' } } },
      hostConcurrency: 2,
      retentionDays: 7,
      webhook: { url: `${sites.siteA}/hook`, secret: 'a-secret-of-16-chars', events: ['crawl.completed'] },
      headers: { 'X-Api-Key': 'form-key-1' },
      cookies: [
        { name: 'session', value: 'form-session-2' },
        { name: 'theme', value: 'dark' },
      ],
      authenticate: { username: 'ada', password: 'form-password-3' },
    };
    await open(page, 'Request (JSON)');
    await expect
      .poll(async () => JSON.parse((await page.locator('#request-json').textContent()) ?? ''))
      .toEqual(expected);
    await expect.poll(() => page.locator('#check-status').textContent()).toBe('The settings are valid.');
    await page.getByRole('button', { name: 'Copy as curl' }).click();
    await expect.poll(() => page.locator('#announce').textContent()).toBe('curl command copied.');
    const curl = await page.evaluate<string>('navigator.clipboard.readText()');
    const [command, body] = curl.split(" --json '");
    expect(command).toBe(`curl -s ${worker.url}/v1/crawls -H "Authorization: Bearer $TOKEN"`);
    expect(JSON.parse(body?.replace(/'$/, '') ?? '')).toEqual(expected);
    await page.locator('#new-crawl').screenshot({ path: join(shots, 'dashboard-form.png') });
    expect(await violations(page)).toEqual([]);

    // Started: the crawl has exactly these settings, the rest the API's defaults.
    await page.getByRole('button', { name: 'Start crawl' }).click();
    await expect.poll(() => page.url()).toMatch(/#\/crawls\/[0-9a-f-]{36}$/);
    const id = /#\/crawls\/([0-9a-f-]{36})$/.exec(page.url())?.[1];
    const defaults = await api<{ config: Config }>('/v1/crawls/validate', {
      method: 'POST',
      body: JSON.stringify({ seeds: [seed] }),
    });
    const { webhook: _webhook, extract: _extract, headers: _h, cookies: _c, authenticate: _a, ...plain } = expected;
    const crawl = await api<{ config: Config }>(`/v1/crawls/${id}`);
    // Its credentials by name only: the values were sent once, sealed, and are never shown again.
    expect(JSON.stringify(crawl)).not.toMatch(/form-key-1|form-session-2|form-password-3/);
    expect(crawl.config).toEqual({
      ...defaults.config,
      ...plain,
      credentials: {
        hosts: ['127.0.0.1'],
        headers: ['X-Api-Key'],
        cookies: [
          { name: 'session', domain: null, path: '/', secure: false },
          { name: 'theme', domain: null, path: '/', secure: false },
        ],
        authenticate: true,
        login: null,
      },
      extract: {
        formats: ['markdown', 'metadata'],
        mainContent: true,
        include: [],
        exclude: [],
        fields: expected.extract.fields,
      },
      webhook: { url: `${sites.siteA}/hook`, format: 'edgecrawl', events: ['crawl.completed'] },
    });
    expect(problems).toEqual([]);
    await context.close();
  });

  it('creates a schedule with the same settings, and lists it', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const problems = watchProblems(page);
    await logInAs(page, worker);
    const ns = `forms${Date.now().toString(36)}`;
    const seed = `${sites.siteA}/t/${ns}/tree-10/`;
    await page.getByRole('button', { name: 'New crawl' }).click(); // the form is behind it
    await page.getByLabel('Seed URLs (one per line)').fill(seed);
    await page.getByLabel('Max pages').fill('3');
    await open(page, 'Extraction');
    await page.getByLabel('Extraction spec (JSON)').fill(JSON.stringify({ fields: { heading: { selector: 'h1' } } }));
    await page.getByLabel('Run on a schedule').check();
    // Every 1 hour by default; the API says when it runs.
    expect(await page.getByLabel('Every', { exact: true }).inputValue()).toBe('1');
    expect(await page.getByLabel('Unit').inputValue()).toBe('hours');
    await expect.poll(() => page.locator('#next-runs').textContent()).toMatch(/^Next runs: /);
    // A cron expression is checked as well.
    await page.getByLabel('by a cron expression').check();
    await page.getByLabel('Cron expression (UTC)').fill('61 * * * *');
    await expect.poll(() => page.locator('#cron-error').textContent()).not.toBe('');
    await page.getByLabel('at a fixed period').check();
    await expect.poll(() => page.locator('#cron-error').textContent()).toBe('');

    await page.getByRole('button', { name: 'Create schedule' }).click();
    await expect.poll(() => page.locator('#start-done').textContent()).toMatch(/^Schedule created: every 3600 s/);
    const row = page.getByRole('table', { name: 'Schedules' }).getByRole('row').filter({ hasText: seed });
    await expect.poll(() => row.locator('.new-schedule').textContent()).toBe(`${seed} (new)`);
    const { schedules } = await api<{ schedules: { everySeconds: number | null; crawl: Config }[] }>('/v1/schedules');
    const mine = schedules.filter((s) => (s.crawl.seeds as string[])[0] === seed);
    expect(mine).toHaveLength(1);
    expect(mine[0]?.everySeconds).toBe(3600);
    expect(mine[0]?.crawl.maxPages).toBe(3);
    expect(mine[0]?.crawl.extract).toEqual({
      formats: ['markdown', 'metadata'],
      mainContent: true,
      include: [],
      exclude: [],
      fields: { heading: { selector: 'h1' } },
    });
    expect(problems).toEqual([]);
    await page.close();
  });

  it('fits a phone screen, and says so when the API cannot check the settings', async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await logInAs(page, worker);
    await page.getByRole('button', { name: 'New crawl' }).click(); // the form is behind it
    await page.getByLabel('Seed URLs (one per line)').fill(`${sites.siteA}/t/phone/tree-10/`);
    await open(page, 'Extraction');
    await open(page, 'Webhook');
    // A closed group opens itself when a field inside has an issue.
    await open(page, 'Retention');
    await page.getByLabel('Keep data for (days)').fill('0');
    await open(page, 'Retention');
    expect(await page.locator('#group-retention').getAttribute('open')).toBeNull();
    await page.getByLabel('Max pages').fill('0');
    await expect.poll(() => page.locator('#max-pages-error').textContent()).toMatch(/>=1/);
    expect(await page.locator('#group-retention').getAttribute('open')).toBe('');
    expect(await page.locator('#retention-error').textContent()).toMatch(/>=1/);
    expect(await page.locator('#form-issues').textContent()).toMatch(/^2 issues to fix:/);
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await page.locator('#new-crawl').screenshot({ path: join(shots, 'dashboard-form-phone.png') });
    expect(await violations(page)).toEqual([]);

    // The API gone: the form says it could not check, and starting says why it failed.
    await page.route('**/v1/crawls/validate', (route) => route.abort());
    await page.getByLabel('Max pages').fill('2');
    await expect
      .poll(() => page.locator('#check-status').textContent())
      .toMatch(/^The settings could not be checked: /);
    await page.getByRole('button', { name: 'Start crawl' }).click();
    await expect.poll(() => page.locator('#start-error').textContent()).toMatch(/^Could not start the crawl: /);
    await page.close();
  });
});
