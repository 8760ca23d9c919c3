/**
 * A site's map (POST /v1/map): the URLs found for it, each once, with where it was found. Pure: the job fetches,
 * this merges and ranks.
 */
type MapSource = 'start' | 'sitemap' | 'links';

export interface MapEntry {
  url: string;
  source: MapSource;
  lastmod: string | null;
  title?: string | null;
}

/**
 * URLs in the order they were found, each once: the first source that found a URL keeps it, a later one only fills
 * in a lastmod or a title the first did not know. Stops taking new URLs past `cap` (returns whether it did).
 */
export class MapEntries {
  private readonly byUrl = new Map<string, MapEntry>();
  full = false;

  constructor(private readonly cap: number) {}

  add(entry: MapEntry): void {
    const known = this.byUrl.get(entry.url);
    if (known) {
      if (known.lastmod === null && entry.lastmod !== null) known.lastmod = entry.lastmod;
      if (!known.title && entry.title) known.title = entry.title;
      return;
    }
    if (this.byUrl.size >= this.cap) {
      this.full = true;
      return;
    }
    this.byUrl.set(entry.url, { ...entry });
  }

  get size(): number {
    return this.byUrl.size;
  }

  list(): MapEntry[] {
    return [...this.byUrl.values()];
  }
}

/** The words of a search: lowercase letters and digits, at most 16. */
export function searchWords(search: string): string[] {
  const words = search.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(words)].slice(0, 16);
}

/** How many of the words appear in the URL's path and query, or in its title. */
export function searchScore(entry: MapEntry, words: readonly string[]): number {
  let haystack: string;
  try {
    const u = new URL(entry.url);
    haystack = decodeURIComponent(`${u.pathname}${u.search}`).toLowerCase();
  } catch {
    haystack = entry.url.toLowerCase();
  }
  const title = (entry.title ?? '').toLowerCase();
  return words.filter((w) => haystack.includes(w) || title.includes(w)).length;
}

/**
 * Entries ranked for a search: most words matched first, ties in their found order; entries that match no word
 * follow, in their order. No words: the order unchanged.
 */
export function rankEntries(entries: readonly MapEntry[], search: string | undefined): MapEntry[] {
  const words = search ? searchWords(search) : [];
  if (words.length === 0) return [...entries];
  return entries
    .map((entry, index) => ({ entry, index, score: searchScore(entry, words) }))
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .map(({ entry }) => entry);
}
