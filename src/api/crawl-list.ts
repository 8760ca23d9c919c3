import type { CrawlRow } from '../storage/d1/crawls';
import type { CrawlSummary } from '../types';

/** Crawls of one list answer whose Durable Object is asked live: a Worker invocation's subrequests are limited. */
const MAX_LIVE = 100;

/**
 * What each listed crawl came to. An ended crawl's summary is the one D1 holds (its object wrote it with its last
 * status); a running crawl, or one ended before summaries were kept, is asked live: one Durable Object call each, in
 * parallel, for the first MAX_LIVE of them (the rest show D1's, as of their last change of status).
 */
export async function summariesOf(env: Env, rows: readonly CrawlRow[]): Promise<(CrawlSummary | null)[]> {
  let live = 0;
  return Promise.all(
    rows.map(async (row) => {
      if ((row.status !== 'running' && row.summary !== null) || live >= MAX_LIVE) return row.summary;
      live += 1;
      return env.CRAWL.getByName(row.id)
        .summary()
        .catch(() => row.summary);
    }),
  );
}

/** One crawl of the list, with its counts, rate and cost when known. */
export function listItem(row: CrawlRow, summary: CrawlSummary | null, now: number) {
  const seconds = ((row.finishedAt ?? now) - row.createdAt) / 1000;
  return {
    id: row.id,
    status: row.status,
    seeds: row.config.seeds,
    createdAt: new Date(row.createdAt).toISOString(),
    finishedAt: row.finishedAt === null ? null : new Date(row.finishedAt).toISOString(),
    scheduleId: row.scheduleId,
    counts: summary?.counts ?? null,
    pending: summary?.pending ?? null,
    pagesPerSecond: summary && seconds > 0 ? Math.round((summary.counts.fetched / seconds) * 100) / 100 : null,
    usd: summary?.usd ?? null,
  };
}
