/** scripts/lib/browser-setup.ts, in a wrangler cache of its own (XDG_CACHE_HOME in a temporary folder). */
import { execFile, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureLocalBrowser, SHIM_MARKER } from '../../scripts/lib/browser-setup.ts';

const run = promisify(execFile);
const root = new URL('../../', import.meta.url).pathname;
const quiet = { log: () => {} };
let cache: string;
const saved = { XDG_CACHE_HOME: process.env.XDG_CACHE_HOME, TMPDIR: process.env.TMPDIR };

beforeEach(() => {
  cache = mkdtempSync(join(tmpdir(), 'edgecrawl-browser-setup-'));
  process.env.XDG_CACHE_HOME = cache;
});
afterEach(() => {
  for (const [name, value] of Object.entries(saved))
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  rmSync(cache, { recursive: true, force: true });
});

/** A miniflare dist/src/index.js of the given text, in the temporary folder. */
function fakeDist(text: string): string {
  const path = join(cache, 'index.js');
  writeFileSync(path, text);
  return path;
}

describe('ensureLocalBrowser', () => {
  it("writes the shim where miniflare looks for Chrome, in XDG_CACHE_HOME, with miniflare's marker file", () => {
    const { chrome, state } = ensureLocalBrowser(quiet);
    expect(state).toBe('written');
    expect(chrome).toMatch(new RegExp(`^${cache}/\\.wrangler/chrome/linux-\\d+(\\.\\d+){3}/chrome-linux64/chrome$`));
    expect(readFileSync(chrome, 'utf8').split('\n')[1]).toMatch(SHIM_MARKER);
    expect(statSync(chrome).mode & 0o111).toBe(0o111);
    expect(existsSync(join(dirname(dirname(chrome)), '.miniflare-install-complete'))).toBe(true);
    const run = spawnSync(chrome, ['--version'], { encoding: 'utf8' });
    expect(run.stdout).toMatch(/^Chromium \d+/);
  });

  it('leaves a set-up cache as it is', () => {
    const { chrome } = ensureLocalBrowser(quiet);
    const before = statSync(chrome).mtimeMs;
    expect(ensureLocalBrowser(quiet)).toEqual({ chrome, state: 'ready' });
    expect(statSync(chrome).mtimeMs).toBe(before);
  });

  it('never overwrites a Chrome that is not its shim, and says it is used', () => {
    const { chrome } = ensureLocalBrowser(quiet);
    rmSync(dirname(dirname(chrome)), { recursive: true });
    mkdirSync(dirname(chrome), { recursive: true });
    writeFileSync(chrome, '#!/bin/sh\necho a real Chrome\n', { mode: 0o755 });
    const said: string[] = [];
    expect(ensureLocalBrowser({ log: (m) => said.push(m) })).toEqual({ chrome, state: 'foreign' });
    expect(readFileSync(chrome, 'utf8')).toBe('#!/bin/sh\necho a real Chrome\n');
    expect(said).toEqual([`local Browser Rendering uses the Chrome at ${chrome}`]);
  });

  it('unpacks Chromium again when the temporary folder was cleaned, for two launches at the same time', async () => {
    const temporary = join(cache, 'tmp');
    mkdirSync(temporary);
    process.env.TMPDIR = temporary;
    // A stand-in, so that the setup does not unpack the real one first.
    writeFileSync(join(temporary, 'chromium'), '#!/bin/sh\necho Chromium 0\n', { mode: 0o755 });
    const { chrome } = ensureLocalBrowser(quiet);
    rmSync(join(temporary, 'chromium'));
    const runs = await Promise.all([1, 2].map(() => run(chrome, ['--version'], { timeout: 120_000 })));
    for (const { stdout } of runs) expect(stdout).toMatch(/^Chromium \d+\.\d+/);
    expect(statSync(join(temporary, 'chromium')).size).toBeGreaterThan(100_000_000);
  }, 120_000);

  it('fails, naming the path it expected, when miniflare no longer has BROWSER_VERSION', () => {
    const dist = fakeDist('var CHROME_VERSION = "140.0.0.0"; "chrome-linux64"; ".miniflare-install-complete"');
    expect(() => ensureLocalBrowser({ ...quiet, miniflareDist: dist })).toThrow(
      `${dist} no longer has the BROWSER_VERSION constant or the Chrome layout that scripts/lib/browser-setup.ts ` +
        `expects (${cache}/.wrangler/chrome/linux-<BROWSER_VERSION>/chrome-linux64/chrome)`,
    );
    expect(existsSync(join(cache, '.wrangler'))).toBe(false);
  });

  it('fails the same way when the Chrome layout changed', () => {
    const dist = fakeDist('var BROWSER_VERSION = "140.0.7339.80"; "chrome-linux-x64"; ".miniflare-install-complete"');
    expect(() => ensureLocalBrowser({ ...quiet, miniflareDist: dist })).toThrow(
      `expects (${cache}/.wrangler/chrome/linux-140.0.7339.80/chrome-linux64/chrome); this wrangler looks for Chrome`,
    );
  });
});

/** A second clone of this checkout, as far as the browser setup goes: its script, package.json and node_modules. */
function checkout(dir: string): string {
  mkdirSync(join(dir, 'scripts/lib'), { recursive: true });
  copyFileSync(join(root, 'scripts/lib/browser-setup.ts'), join(dir, 'scripts/lib/browser-setup.ts'));
  copyFileSync(join(root, 'package.json'), join(dir, 'package.json'));
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  return dir;
}

/** Runs that checkout's ensureLocalBrowser in a process of its own and in its folder, as its `npm start` does. */
function setUpIn(dir: string): void {
  const script = `import(${JSON.stringify(join(dir, 'scripts/lib/browser-setup.ts'))}).then((m) => m.ensureLocalBrowser())`;
  const setup = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: dir, encoding: 'utf8' });
  expect(setup.status, setup.stderr).toBe(0);
}

/** The environment the shim is launched in, without the variable a checkout's npm start sets. */
function launchEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const { EDGECRAWL_ROOT: _, ...env } = process.env;
  return { ...env, ...extra };
}

describe('two checkouts on one machine', () => {
  let temporary: string;
  beforeEach(() => {
    temporary = join(cache, 'tmp');
    mkdirSync(temporary);
    process.env.TMPDIR = temporary;
    // A stand-in, so that neither setup unpacks the real one: the temporary folder is cleaned after.
    writeFileSync(join(temporary, 'chromium'), '#!/bin/sh\necho Chromium 0\n', { mode: 0o755 });
  });

  it('share one shim that names neither; with the last to write it deleted, the other still launches', async () => {
    const { chrome } = ensureLocalBrowser(quiet);
    const [first, second] = [checkout(join(cache, 'first')), checkout(join(cache, 'second'))];
    setUpIn(first);
    setUpIn(second);
    const shim = readFileSync(chrome, 'utf8');
    rmSync(second, { recursive: true });
    rmSync(join(temporary, 'chromium'));
    // Launched by miniflare under the first checkout's wrangler dev or tests: its working directory.
    const fromFolder = await run(chrome, ['--version'], { cwd: first, env: launchEnv(), timeout: 120_000 });
    expect(fromFolder.stdout).toMatch(/^Chromium \d+\.\d+/);
    // Elsewhere, with the checkout named by EDGECRAWL_ROOT (npm start and the local scripts set it).
    rmSync(join(temporary, 'chromium'));
    const env = launchEnv({ EDGECRAWL_ROOT: first });
    const fromVariable = await run(chrome, ['--version'], { cwd: cache, env, timeout: 120_000 });
    expect(fromVariable.stdout).toMatch(/^Chromium \d+\.\d+/);
    for (const dir of [first, second, root]) expect(shim).not.toContain(dir);
    expect(ensureLocalBrowser(quiet)).toEqual({ chrome, state: 'ready' });
  }, 240_000);

  it('says what to run when Chromium is not unpacked and no checkout is at hand', () => {
    const { chrome } = ensureLocalBrowser(quiet);
    rmSync(join(temporary, 'chromium'));
    const launch = spawnSync(chrome, ['--version'], { cwd: cache, env: launchEnv(), encoding: 'utf8' });
    expect(launch.status).toBe(1);
    expect(launch.stderr).toContain(`Chromium is not unpacked at ${join(temporary, 'chromium')}`);
    expect(launch.stderr).toContain(`($EDGECRAWL_ROOT: '', else the working directory: ${cache})`);
    expect(launch.stderr).toContain('run `npm start` or `npm test` in an edgecrawl checkout (after `npm ci`)');
  });
});
