import type { UsageMeter } from '../../domain/usage';
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
 * Of `urls`, the freshest stored 2xx body of each fetched at or after `since` (epoch ms), by any crawl or scrape but
 * `exceptCrawl`: one read of the partial index pages_cache (url, fetched_at) per statement of up to 100 URLs.
 */
export async function freshPages(
  db: D1Database,
  urls: readonly string[],
  since: number,
  { exceptCrawl = '', meter }: { exceptCrawl?: string; meter?: UsageMeter } = {},
): Promise<Map<string, CachedPage>> {
  const statements = chunkedIn(
    db,
    `SELECT crawl_id, ${columnsOf(CACHED)} FROM pages INDEXED BY pages_cache
     WHERE r2_key IS NOT NULL AND fetched_at >= ? AND crawl_id != ? AND status BETWEEN 200 AND 299 AND url IN ({in})`,
    [since, exceptCrawl],
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
