/**
 * Sitemaps (sitemaps.org protocol): a `<urlset>` lists pages, a `<sitemapindex>` lists more sitemaps.
 * Only `<loc>` values are read, XML-unescaped (entities and CDATA), at most 50,000 per file as the
 * protocol allows. Sitemap content is untrusted: callers normalize and scope-check every URL.
 */
const MAX_SITEMAP_LOCS = 50_000;

export interface ParsedSitemap {
  kind: 'urlset' | 'index' | 'unknown';
  locs: string[];
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function unescapeXml(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#\d+|[a-z]+);/g, (match, entity: string) => {
    if (entity.startsWith('#x')) return String.fromCodePoint(parseInt(entity.slice(2), 16));
    if (entity.startsWith('#')) return String.fromCodePoint(parseInt(entity.slice(1), 10));
    return ENTITIES[entity] ?? match;
  });
}

export function parseSitemap(xml: string, limit = MAX_SITEMAP_LOCS): ParsedSitemap {
  const text = xml.replace(/<!--[\s\S]*?-->/g, '');
  const root = /<\s*(?:[\w.-]+:)?(urlset|sitemapindex)\b/i.exec(text)?.[1]?.toLowerCase();
  const kind = root === 'urlset' ? 'urlset' : root === 'sitemapindex' ? 'index' : 'unknown';
  const locs: string[] = [];
  const re = /<\s*(?:[\w.-]+:)?loc\s*>([\s\S]*?)<\s*\/\s*(?:[\w.-]+:)?loc\s*>/gi;
  for (let m = re.exec(text); m && locs.length < limit; m = re.exec(text)) {
    const raw = (m[1] as string).trim();
    const cdata = /^<!\[CDATA\[([\s\S]*)\]\]>$/.exec(raw);
    const value = cdata ? (cdata[1] as string).trim() : unescapeXml(raw);
    if (value) locs.push(value);
  }
  return { kind, locs };
}

/** True for gzip data (magic bytes 1f 8b), whatever the headers say. */
export function isGzip(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

/** One `<url>` (or `<sitemap>`) of a sitemap: its location and `<lastmod>` when it has one. */
export interface SitemapEntry {
  loc: string;
  lastmod: string | null;
}

const ENTRY = /<\s*(?:[\w.-]+:)?(?:url|sitemap)\s*>([\s\S]*?)<\s*\/\s*(?:[\w.-]+:)?(?:url|sitemap)\s*>/gi;
const LOC = /<\s*(?:[\w.-]+:)?loc\s*>([\s\S]*?)<\s*\/\s*(?:[\w.-]+:)?loc\s*>/i;
const LASTMOD = /<\s*(?:[\w.-]+:)?lastmod\s*>([\s\S]*?)<\s*\/\s*(?:[\w.-]+:)?lastmod\s*>/i;

function textOf(raw: string): string {
  const trimmed = raw.trim();
  const cdata = /^<!\[CDATA\[([\s\S]*)\]\]>$/.exec(trimmed);
  return cdata ? (cdata[1] as string).trim() : unescapeXml(trimmed);
}

/** As parseSitemap, with each location's `<lastmod>` (null when absent or empty); at most `limit` entries. */
export function parseSitemapEntries(
  xml: string,
  limit = MAX_SITEMAP_LOCS,
): { kind: ParsedSitemap['kind']; entries: SitemapEntry[] } {
  const text = xml.replace(/<!--[\s\S]*?-->/g, '');
  const root = /<\s*(?:[\w.-]+:)?(urlset|sitemapindex)\b/i.exec(text)?.[1]?.toLowerCase();
  const kind = root === 'urlset' ? 'urlset' : root === 'sitemapindex' ? 'index' : 'unknown';
  const entries: SitemapEntry[] = [];
  const re = new RegExp(ENTRY.source, 'gi');
  for (let m = re.exec(text); m && entries.length < limit; m = re.exec(text)) {
    const block = m[1] as string;
    const loc = LOC.exec(block);
    const value = loc ? textOf(loc[1] as string) : '';
    if (!value) continue;
    const lastmod = LASTMOD.exec(block);
    entries.push({ loc: value, lastmod: lastmod ? textOf(lastmod[1] as string) || null : null });
  }
  return { kind, entries };
}
