/**
 * Cloudflare's Browser Rendering binding (`[browser]` in wrangler.toml), locally and offline. wrangler dev and the
 * Workers tests (both miniflare) launch the Chrome they find in wrangler's cache, else download one, which fails
 * without the internet. ensureLocalBrowser puts a shim there instead: a short shell script that runs the Chromium
 * inside @sparticuz/chromium (an npm package; unpacked to the temp folder, again whenever that is cleaned).
 */
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The line that tells our shim from a real Chrome, which is never overwritten. */
export const SHIM_MARKER = '# edgecrawl local-browser shim';
/** miniflare deletes an install folder whose Chrome failed to start unless this file says it once started. */
const INSTALL_COMPLETE = '.miniflare-install-complete';
const root = fileURLToPath(new URL('../../', import.meta.url));

export interface BrowserSetupOptions {
  /** miniflare's dist/src/index.js, where BROWSER_VERSION is; by default the one wrangler loads. */
  miniflareDist?: string;
  log?: (message: string) => void;
}

export interface BrowserSetup {
  /** The path miniflare launches as Chrome. */
  chrome: string;
  /**
   * written: the shim was (re)written; ready: it was there already; foreign: a Chrome that is not ours is used;
   * skipped: not Linux x64, where @sparticuz/chromium does not run (wrangler downloads its Chrome there).
   */
  state: 'written' | 'ready' | 'foreign' | 'skipped';
}

/** Makes the BROWSER binding launch a browser under wrangler dev and the Workers tests, without a download. */
export function ensureLocalBrowser(options: BrowserSetupOptions = {}): BrowserSetup {
  const log = options.log ?? ((message: string) => console.log(`edgecrawl: ${message}`));
  const chrome = chromePath(options.miniflareDist ?? miniflareDist());
  if (process.platform !== 'linux' || process.arch !== 'x64') return { chrome, state: 'skipped' };
  if (existsSync(chrome) && !isShim(chrome)) {
    log(`local Browser Rendering uses the Chrome at ${chrome}`);
    return { chrome, state: 'foreign' };
  }
  const written = writeIfChanged(chrome, shim(), 0o755);
  writeIfChanged(join(dirname(dirname(chrome)), INSTALL_COMPLETE), '', 0o644);
  if (written) log(`local Browser Rendering runs @sparticuz/chromium through ${chrome}`);
  if (written || !existsSync(join(tmpdir(), 'chromium'))) check(chrome);
  return { chrome, state: written ? 'written' : 'ready' };
}

/** The miniflare wrangler loads (the Workers tests' vitest plugin loads the same one). */
function miniflareDist(): string {
  const require = createRequire(import.meta.url);
  return createRequire(require.resolve('wrangler')).resolve('miniflare');
}

/**
 * Where miniflare looks for Chrome: `<cache>/chrome/linux-<BROWSER_VERSION>/chrome-linux64/chrome` (@puppeteer/browsers'
 * layout, inside miniflare's bundle), `<cache>` being wrangler's: $XDG_CACHE_HOME/.wrangler or ~/.cache/.wrangler.
 */
function chromePath(dist: string): string {
  const source = readFileSync(dist, 'utf8');
  const version = /\bBROWSER_VERSION = "(\d+\.\d+\.\d+\.\d+)"/.exec(source)?.[1];
  const cache = join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), '.wrangler');
  const expected = join(cache, 'chrome', `linux-${version ?? '<BROWSER_VERSION>'}`, 'chrome-linux64', 'chrome');
  if (version === undefined || !source.includes('"chrome-linux64"') || !source.includes(`"${INSTALL_COMPLETE}"`))
    throw new Error(
      `Local Browser Rendering: ${dist} no longer has the BROWSER_VERSION constant or the Chrome layout that ` +
        `scripts/lib/browser-setup.ts expects (${expected}); this wrangler looks for Chrome elsewhere. See its ` +
        'launchBrowser and ensureBrowserInstalled for the path, and update scripts/lib/browser-setup.ts to match.',
    );
  return expected;
}

/** Whether the file at `path` is our shim: the marker line near its start (a real Chrome is a large binary). */
function isShim(path: string): boolean {
  const head = Buffer.alloc(512);
  const fd = openSync(path, 'r');
  try {
    return head
      .subarray(0, readSync(fd, head, 0, head.length, 0))
      .toString('latin1')
      .includes(SHIM_MARKER);
  } finally {
    closeSync(fd);
  }
}

const quote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

/** The variable that names the checkout a launch unpacks Chromium from (npm start and scripts/lib/local.ts set it). */
const ROOT_VARIABLE = 'EDGECRAWL_ROOT';

/** What the processes that may launch the shim need in their environment: this checkout, to unpack Chromium from. */
export function browserEnv(): Record<string, string> {
  return { [ROOT_VARIABLE]: root };
}

/**
 * The shim: runs Chromium with miniflare's arguments and --no-sandbox (we may be root), by exec so that Chrome's
 * "DevTools listening on ws://..." line reaches miniflare. It names no checkout: every checkout on the machine shares
 * it (it is where miniflare looks), and any may be deleted. Chromium is at $TMPDIR/chromium, where
 * @sparticuz/chromium unpacks it; when the temp folder was cleaned, the shim unpacks it again, one launch at a time
 * (flock, so that a second launch never runs a half-written file), from the checkout $EDGECRAWL_ROOT names, else from
 * the working directory (miniflare's: the checkout that runs wrangler dev or the tests), with that checkout's Node.
 * @sparticuz/chromium's own flags are left out: made for AWS Lambda, they change how pages behave (--single-process,
 * --disable-web-security, --disable-features=site-per-process), and the browser should behave as Cloudflare's does.
 */
function shim(): string {
  const unpack = "import('@sparticuz/chromium').then(async (c) => console.log(await c.default.executablePath()))";
  return [
    '#!/bin/sh',
    `${SHIM_MARKER}: scripts/lib/browser-setup.ts wrote it (npm start, npm test). Delete it to undo.`,
    '# wrangler dev and the Workers tests launch it as Chrome for the BROWSER binding; it runs @sparticuz/chromium.',
    '# Every edgecrawl checkout on this machine shares it: it names none, and finds one when Chromium must be unpacked.',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the shell's parameter expansion, as Node's tmpdir() reads it.
    'chrome="${TMPDIR:-${TMP:-${TEMP:-/tmp}}}/chromium"',
    'exec 9>>"$0.lock"',
    'command -v flock >/dev/null && flock 9',
    'if [ ! -x "$chrome" ]; then',
    `  for dir in "$${ROOT_VARIABLE}" "$PWD"; do`,
    '    [ -n "$dir" ] && [ -d "$dir/node_modules/@sparticuz/chromium" ] || continue',
    '    node="$dir/node_modules/.bin/node"',
    '    [ -x "$node" ] || node=node',
    `    unpacked=$(cd "$dir" && "$node" -e ${quote(unpack)}) && [ -x "$unpacked" ] && chrome=$unpacked && break`,
    '  done',
    '  if [ ! -x "$chrome" ]; then',
    `    echo "edgecrawl's local Browser Rendering ($0): Chromium is not unpacked at $chrome, and no edgecrawl" \\`,
    `      "checkout with its node_modules could unpack it (\\$${ROOT_VARIABLE}: '$${ROOT_VARIABLE}', else the" \\`,
    '      "working directory: $PWD): run \\`npm start\\` or \\`npm test\\` in an edgecrawl checkout (after \\`npm ci\\`)," \\',
    '      "or delete $0 to let wrangler download Chrome." >&2',
    '    exit 1',
    '  fi',
    'fi',
    'exec 9>&-',
    'exec "$chrome" --no-sandbox "$@"',
    '',
  ].join('\n');
}

/** Writes `text` to `path` unless it is there already (by rename, so a launch never runs a half-written shim). */
function writeIfChanged(path: string, text: string, mode: number): boolean {
  if (existsSync(path) && readFileSync(path, 'utf8') === text) return false;
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, text, { mode });
  renameSync(temporary, path);
  return true;
}

/** Runs the shim once (`--version`): unpacks Chromium if it is not, and fails here rather than at a launch. */
function check(chrome: string): void {
  const env = { ...process.env, ...browserEnv() };
  const run = spawnSync(chrome, ['--version'], { encoding: 'utf8', env, timeout: 120_000 });
  if (run.status !== 0 || !/Chromium|Chrome/.test(run.stdout))
    throw new Error(`Local Browser Rendering: ${chrome} --version failed (${run.status}): ${run.stderr || run.error}`);
}
