/**
 * The layout is the architecture: each folder of src/ is a part, and a part may only use parts below it. These
 * tests read the source and fail when an import runs back up the layers, when code outside storage/ speaks to D1
 * or R2, or when a function grows past 60 lines.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const src = join(root, 'src');

/** Parts from the bottom up; a part may import from its own folder and from parts of a lower rank. */
const RANKS: Record<string, number> = {
  domain: 0,
  lib: 0,
  '(top)': 1,
  storage: 2,
  queues: 2,
  page: 3,
  objects: 4,
  consumers: 5,
  jobs: 5,
  api: 6,
  'index.ts': 7,
};

/** The dashboard's scripts (public/*.js), held to the same function length as the Worker. */
const dashboardScripts = (): string[] => files(join(root, 'public'), /\.js$/);

function files(dir: string, pattern = /\.ts$/): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path, pattern) : pattern.test(name) ? [path] : [];
  });
}

/** The part a file of src/ belongs to: its top folder, '(top)' for shared modules, or 'index.ts'. */
function partOf(file: string): string {
  const rel = relative(src, file);
  if (rel === 'index.ts') return rel;
  return rel.includes('/') ? (rel.split('/')[0] as string) : '(top)';
}

/** The project files a file imports (relative specifiers only; packages are not parts). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+['"](\.[^'"]+)['"]/gm)].map(
    (m) => m[1] as string,
  );
  return specifiers.map((s) => resolve(dirname(file), s.endsWith('.ts') ? s : `${s}.ts`));
}

describe('the layout of src/', () => {
  const sources = files(src).filter((f) => !f.endsWith('.d.ts'));

  it('has every file in a known part', () => {
    for (const file of sources) expect(RANKS[partOf(file)], relative(root, file)).toBeDefined();
  });

  it('has no import running back up the layers, nor across parts of one layer', () => {
    const violations: string[] = [];
    for (const file of sources) {
      const from = partOf(file);
      for (const target of importsOf(file)) {
        const to = partOf(target);
        const ok = to === from || (RANKS[to] ?? 99) < (RANKS[from] ?? -1);
        if (!ok) violations.push(`${relative(root, file)} (${from}) imports ${relative(root, target)} (${to})`);
      }
    }
    expect(violations).toEqual([]);
  });

  it('keeps the domain pure: it imports nothing outside itself, and touches no binding', () => {
    for (const file of sources.filter((f) => partOf(f) === 'domain')) {
      for (const target of importsOf(file))
        expect(partOf(target), `${relative(root, file)} imports ${relative(root, target)}`).toBe('domain');
      expect(readFileSync(file, 'utf8'), relative(root, file)).not.toMatch(
        /\benv\.|cloudflare:workers|\bD1Database\b|\bR2Bucket\b|\bQueue\b/,
      );
    }
  });

  it('speaks SQL to D1 only from storage/d1, and to R2 only from storage/', () => {
    for (const file of sources) {
      const rel = relative(src, file);
      const text = readFileSync(file, 'utf8');
      if (!rel.startsWith('storage/d1/'))
        expect(text, rel).not.toMatch(/\.prepare\(|\bDB\.(batch|exec)\(|\bdb\.(batch|exec)\(/);
      if (!rel.startsWith('storage/'))
        expect(text, rel).not.toMatch(
          /\bBODIES\.(get|put|head|delete|list|createMultipartUpload)\(|\bbucket\.(get|put|head|delete|list)\(/,
        );
    }
  });
});

describe('functions', () => {
  it('are at most 60 lines long, in the Worker and the dashboard', () => {
    const long: string[] = [];
    for (const file of [...files(src), ...dashboardScripts()]) {
      const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
      const visit = (node: ts.Node): void => {
        if (ts.isFunctionLike(node) && 'body' in node && node.body) {
          const body = node.body as ts.Node;
          const first = source.getLineAndCharacterOfPosition(body.getStart()).line;
          const last = source.getLineAndCharacterOfPosition(body.getEnd()).line;
          if (last - first + 1 > 60) long.push(`${relative(root, file)}:${first + 1} (${last - first + 1} lines)`);
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
    expect(long).toEqual([]);
  });
});
