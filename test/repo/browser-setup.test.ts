/** scripts/lib/browser-setup.ts, in a wrangler cache of its own (XDG_CACHE_HOME in a temporary folder). */
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureLocalBrowser, SHIM_MARKER } from '../../scripts/lib/browser-setup.ts';

const run = promisify(execFile);
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
