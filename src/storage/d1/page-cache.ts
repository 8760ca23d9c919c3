import { SCRAPE_CRAWL_ID } from '../../domain/crawl/page-cache';
import type { UsageMeter } from '../../domain/crawl/usage';
import type { Span } from '../../types';
import { columnsOf, type PageOf, readPage } from './page-rows';
import { chunkedIn } from './sql';

const CACHED = [
  'url',
  'status',
  'contentType',
  'fetchedAt',
  'bodyAt',
  'etag',
  'lastModified',
  'rendered',
  'fetchedBodyAt',
  'wordCount',
] as const;

/** A stored 2xx page the cache can serve: what it was fetched with, where its body is, and whose it is. */
export type CachedPage = PageOf<(typeof CACHED)[number]> & { bodyAt: Span; crawlId: string };

function toCachedPage(row: Record<string, unknown>): CachedPage[] {
  const page = readPage(row, CACHED);
  const { bodyAt } = page;
  const crawlId = row.crawl_id;
  return bodyAt && typeof crawlId === 'string' ? [{ ...page, bodyAt, crawlId }] : [];
}

/**
 * A crawl's consumers may record pages a while after it ended (fetches under way finish; a lease runs three minutes):
 * a crawl that ended this long before the window still has its pages looked at.
 */
const LATE_WRITES_MS = 5 * 60_000;

/**
 * Of `urls`, the freshest stored 2xx body of each fetched at or after `since` (epoch ms), by any crawl or scrape but
 * `exceptCrawl` and crawls that fetched with credentials (a scrape with credentials stores nothing). No index of its own (an index on pages would be a row written per page stored, by every crawl): the
 * crawls that ran within the window (crawls_finished) and the scrapes' pseudo-crawl, then a primary-key probe of
 * (crawl, url) for each of them and each URL, up to 100 URLs a statement.
 */
export async function freshPages(
  db: D1Database,
  urls: readonly string[],
  since: number,
  { exceptCrawl = '', meter }: { exceptCrawl?: string; meter?: UsageMeter } = {},
): Promise<Map<string, CachedPage>> {
  const statements = chunkedIn(
    db,
    `SELECT crawl_id, ${columnsOf(CACHED)} FROM pages
     WHERE crawl_id IN (
       SELECT id FROM crawls
       WHERE (finished_at IS NULL OR finished_at >= ?) AND purge_requested_at IS NULL AND id != ? AND credentialed = 0
       UNION ALL SELECT ?
     ) AND fetched_at >= ? AND r2_key IS NOT NULL AND status BETWEEN 200 AND 299 AND url IN ({in})`,
    [since - LATE_WRITES_MS, exceptCrawl, SCRAPE_CRAWL_ID, since],
    [...new Set(urls)],
  );
  const out = new Map<string, CachedPage>();
  for (const statement of statements) {
    const result = await statement.all();
    meter?.d1([result]);
    for (const page of result.results.flatMap(toCachedPage)) {
      const known = out.get(page.url);
      if (!known || known.fetchedAt < page.fetchedAt) out.set(page.url, page);
    }
  }
  return out;
}

/** Rows deleted per statement of the housekeeping of scrapes' pages. */
const DELETE_STEP = 1000;

/**
 * Deletes the pages `crawlId` (the scrapes') fetched before `before` (epoch ms), a step at a time, `steps` at most;
 * true once none is left.
 */
export async function deletePagesBefore(
  db: D1Database,
  crawlId: string,
  before: number,
  steps: number,
): Promise<boolean> {
  for (let step = 0; step < steps; step++) {
    const result = await db
      .prepare(
        `DELETE FROM pages WHERE crawl_id = ?1 AND url IN
         (SELECT url FROM pages WHERE crawl_id = ?1 AND fetched_at < ?2 LIMIT ?3)`,
      )
      .bind(crawlId, before, DELETE_STEP)
      .run();
    if (result.meta.changes < DELETE_STEP) return true;
  }
  return false;
}
