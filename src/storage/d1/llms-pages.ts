import { type KeysetPage, rowsAfter } from './page-keyset';
import { EXPORTED, type ExportRow, toExportRow } from './page-records';
import { columnsOf, readPage } from './page-rows';

// The pages llms.txt and llms-full.txt list.

/** A page llms.txt lists, as SQL: stored (a body in R2), and HTML or PDF. */
const LISTED_IN_LLMS = "r2_key IS NOT NULL AND (content_type LIKE '%html%' OR content_type LIKE '%pdf%')";

/** The URLs of the pages llms.txt lists, in URL order after `afterUrl` (nothing else of them: a planning pass). */
export async function llmsUrls(db: D1Database, page: KeysetPage): Promise<string[]> {
  const rows = await rowsAfter(db, 'url', `crawl_id = ? AND ${LISTED_IN_LLMS}`, page);
  return rows.map((row) => readPage(row, ['url']).url);
}

/** Whether the crawl has a page llms-full.txt can write: listed, with an extraction record (the first found). */
export async function hasLlmsRecord(db: D1Database, crawlId: string): Promise<boolean> {
  const sql = `SELECT 1 AS found FROM pages WHERE crawl_id = ? AND ${LISTED_IN_LLMS} AND record_key IS NOT NULL LIMIT 1`;
  return (await db.prepare(sql).bind(crawlId).first()) !== null;
}

/** Page rows in URL order after `afterUrl` within any of `ranges` (inclusive), for the pages llms.txt lists. */
export async function llmsRecordsIn(
  db: D1Database,
  page: KeysetPage,
  ranges: readonly { from: string; to: string }[],
): Promise<ExportRow[]> {
  if (ranges.length === 0) return [];
  const within = ranges.map(() => 'url BETWEEN ? AND ?').join(' OR ');
  const sql = `SELECT ${columnsOf(EXPORTED)} FROM pages WHERE crawl_id = ? AND ${LISTED_IN_LLMS} AND url > ?
    AND (${within}) ORDER BY url LIMIT ?`;
  const bounds = ranges.flatMap((r) => [r.from, r.to]);
  const { results } = await db
    .prepare(sql)
    .bind(page.crawlId, page.afterUrl, ...bounds, page.limit)
    .all();
  return results.map(toExportRow);
}
