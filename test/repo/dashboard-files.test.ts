import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const publicDir = join(import.meta.dirname, '../../public');
const read = (file: string) => readFileSync(join(publicDir, file), 'utf8');

/** Every module `entry` imports, directly or not (relative imports of public/ only). */
function importsOf(entry: string, seen = new Set<string>()): Set<string> {
  for (const [, file] of read(entry).matchAll(/from '\.\/([\w.-]+\.js)'/g)) {
    if (file === undefined || seen.has(file)) continue;
    seen.add(file);
    importsOf(file, seen);
  }
  return seen;
}

describe("the dashboard's index.html", () => {
  it('preloads every module app.js imports, so the browser fetches them at once, not a level at a time', () => {
    const preloaded = [...read('index.html').matchAll(/<link rel="modulepreload" href="\/([\w.-]+\.js)">/g)].map(
      (m) => m[1],
    );
    expect(preloaded.sort()).toEqual([...importsOf('app.js')].sort());
  });
});

describe("the dashboard's modules", () => {
  it('never set markup: what a crawled page or a model answered (markdown, json, summary) is only set as text', () => {
    const modules = readdirSync(publicDir).filter((file) => file.endsWith('.js'));
    const setting = modules.filter((file) =>
      /\.(innerHTML|outerHTML)\s*=|insertAdjacentHTML|document\.write|createContextualFragment/.test(read(file)),
    );
    expect(setting).toEqual([]);
  });
});
