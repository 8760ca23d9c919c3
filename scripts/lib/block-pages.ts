/**
 * The pages fit:blocks learns from and scores on: trafilatura's evaluation set and web-content-2025
 * (../shared/corpora), each split by its index in evaldata.json as measure:extract splits it (even: dev, odd: held
 * out). A page carries its human (or model-made) snippets and, on web-content-2025, its whole main text.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

export type SetName = 'trafilatura' | 'web';

export interface Page {
  set: SetName;
  url: string;
  /** The page's bytes, decoded by the caller as extractPage would. */
  bytes: Uint8Array;
  with: string[];
  without: string[];
  /** The whole main text (web-content-2025 only). */
  main?: string;
}

const DIRS: Record<SetName, string> = { trafilatura: 'trafilatura-eval', web: 'web-content-2025' };

/** Whitespace collapsed, as score.py compares snippets. */
export const norm = (s: string) => s.replace(/[\s\u00a0]+/g, ' ').trim();

interface Item {
  file: string;
  with: string[];
  without: string[];
  main_content?: string;
}

function isItem(value: unknown): value is Item {
  if (typeof value !== 'object' || value === null) return false;
  const item: { file?: unknown; with?: unknown; without?: unknown } = value;
  return typeof item.file === 'string' && Array.isArray(item.with) && Array.isArray(item.without);
}

/** The set's directory, or null when it is not on this machine. */
export function setDir(corpora: string, set: SetName): string | null {
  const dir = join(corpora, DIRS[set]);
  return existsSync(join(dir, 'evaldata.json')) ? dir : null;
}

/** One half of a set (0: dev, 1: held out), in evaldata.json's order. */
export function pagesOf(corpora: string, set: SetName, half: 0 | 1): Page[] {
  const dir = setDir(corpora, set);
  if (!dir) return [];
  const data: unknown = JSON.parse(readFileSync(join(dir, 'evaldata.json'), 'utf8'));
  if (typeof data !== 'object' || data === null) return [];
  const pages: Page[] = [];
  for (const [i, [url, item]] of Object.entries(data).entries()) {
    if (i % 2 !== half || !isItem(item)) continue;
    pages.push({
      set,
      url,
      bytes: gunzipSync(readFileSync(join(dir, 'html', `${item.file}.gz`))),
      with: item.with.map(norm),
      without: item.without.map(norm),
      ...(typeof item.main_content === 'string' ? { main: item.main_content } : {}),
    });
  }
  return pages;
}
