import type { UsageMeter } from '../../domain/crawl/usage';
import { columnsOf, type PageOf, readPage } from './page-rows';
import { chunkedIn } from './sql';

// Where a page's stored parts are: one page's, for the API (its record, links, diff), and those of pages a consumer
// recorded before the crawl's coordinator heard of them.

const STORED = [
  'url',
  'status',
  'fetchedAt',
  'contentType',
  'bodyAt',
  'recordAt',
  'linksAt',
  'rendered',
  'fetchedBodyAt',
  'screenshotAt',
  'exchangeAt',
  'cachedFrom',
  'duplicateOf',
] as const;

/** A page's stored body, record and links, what its record is reported with, and the page a duplicate's are under. */
export type StoredPageRow = PageOf<(typeof STORED)[number]>;

export async function getStoredPage(db: D1Database, crawlId: string, url: string): Promise<StoredPageRow | null> {
  const row = await db
    .prepare(`SELECT ${columnsOf(STORED)} FROM pages WHERE crawl_id = ? AND url = ?`)
    .bind(crawlId, url)
    .first();
  return row ? readPage(row, STORED) : null;
}

const RECORDED = ['url', 'depth', 'bodyAt', 'linksAt'] as const;

/** A page a crawl stored: where its links are, to follow them. */
export type RecordedPage = PageOf<(typeof RECORDED)[number]>;

/**
 * Of `urls`, the pages the crawl stored (a body in R2): what a consumer recorded before the crawl's coordinator heard
 * of it (the consumer died in between).
 */
export async function recordedPages(
  db: D1Database,
  crawlId: string,
  urls: readonly string[],
  meter?: UsageMeter,
): Promise<RecordedPage[]> {
  const statements = chunkedIn(
    db,
    `SELECT ${columnsOf(RECORDED)} FROM pages WHERE crawl_id = ? AND r2_key IS NOT NULL AND url IN ({in})`,
    [crawlId],
    urls,
  );
  const out: RecordedPage[] = [];
  for (const statement of statements) {
    const result = await statement.all();
    meter?.d1([result]);
    out.push(...result.results.map((row) => readPage(row, RECORDED)));
  }
  return out;
}
