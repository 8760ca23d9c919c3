import { z } from 'zod';
import { HAS_KEPT_BODY, keptColumns, ownColumns, WITH_KEPT } from './kept-join';
import { type PageOf, readPage } from './page-rows';
import { chunkedIn } from './sql';

// A crawl's pages that are Firecrawl's documents (src/storage/firecrawl-pages.ts reads their records).

/** What a document says of its own URL: a duplicate's are its own (its URL, status, type, title, fetch time). */
const OWN = ['url', 'status', 'contentType', 'title', 'fetchedAt', 'cachedFrom', 'change'] as const;
/** Where its content is: a duplicate's are its kept page's (kept-join.ts). */
const KEPT = ['bodyAt', 'recordAt', 'screenshotAt'] as const;
const FIELDS = [...OWN, ...KEPT] as const;
export type DocumentRow = PageOf<(typeof FIELDS)[number]>;

const SELECT = `SELECT ${ownColumns(OWN)}, ${keptColumns(KEPT)} FROM ${WITH_KEPT}`;

/**
 * A page with a body: its own, or, for a duplicate, its kept page's (Firecrawl answers one document per page crawled
 * or scraped, so a page stored once under two URLs is two documents, each with its URL); and not a sitemap the crawl
 * read for its URLs (XML, gzip; XHTML is a page). A duplicate whose kept page has no body (it failed, and the
 * duplicate waits to be fetched again; or three hops away) is none.
 */
const DOCUMENT = `p.crawl_id = ? AND ${HAS_KEPT_BODY} AND (p.content_type IS NULL OR (
  p.content_type NOT LIKE 'application/xml%' AND p.content_type NOT LIKE 'text/xml%' AND p.content_type NOT LIKE '%gzip%'))`;

/** Where a page of documents starts: after a URL (keyset, stable while a crawl runs), or a count of them. */
export type DocumentsFrom = { afterUrl: string } | { skip: number };

export async function documentRows(
  db: D1Database,
  crawlId: string,
  from: DocumentsFrom,
  limit: number,
): Promise<DocumentRow[]> {
  const select = `${SELECT} WHERE ${DOCUMENT}`;
  const statement =
    'afterUrl' in from
      ? db.prepare(`${select} AND p.url > ? ORDER BY p.url LIMIT ?`).bind(crawlId, from.afterUrl, limit)
      : db.prepare(`${select} ORDER BY p.url LIMIT ? OFFSET ?`).bind(crawlId, limit, from.skip);
  return (await statement.all()).results.map((row) => readPage(row, FIELDS));
}

/** The document rows of some of a crawl's pages, by URL; pages without one are left out. */
export async function documentRowsOf(db: D1Database, crawlId: string, urls: readonly string[]): Promise<DocumentRow[]> {
  if (urls.length === 0) return [];
  const marks = urls.map(() => '?').join(', ');
  const sql = `${SELECT} WHERE ${DOCUMENT} AND p.url IN (${marks})`;
  return (
    await db
      .prepare(sql)
      .bind(crawlId, ...urls)
      .all()
  ).results.map((row) => readPage(row, FIELDS));
}

/**
 * When an earlier crawl fetched each of `urls` (epoch ms), those it stored a page for (a document's changeTracking:
 * its previousScrapeAt).
 */
export async function fetchTimesOf(
  db: D1Database,
  crawlId: string,
  urls: readonly string[],
): Promise<Map<string, number>> {
  const sql = 'SELECT url, fetched_at FROM pages WHERE crawl_id = ? AND status IN (200, 304) AND url IN ({in})';
  const out = new Map<string, number>();
  for (const statement of chunkedIn(db, sql, [crawlId], urls))
    for (const row of (await statement.all()).results) {
      const parsed = fetchTimeSchema.safeParse(row);
      if (parsed.success) out.set(parsed.data.url, parsed.data.fetched_at);
    }
  return out;
}

const fetchTimeSchema = z.object({ url: z.string(), fetched_at: z.number() });

/** How many documents a crawl has (its pages with a body, a duplicate's its kept page's; sitemaps left out). */
export async function countDocuments(db: D1Database, crawlId: string): Promise<number> {
  const row = await db
    .prepare(`SELECT COUNT(*) AS n FROM ${WITH_KEPT} WHERE ${DOCUMENT}`)
    .bind(crawlId)
    .first<{ n: number }>();
  return row?.n ?? 0;
}
