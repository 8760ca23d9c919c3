/**
 * A client generated from docs/openapi.json, as docs/api.md tells a user to make one (openapi-typescript, then
 * openapi-fetch), compiles the calls a user makes first: start a crawl and read its id, read the crawl, page through
 * its pages, read a record. A document that loses a property (an `id`, say) or types a defaulted input as required
 * breaks these calls.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
// Inside node_modules, so that the client's imports resolve to this checkout's packages.
const dir = join(root, 'node_modules', '.cache', `edgecrawl-client-${process.pid}`);

const CLIENT = `import createClient from 'openapi-fetch';
import type { paths } from './api';

type PageList = paths['/v1/crawls/{id}/pages']['get']['responses'][200]['content']['application/json'];

const client = createClient<paths>({ baseUrl: 'http://localhost:8787', headers: { authorization: 'Bearer dev-token' } });

async function pageOf(id: string, cursor: string | null): Promise<PageList | undefined> {
  const { data } = await client.GET('/v1/crawls/{id}/pages', {
    params: { path: { id }, query: cursor ? { cursor, limit: 100 } : { limit: 100 } },
  });
  return data;
}

export async function firstCrawl(): Promise<string[]> {
  // Only seeds: every other setting has a default.
  const { data: created, error } = await client.POST('/v1/crawls', { body: { seeds: ['https://example.com/'] } });
  if (error) throw new Error(error.error.message);
  const id: string = created.id;
  const { data: crawl } = await client.GET('/v1/crawls/{id}', { params: { path: { id } } });
  const stored: number | undefined = crawl?.counts.stored;
  const urls: string[] = [];
  let cursor: PageList['cursor'] = null;
  do {
    const page = await pageOf(id, cursor);
    if (!page) break;
    for (const p of page.pages) urls.push(p.url);
    cursor = page.cursor;
  } while (cursor);
  const { data: crawls } = await client.GET('/v1/crawls');
  const ids: string[] = crawls?.crawls.map((c) => c.id) ?? [];
  return [...urls, ...ids, String(stored)];
}
`;

function generate(flags: string[]): void {
  const bin = join(root, 'node_modules', '.bin', 'openapi-typescript');
  const run = spawnSync(bin, [join(root, 'docs/openapi.json'), '-o', join(dir, 'api.d.ts'), ...flags], {
    encoding: 'utf8',
  });
  expect(run.status, run.stderr).toBe(0);
}

/** The client's type errors, one line each. */
function compile(): string[] {
  const program = ts.createProgram([join(dir, 'client.ts')], {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
    skipLibCheck: true,
  });
  return ts
    .getPreEmitDiagnostics(program)
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n').split('\n')[0] ?? '');
}

describe('a client generated from docs/openapi.json', () => {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'client.ts'), CLIENT);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('compiles the first calls, generated as docs/api.md says (--default-non-nullable false)', () => {
    generate(['--default-non-nullable', 'false']);
    expect(compile()).toEqual([]);
  }, 60_000);

  it("needs that flag: openapi-typescript's default makes every defaulted input required", () => {
    generate([]);
    expect(compile().join('\n')).toMatch(/Type '\{ seeds: string\[\]; \}' is not assignable/);
  }, 60_000);
});
