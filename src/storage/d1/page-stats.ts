import { perInterval } from './sql';

// Aggregates of a crawl's pages for the stats endpoint and the dashboard.

export interface CrawlActivity {
  /** First and last page fetched from the site, epoch ms (null before the first). */
  firstAt: number | null;
  lastAt: number | null;
  /** Pages fetched at or after `since`. */
  recent: number;
  /** Pages stored from the page cache (maxAge), not fetched: left out of the times and rates. */
  cached: number;
}

export async function crawlActivity(db: D1Database, crawlId: string, since: number): Promise<CrawlActivity> {
  const fetched = (value: string) => `CASE WHEN cached_from IS NULL THEN ${value} END`;
  const row = await db
    .prepare(
      `SELECT MIN(${fetched('fetched_at')}) AS first_at, MAX(${fetched('fetched_at')}) AS last_at,
       SUM(${fetched('fetched_at >= ?')}) AS recent, SUM(cached_from IS NOT NULL) AS cached FROM pages WHERE crawl_id = ?`,
    )
    .bind(since, crawlId)
    .first<{ first_at: number | null; last_at: number | null; recent: number | null; cached: number | null }>();
  return {
    firstAt: row?.first_at ?? null,
    lastAt: row?.last_at ?? null,
    recent: row?.recent ?? 0,
    cached: row?.cached ?? 0,
  };
}

/** Pages fetched from the site per interval (interval start, epoch ms); those from the page cache are not. */
export async function pageSeries(
  db: D1Database,
  crawlId: string,
  seconds: number,
): Promise<{ at: number; fetched: number }[]> {
  const counted = await perInterval(
    db,
    { column: 'fetched_at', from: 'pages WHERE crawl_id = ? AND cached_from IS NULL' },
    crawlId,
    seconds,
  );
  return counted.map(({ at, n }) => ({ at, fetched: n }));
}

/** Pages by HTTP status. */
export async function statusBreakdown(db: D1Database, crawlId: string): Promise<{ status: number; count: number }[]> {
  const { results } = await db
    .prepare('SELECT status, COUNT(*) AS count FROM pages WHERE crawl_id = ? GROUP BY status ORDER BY status')
    .bind(crawlId)
    .all<{ status: number; count: number }>();
  return results;
}

// The authority of an absolute URL: what lies between "://" and the next "/".
const AUTHORITY =
  "substr(substr(url, instr(url, '://') + 3), 1, instr(substr(url, instr(url, '://') + 3) || '/', '/') - 1)";
// The host name of an authority `a` (as hostKey in domain/url/normalize.ts): no user info, no port, "[…]" kept whole.
const HOST_NAME = `lower(CASE WHEN h LIKE '[%' THEN substr(h, 1, instr(h, ']')) WHEN instr(h, ':') > 0
  THEN substr(h, 1, instr(h, ':') - 1) ELSE h END)`;

/**
 * Pages by host name, most first: one row per host name whatever its ports and schemes, named as the host gate
 * (one per host name) and GET /v1/crawls/:id/hosts name it.
 */
export async function hostBreakdown(
  db: D1Database,
  crawlId: string,
  limit: number,
): Promise<{ host: string; pages: number }[]> {
  const { results } = await db
    .prepare(
      `SELECT ${HOST_NAME} AS host, COUNT(*) AS pages
       FROM (SELECT substr(a, instr(a, '@') + 1) AS h FROM (SELECT ${AUTHORITY} AS a FROM pages WHERE crawl_id = ?))
       GROUP BY host ORDER BY pages DESC, host LIMIT ?`,
    )
    .bind(crawlId, limit)
    .all<{ host: string; pages: number }>();
  return results;
}
