import { columnsOf, type PageOf, readPage } from './page-rows';

// The API's views of a crawl's pages: listings (in URL order, most recent first), one page, its summary. Each view is
// a Pick of the page record (PageOf), selects the columns of its fields and no more, and reads its rows through
// readPage.

/** The fields a listing shows. */
export const LISTED = [
  'url',
  'status',
  'contentType',
  'title',
  'depth',
  'bytes',
  'fetchedAt',
  'rendered',
  'cachedFrom',
  'duplicateOf',
  'duplicateReason',
  'similarity',
  'wordCount',
] as const;

/** Which pages a listing shows: all, all but the duplicates, or the duplicates alone. */
export const DUPLICATE_FILTERS = ['include', 'exclude', 'only'] as const;
export type DuplicateFilter = (typeof DUPLICATE_FILTERS)[number];

/** The SQL condition of a duplicate filter (a constant: nothing of the request is in it). */
const duplicatesWhere = (filter: DuplicateFilter = 'include'): string =>
  filter === 'exclude' ? ' AND duplicate_of IS NULL' : filter === 'only' ? ' AND duplicate_of IS NOT NULL' : '';

/** A page as the API lists it: its record's fields, fetch time as an ISO string, no storage internals. */
export interface PageView extends Omit<PageOf<(typeof LISTED)[number]>, 'fetchedAt'> {
  fetchedAt: string;
}

export const toPageView = (p: PageOf<(typeof LISTED)[number]>): PageView => ({
  url: p.url,
  status: p.status,
  contentType: p.contentType,
  title: p.title,
  depth: p.depth,
  bytes: p.bytes,
  fetchedAt: new Date(p.fetchedAt).toISOString(),
  rendered: p.rendered,
  cachedFrom: p.cachedFrom,
  duplicateOf: p.duplicateOf,
  duplicateReason: p.duplicateReason,
  similarity: p.similarity,
  wordCount: p.wordCount,
});

/** Pages of a crawl in URL order (keyset pagination: stable while the crawl adds pages). */
export async function listPages(
  db: D1Database,
  crawlId: string,
  limit: number,
  afterUrl: string | null,
  duplicates?: DuplicateFilter,
): Promise<PageView[]> {
  const where = `crawl_id = ? AND url > ?${duplicatesWhere(duplicates)}`;
  const { results } = await db
    .prepare(`SELECT ${columnsOf(LISTED)} FROM pages WHERE ${where} ORDER BY url LIMIT ?`)
    .bind(crawlId, afterUrl ?? '', limit)
    .all();
  return results.map((row) => toPageView(readPage(row, LISTED)));
}

/** Where a listing of the most recent pages stopped: the last row's fetch time and URL. */
export interface RecentCursor {
  t: number;
  u: string;
}

/** Pages of a crawl, most recently fetched first (keyset pagination on fetch time, then URL). */
export async function listRecentPages(
  db: D1Database,
  crawlId: string,
  limit: number,
  after: RecentCursor | null,
  duplicates?: DuplicateFilter,
): Promise<(PageView & { cursor: RecentCursor })[]> {
  const { results } = await db
    .prepare(
      `SELECT ${columnsOf(LISTED)} FROM pages
       WHERE crawl_id = ? AND (? IS NULL OR (fetched_at, url) < (?, ?))${duplicatesWhere(duplicates)}
       ORDER BY fetched_at DESC, url DESC LIMIT ?`,
    )
    .bind(crawlId, after?.t ?? null, after?.t ?? 0, after?.u ?? '', limit)
    .all();
  return results.map((row) => {
    const page = readPage(row, LISTED);
    return { ...toPageView(page), cursor: { t: page.fetchedAt, u: page.url } };
  });
}

const ONE = [...LISTED, 'change', 'recordAt', 'linksAt', 'screenshotAt', 'fetchedBodyAt'] as const;

/**
 * One page as listed, with its change and which of its parts are stored (record, links, screenshot, the HTML as
 * fetched when it was rendered); null when the crawl has no such page.
 */
export async function getPageView(db: D1Database, crawlId: string, url: string) {
  const row = await db
    .prepare(`SELECT ${columnsOf(ONE)} FROM pages WHERE crawl_id = ? AND url = ?`)
    .bind(crawlId, url)
    .first();
  if (!row) return null;
  const page = readPage(row, ONE);
  return { ...toPageView(page), change: page.change, stored: storedParts(page) };
}

/** Which parts of a page are stored (a duplicate's are its kept page's: pass that page's row). */
export function storedParts(page: PageOf<'recordAt' | 'linksAt' | 'screenshotAt' | 'fetchedBodyAt'>) {
  return {
    record: page.recordAt !== null,
    links: page.linksAt !== null,
    screenshot: page.screenshotAt !== null,
    fetchedHtml: page.fetchedBodyAt !== null,
  };
}

const SUMMARY = ['url', 'title', 'description'] as const;

/** A page's title and description, as extraction recorded them; null when the crawl has no such page. */
export async function pageSummary(
  db: D1Database,
  crawlId: string,
  url: string,
): Promise<PageOf<(typeof SUMMARY)[number]> | null> {
  const row = await db
    .prepare(`SELECT ${columnsOf(SUMMARY)} FROM pages WHERE crawl_id = ? AND url = ?`)
    .bind(crawlId, url)
    .first();
  return row ? readPage(row, SUMMARY) : null;
}

/** Whether the crawl has any page row (a response it recorded: stored, a duplicate, or a 4xx/5xx). */
export async function hasPages(db: D1Database, crawlId: string): Promise<boolean> {
  return (await db.prepare('SELECT 1 AS one FROM pages WHERE crawl_id = ? LIMIT 1').bind(crawlId).first()) !== null;
}
