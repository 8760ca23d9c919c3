import type { UsageMeter } from '../../domain/crawl/usage';
import type { ExtractedPage } from '../../types';
import { type KeysetPage, rowsAfter } from './page-keyset';
import { assignmentsOf, columnsOf, readPage, valuesOf } from './page-rows';
import { type WithBody, withBody } from './stored-bodies';

// Re-extraction: the stored HTML pages of a crawl, read in URL order, and the rows set to what extraction says.

const HTML = ['url', 'contentType', 'bodyAt'] as const;

/** Where a stored HTML page's body is, for re-extraction. */
export type StoredHtmlPage = WithBody<(typeof HTML)[number]>;

const HTML_PAGES = `crawl_id = ? AND r2_key IS NOT NULL AND status BETWEEN 200 AND 299
  AND (lower(content_type) LIKE 'text/html%' OR lower(content_type) LIKE 'application/xhtml+xml%')`;

/** How many stored HTML pages the crawl has. */
export async function countHtmlPages(db: D1Database, crawlId: string): Promise<number> {
  return (
    (await db.prepare(`SELECT COUNT(*) AS n FROM pages WHERE ${HTML_PAGES}`).bind(crawlId).first<{ n: number }>())?.n ??
    0
  );
}

/** Stored HTML pages after `afterUrl`, in URL order. */
export async function htmlPagesAfter(db: D1Database, page: KeysetPage): Promise<StoredHtmlPage[]> {
  return (await rowsAfter(db, columnsOf(HTML), HTML_PAGES, page)).flatMap((row) => withBody(readPage(row, HTML)));
}

/** What extraction sets on a page's row. */
const EXTRACTED = ['title', 'description', 'language', 'wordCount', 'contentHash', 'warnings', 'recordAt'] as const;

/** Points pages at their new records and sets what extraction says of them (title, description, hash, ...). */
export async function updateExtracted(
  db: D1Database,
  crawlId: string,
  pages: readonly ExtractedPage[],
  meter?: UsageMeter,
): Promise<void> {
  const sql = `UPDATE pages SET ${assignmentsOf(EXTRACTED)} WHERE crawl_id = ? AND url = ?`;
  const statements = pages.map((p) => db.prepare(sql).bind(...valuesOf(p, EXTRACTED), crawlId, p.url));
  if (statements.length === 0) return;
  const results = await db.batch(statements);
  meter?.d1(results);
}
