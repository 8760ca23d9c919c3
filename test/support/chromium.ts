/**
 * Chromium for the dashboard's browser tests: the binary inside @sparticuz/chromium (CHROMIUM_PATH picks another),
 * driven by playwright-core; and logging in to the dashboard. No vitest here: scripts (npm run measure:dashboard) use it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import packagedChromium from '@sparticuz/chromium';
import { type Browser, chromium, type Page } from 'playwright-core';

/** This machine's network is closed: no background connections, no first-run work, no sandbox (root in CI). */
const QUIET = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Chromium from CHROMIUM_PATH when set, else the one inside @sparticuz/chromium (unpacked to /tmp on first use). */
export async function launchChromium(): Promise<Browser> {
  const override = process.env.CHROMIUM_PATH;
  if (override && !existsSync(override)) throw new Error(`CHROMIUM_PATH=${override} does not exist`);
  const executablePath = override ?? (await packagedChromium.executablePath());
  // The package's flags are made for one page per process (AWS Lambda): --single-process closes the browser with
  // its first page, and these tests open several.
  const packaged = packagedChromium.args.filter((flag) => flag !== '--single-process');
  const args = override ? QUIET : [...packaged, ...QUIET.filter((flag) => !packaged.includes(flag))];
  return chromium.launch({ executablePath, headless: true, args });
}

/** Logs `page` in to the dashboard of `worker` with its token, and waits for the crawl list. */
export async function logInAs(page: Page, worker: { url: string; token: string }): Promise<void> {
  await page.goto(`${worker.url}/`);
  await page.getByLabel('API token').fill(worker.token);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('heading', { name: 'Crawls', level: 1 }).waitFor({ state: 'visible', timeout: 15_000 });
}

/** axe-core's script, read once when first needed. */
let axeSource: string | undefined;

/** Serious and critical accessibility violations axe-core finds on the page as it is now: "rule: targets". */
export async function seriousViolations(page: Page): Promise<string[]> {
  axeSource ??= readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  await page.evaluate(axeSource);
  type Violation = { id: string; impact: string; targets: string[] };
  const found = await page.evaluate<Violation[]>(
    `axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations.map((v) => ({
      id: v.id, impact: v.impact, targets: v.nodes.slice(0, 3).map((n) => n.target.join(' ')),
    })))`,
  );
  return found
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.targets.join(', ')}`);
}
