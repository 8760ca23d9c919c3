/** Aggregates of a crawl's pages and errors for the stats endpoint and the dashboard. */

export interface CrawlActivity {
  /** First and last page fetched, epoch ms (null before the first). */
  firstAt: number | null;
  lastAt: number | null;
  /** Pages fetched at or after `since`. */
  recent: number;
}

export async function crawlActivity(db: D1Database, crawlId: string, since: number): Promise<CrawlActivity> {
  const row = await db
    .prepare('SELECT MIN(fetched_at) AS first_at, MAX(fetched_at) AS last_at, SUM(fetched_at >= ?) AS recent FROM pages WHERE crawl_id = ?')
    .bind(since, crawlId)
    .first<{ first_at: number | null; last_at: number | null; recent: number | null }>();
  return { firstAt: row?.first_at ?? null, lastAt: row?.last_at ?? null, recent: row?.recent ?? 0 };
}

/** Pages fetched and URLs failed per interval (bucket start, epoch ms). */
export async function activitySeries(db: D1Database, crawlId: string, intervalSeconds: number): Promise<{ at: number; fetched?: number; failed?: number }[]> {
  const step = intervalSeconds * 1000;
  // D1 binds numbers as REAL: cast, or the division is not a whole number of intervals.
  const bucket = (column: string) => `(${column} / CAST(? AS INTEGER)) * CAST(? AS INTEGER)`;
  const [pages, errors] = await db.batch<{ at: number; n: number }>([
    db.prepare(`SELECT ${bucket('fetched_at')} AS at, COUNT(*) AS n FROM pages WHERE crawl_id = ? GROUP BY 1`).bind(step, step, crawlId),
    db.prepare(`SELECT ${bucket('at')} AS at, COUNT(*) AS n FROM errors WHERE crawl_id = ? AND outcome = 'failed' GROUP BY 1`).bind(step, step, crawlId),
  ]);
  return [...(pages?.results ?? []).map((r) => ({ at: r.at, fetched: r.n })), ...(errors?.results ?? []).map((r) => ({ at: r.at, failed: r.n }))];
}

export interface Breakdowns {
  statuses: { status: number; count: number }[];
  errors: { outcome: 'failed' | 'skipped'; reason: string; count: number }[];
  /** Hosts (with port) by pages fetched, most first. */
  hosts: { host: string; pages: number }[];
}

// The authority of an absolute URL: what lies between "://" and the next "/".
const AUTHORITY = "substr(substr(url, instr(url, '://') + 3), 1, instr(substr(url, instr(url, '://') + 3) || '/', '/') - 1)";
const hostsQuery = (db: D1Database, crawlId: string, limit: number) =>
  db.prepare(`SELECT ${AUTHORITY} AS host, COUNT(*) AS pages FROM pages WHERE crawl_id = ? GROUP BY host ORDER BY pages DESC, host LIMIT ?`).bind(crawlId, limit);

/** Pages by host (with port), most first. */
export async function hostBreakdown(db: D1Database, crawlId: string, limit: number): Promise<Breakdowns['hosts']> {
  return (await hostsQuery(db, crawlId, limit).all<Breakdowns['hosts'][number]>()).results;
}

/** Pages by HTTP status, errors by reason, pages by host. */
export async function breakdowns(db: D1Database, crawlId: string, limit = 50): Promise<Breakdowns> {
  const [statuses, errors, hosts] = await db.batch([
    db.prepare('SELECT status, COUNT(*) AS count FROM pages WHERE crawl_id = ? GROUP BY status ORDER BY status').bind(crawlId),
    db.prepare('SELECT outcome, reason, COUNT(*) AS count FROM errors WHERE crawl_id = ? GROUP BY outcome, reason ORDER BY count DESC, reason LIMIT ?').bind(crawlId, limit),
    hostsQuery(db, crawlId, limit),
  ]);
  return {
    statuses: (statuses?.results ?? []) as Breakdowns['statuses'],
    errors: (errors?.results ?? []) as Breakdowns['errors'],
    hosts: (hosts?.results ?? []) as Breakdowns['hosts'],
  };
}
