/**
 * A documentation truth for measuring extraction: pages of documentation sets installed from Debian packages
 * (lib/docs-sets.ts), a deterministic sample per set spread across its tree, each page's truth read from its
 * generator's own main-block marker (lib/docs-page.ts). Written as JSONL, one file per set, for other tools:
 * `node scripts/lib/docs-truth.ts [dir]` (default /work/corpora/docs-truth; SAMPLE pages per set, default 100).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type DocsPage, pageTruth } from './docs-page.ts';
import { DOCS_SETS, type DocsSet, NOT_CONTENT } from './docs-sets.ts';

export type { DocsPage } from './docs-page.ts';

/** Candidate pages of a set: its .html files, sorted, without assets, sources, indexes and search pages. */
function candidates(set: DocsSet): string[] {
  return (readdirSync(set.root, { recursive: true, encoding: 'utf8' }) as string[])
    .filter((p) => p.endsWith('.html') && !NOT_CONTENT.test(p) && !/(^|\/)_/.test(p))
    .filter((p) => !set.include || set.include.test(p))
    .sort();
}

/**
 * Up to `limit` pages of a set: its pinned pages, then the others evenly spread over its sorted tree (`perFolder`: as
 * many of each top folder).
 */
export function sampleSet(set: DocsSet, limit: number): DocsPage[] {
  const all = candidates(set);
  const pinned = spread(
    set,
    all.filter((f) => set.pin?.includes(f)),
    limit,
  );
  const files = all.filter((f) => !set.pin?.includes(f));
  const left = limit - pinned.length;
  if (!set.perFolder) return [...pinned, ...spread(set, files, left)];
  const folders = [...new Set(files.map((f) => f.split('/')[0]))];
  const each = Math.ceil(left / Math.max(1, folders.length));
  const sampled = folders.flatMap((folder) =>
    spread(
      set,
      files.filter((f) => f.split('/')[0] === folder),
      each,
    ),
  );
  return [...pinned, ...sampled.slice(0, left)];
}

/** Up to `limit` of the files, at evenly spaced places (the next content page from each). */
function spread(set: DocsSet, files: string[], limit: number): DocsPage[] {
  const want = Math.max(0, Math.min(limit, files.length));
  const pages: DocsPage[] = [];
  const taken = new Set<number>();
  for (let k = 0; k < want; k++) {
    for (let i = Math.floor((k * files.length) / want); i < files.length; i++) {
      const rel = files[i];
      if (rel === undefined || taken.has(i)) continue;
      taken.add(i);
      const file = join(set.root, rel);
      const page = pageTruth(set, file, `http://docs.local/${set.name}/${rel}`, readFileSync(file, 'utf8'));
      if (page) {
        pages.push(page);
        break;
      }
    }
  }
  return pages;
}

/** The sets installed on this machine; a message for each that is not. */
export function installedSets(log: (line: string) => void = console.log): DocsSet[] {
  return DOCS_SETS.filter((set) => {
    if (existsSync(set.root)) return true;
    log(`docs truth: ${set.name} skipped, not installed (${set.root})`);
    return false;
  });
}

function writeTruth(dir: string, set: string, pages: DocsPage[]): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${set}.jsonl`);
  writeFileSync(path, pages.map((p) => JSON.stringify(p)).join('\n') + (pages.length ? '\n' : ''));
  return path;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = process.argv[2] ?? '/work/corpora/docs-truth';
  for (const set of installedSets()) {
    const pages = sampleSet(set, Number(process.env.SAMPLE ?? 100));
    const codes = pages.reduce((n, p) => n + p.codes.length, 0);
    const tables = pages.reduce((n, p) => n + p.tables.length, 0);
    console.log(
      `${set.name}: ${pages.length} pages, ${codes} code blocks, ${tables} tables -> ${writeTruth(dir, set.name, pages)}`,
    );
  }
}
