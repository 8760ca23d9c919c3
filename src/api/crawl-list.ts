import type { ChangeCounts } from '../domain/crawl/reach';
import type { CrawlRow } from '../storage/d1/crawls';
import type { CrawlSummary } from '../types';
import { changeCountsFor } from './recrawl';

/** Crawls of one list answer whose Durable Object is asked live: a Worker invocation's subrequests are limited. */
const MAX_LIVE = 100;

/** Whether D1's summary of the crawl is final: it ended, and nothing of it was pending (a cancel settles later). */
const settled = (row: CrawlRow): boolean =>
  row.status !== 'running' && row.summary !== null && row.summary.pending === 0;

/**
 * What each listed crawl came to. An ended crawl's summary is the one D1 holds (its object wrote it with its last
 * status, and again until nothing was pending); a running crawl, one cancelled whose summary still counts URLs
 * pending, or one ended before summaries were kept, is asked live: one Durable Object call each, in parallel, for the
 * first MAX_LIVE of them (the rest show D1's, as of their last sync).
 */
export async function summariesOf(env: Env, rows: readonly CrawlRow[]): Promise<(CrawlSummary | null)[]> {
  let live = 0;
  return Promise.all(
    rows.map(async (row) => {
      if (settled(row) || live >= MAX_LIVE) return row.summary;
      live += 1;
      return env.CRAWL.getByName(row.id)
        .summary()
        .catch(() => row.summary);
    }),
  );
}

/**
 * Each listed recrawl's pages by kind (a schedule's runs, a crawl with previousCrawlId; null for the others): as
 * counted when it ended, kept with its summary; a running one's (or one ended before counts were kept) counted now,
 * one D1 query each for the first MAX_LIVE of them.
 */
export async function changesOf(env: Env, rows: readonly CrawlRow[]): Promise<(ChangeCounts | null)[]> {
  let live = 0;
  return Promise.all(
    rows.map(async (row) => {
      if (row.config.recrawlOf === undefined) return null;
      const kept = row.status === 'running' ? undefined : row.summary?.changes;
      if ((kept && !kept.provisional) || live >= MAX_LIVE) return kept ?? null;
      live += 1;
      return changeCountsFor(env, row);
    }),
  );
}

/** One crawl of the list, with its counts, changes, rate and cost when known. */
export function listItem(row: CrawlRow, summary: CrawlSummary | null, changes: ChangeCounts | null, now: number) {
  const seconds = ((row.finishedAt ?? now) - row.createdAt) / 1000;
  return {
    id: row.id,
    status: row.status,
    seeds: row.config.seeds,
    createdAt: new Date(row.createdAt).toISOString(),
    finishedAt: row.finishedAt === null ? null : new Date(row.finishedAt).toISOString(),
    scheduleId: row.scheduleId,
    counts: summary?.counts ?? null,
    changes,
    pending: summary?.pending ?? null,
    pagesPerSecond: summary && seconds > 0 ? Math.round((summary.counts.fetched / seconds) * 100) / 100 : null,
    usd: summary?.usd ?? null,
  };
}
