import { columnsOf, type PageOf, readPage } from './page-rows';

// A crawl's stored pages that are Firecrawl's documents (src/storage/firecrawl-pages.ts reads their records).

const FIELDS = [
  'url',
  'status',
  'contentType',
  'title',
  'fetchedAt',
  'cachedFrom',
  'bodyAt',
  'recordAt',
  'screenshotAt',
] as const;
export type DocumentRow = PageOf<(typeof FIELDS)[number]>;

/**
 * A stored page with a body of its own (a duplicate's content is its kept page's document), and not a sitemap the crawl
 * read for its URLs (XML, gzip; XHTML is a page).
 */
const DOCUMENT = `crawl_id = ? AND r2_key IS NOT NULL AND duplicate_of IS NULL AND (content_type IS NULL OR (
  content_type NOT LIKE 'application/xml%' AND content_type NOT LIKE 'text/xml%' AND content_type NOT LIKE '%gzip%'))`;

/** Where a page of documents starts: after a URL (keyset, stable while a crawl runs), or a count of them. */
export type DocumentsFrom = { afterUrl: string } | { skip: number };

export async function documentRows(
  db: D1Database,
  crawlId: string,
  from: DocumentsFrom,
  limit: number,
): Promise<DocumentRow[]> {
  const select = `SELECT ${columnsOf(FIELDS)} FROM pages WHERE ${DOCUMENT}`;
  const statement =
    'afterUrl' in from
      ? db.prepare(`${select} AND url > ? ORDER BY url LIMIT ?`).bind(crawlId, from.afterUrl, limit)
      : db.prepare(`${select} ORDER BY url LIMIT ? OFFSET ?`).bind(crawlId, limit, from.skip);
  return (await statement.all()).results.map((row) => readPage(row, FIELDS));
}

/** The document rows of some of a crawl's pages, by URL; pages not stored are left out. */
export async function documentRowsOf(db: D1Database, crawlId: string, urls: readonly string[]): Promise<DocumentRow[]> {
  if (urls.length === 0) return [];
  const marks = urls.map(() => '?').join(', ');
  const sql = `SELECT ${columnsOf(FIELDS)} FROM pages WHERE ${DOCUMENT} AND url IN (${marks})`;
  return (
    await db
      .prepare(sql)
      .bind(crawlId, ...urls)
      .all()
  ).results.map((row) => readPage(row, FIELDS));
}

/** How many documents a crawl has (its stored pages, duplicates and sitemaps left out). */
export async function countDocuments(db: D1Database, crawlId: string): Promise<number> {
  const row = await db
    .prepare(`SELECT COUNT(*) AS n FROM pages WHERE ${DOCUMENT}`)
    .bind(crawlId)
    .first<{ n: number }>();
  return row?.n ?? 0;
}
