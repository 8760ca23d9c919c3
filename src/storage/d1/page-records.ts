import { keptColumns, ownColumns, WITH_KEPT } from './kept-join';
import { type KeysetPage, rowsAfter } from './page-keyset';
import { columnsOf, type PageOf, readPage } from './page-rows';
import { LISTED, type PageView, toPageView } from './page-views';

// The page records exports write (CSV, JSON, llms-full.txt), read in URL order a keyset page at a time.

/** A page as exports write it: the listing's fields and the rest a user may want, none of the storage internals. */
export interface ExportRecord extends PageView, PageOf<'redirectTo' | 'etag' | 'lastModified' | 'change'> {
  stored: boolean;
}

/** The export's columns, in order (CSV header and JSON key order). */
export const PAGE_RECORD_FIELDS = [
  'url',
  'status',
  'contentType',
  'title',
  'depth',
  'bytes',
  'fetchedAt',
  'rendered',
  'redirectTo',
  'etag',
  'lastModified',
  'change',
  'cachedFrom',
  'duplicateOf',
  'duplicateReason',
  'similarity',
  'stored',
] as const satisfies readonly (keyof ExportRecord)[];

/** What exports read of a page besides its record's fields: the extraction facts, and where the extraction record is. */
const EXTRACTION = ['contentHash', 'description', 'language', 'wordCount', 'warnings', 'recordAt'] as const;
// wordCount is a listed field already: selected once.
export const EXPORTED = [
  ...LISTED,
  ...(['redirectTo', 'etag', 'lastModified', 'change', 'bodyAt', 'contentHash', 'description'] as const),
  ...(['language', 'warnings', 'recordAt'] as const),
] as const;

/** A page row as exports read it: the export's fields, the extraction facts, and where the page's record is. */
export type ExportRow = ExportRecord & PageOf<(typeof EXTRACTION)[number]>;

export function toExportRow(row: Record<string, unknown>): ExportRow {
  const p = readPage(row, EXPORTED);
  return {
    ...toPageView(p),
    redirectTo: p.redirectTo,
    etag: p.etag,
    lastModified: p.lastModified,
    change: p.change,
    stored: p.bodyAt !== null,
    contentHash: p.contentHash,
    description: p.description,
    language: p.language,
    wordCount: p.wordCount,
    warnings: p.warnings,
    recordAt: p.recordAt,
  };
}

/** Page rows in URL order after `afterUrl` (keyset, so an export is stable while the crawl goes on). */
export async function pageRecords(db: D1Database, page: KeysetPage): Promise<ExportRow[]> {
  return (await rowsAfter(db, columnsOf(EXPORTED), 'crawl_id = ?', page)).map(toExportRow);
}

const OWN = EXPORTED.filter((f) => f !== 'recordAt');
const SELECT_WITH_KEPT = `SELECT ${ownColumns(OWN)}, ${keptColumns(['recordAt'])} FROM ${WITH_KEPT}`;

/**
 * pageRecords, a duplicate's `recordAt` its kept page's (kept-join.ts): what a per-URL export (JSONL, CSV) reads as
 * its content. Its own fields are its own (`stored` false, `duplicateOf`). One row read more per duplicate.
 */
export async function pageRecordsWithKept(db: D1Database, page: KeysetPage): Promise<ExportRow[]> {
  const sql = `${SELECT_WITH_KEPT} WHERE p.crawl_id = ? AND p.url > ? ORDER BY p.url LIMIT ?`;
  const { results } = await db.prepare(sql).bind(page.crawlId, page.afterUrl, page.limit).all();
  return results.map(toExportRow);
}
