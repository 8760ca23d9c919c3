/**
 * The layout is the architecture: each folder of src/ is a part, and a part may only use parts below it. These
 * tests read the source and fail when an import runs back up the layers, when code outside storage/ speaks to D1
 * or R2, or when a function grows past 60 lines.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
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

function folders(dir: string): string[] {
  return readdirSync(dir)
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isDirectory())
    .flatMap((path) => [path, ...folders(path)]);
}

/** The part a file of src/ belongs to: its top folder, '(top)' for shared modules, or 'index.ts'. */
function partOf(file: string): string {
  const rel = relative(src, file);
  if (rel === 'index.ts') return rel;
  return rel.includes('/') ? (rel.split('/')[0] as string) : '(top)';
}

/** The file a relative specifier names: itself, with `.ts`, or its folder's index.ts. */
function resolveSpecifier(from: string, specifier: string): string {
  const base = resolve(dirname(from), specifier);
  const candidates = [base, `${base}.ts`, join(base, 'index.ts')];
  return candidates.find((c) => existsSync(c) && statSync(c).isFile()) ?? `${base}.ts`;
}

/** The project files a file imports, type-only imports and re-exports included (packages are not parts). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+['"](\.[^'"]+)['"]/gm)].map(
    (m) => m[1] as string,
  );
  return specifiers.map((s) => resolveSpecifier(file, s));
}

/** The import cycles among `sources`: each strongly connected set of more than one file (Tarjan's algorithm). */
function importCycles(sources: readonly string[]): string[][] {
  const graph = new Map(sources.map((f) => [f, importsOf(f)]));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v) as number);
    stack.push(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) visit(w);
      if (stack.includes(w)) low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
    }
    if (low.get(v) !== index.get(v)) return;
    const set = stack.splice(stack.indexOf(v));
    if (set.length > 1) cycles.push(set.map((f) => relative(root, f)).sort());
  };
  for (const v of sources) if (!index.has(v)) visit(v);
  return cycles;
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

  it('has no import cycle, type-only imports included', () => {
    expect(importCycles(sources)).toEqual([]);
  });

  it('has at most 25 files side by side in any folder, and none loose in domain/', () => {
    const crowded = [src, ...folders(src)]
      .map((dir) => ({ dir: relative(root, dir), count: readdirSync(dir).filter((n) => n.endsWith('.ts')).length }))
      .filter(({ count }) => count > 25);
    expect(crowded).toEqual([]);
    expect(readdirSync(join(src, 'domain')).filter((n) => n.endsWith('.ts'))).toEqual([]);
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
