/** The README is the setup guide: it stays short, and its deploy recipe creates what wrangler.toml binds. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { crawlSchema } from '../../src/api/responses';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const readme = read('README.md');
const toml = read('wrangler.toml');

const all = (text: string, pattern: RegExp) => new Set([...text.matchAll(pattern)].map((m) => m[1] as string));

/** The resources wrangler.toml names, as "kind name". */
function resourcesOfToml(): Set<string> {
  const queues = all(toml, /^\s*(?:queue|dead_letter_queue)\s*=\s*"([^"]+)"/gm);
  const buckets = all(toml, /^\s*bucket_name\s*=\s*"([^"]+)"/gm);
  const databases = all(toml, /^\s*database_name\s*=\s*"([^"]+)"/gm);
  return new Set([
    ...[...queues].map((q) => `queue ${q}`),
    ...[...buckets].map((b) => `bucket ${b}`),
    ...[...databases].map((d) => `database ${d}`),
  ]);
}

/** The resources the README's deploy recipe creates. */
function resourcesOfRecipe(): Set<string> {
  const recipe = readme.slice(readme.indexOf('## Deploy to your Cloudflare account'));
  const queues = all(recipe, /wrangler queues create (\S+)/g);
  const buckets = all(recipe, /wrangler r2 bucket create (\S+)/g);
  const databases = all(recipe, /wrangler d1 create (\S+)/g);
  return new Set([
    ...[...queues].map((q) => `queue ${q}`),
    ...[...buckets].map((b) => `bucket ${b}`),
    ...[...databases].map((d) => `database ${d}`),
  ]);
}

describe('the README', () => {
  it('is under 20 KB', () => {
    expect(new TextEncoder().encode(readme).byteLength).toBeLessThan(20_000);
  });

  it('starts with the whole setup: npm ci, npm start, npm test', () => {
    const first = /```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    expect(first.split('\n').map((line) => line.split('#')[0]?.trim())).toEqual([
      'npm ci',
      'npm start',
      'npm test',
      '',
    ]);
  });

  it('has a deploy recipe that creates every queue, bucket and database wrangler.toml names, and nothing else', () => {
    const wanted = resourcesOfToml();
    expect(wanted.size).toBeGreaterThanOrEqual(6);
    expect(resourcesOfRecipe()).toEqual(wanted);
  });

  it('links documents that exist', () => {
    for (const [, path] of readme.matchAll(/\]\(((?:docs\/)[^)#]+)/g))
      expect(() => read(path as string), path).not.toThrow();
  });

  it('links sections of documents that exist (GitHub heading anchors)', () => {
    const slug = (heading: string) =>
      heading
        .toLowerCase()
        .replace(/[^\p{L}\p{N} _-]/gu, '')
        .replace(/ /g, '-');
    const links = [...readme.matchAll(/\]\((docs\/[^)#]+)#([^)]+)\)/g)];
    expect(links.map((m) => m[2])).toContain('paced-and-small-crawls');
    for (const [, path, anchor] of links) {
      const headings = [...read(path as string).matchAll(/^#+ (.+)$/gm)].map((m) => slug(m[1] as string));
      expect(headings, `${path}#${anchor}`).toContain(anchor);
    }
  });

  it("states the counts' sum with every final state a URL can end in", () => {
    const sum = /so then `([a-z +]+) = discovered`/.exec(readme)?.[1] ?? '';
    const finals = Object.keys(crawlSchema.shape.counts.shape).filter((k) => k !== 'discovered' && k !== 'fetched');
    expect(sum.split(' + ').sort()).toEqual(finals.sort());
  });
});
