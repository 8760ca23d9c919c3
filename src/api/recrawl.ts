import type { ChangeCounts, Reach } from '../domain/crawl/reach';
import { type ChangeQuery, changeCounts, changeQueryOf, reachOfRow } from '../storage/d1/changes';
import type { CrawlRow } from '../storage/d1/crawls';

/**
 * How far a crawl reached, now: as its row says once it ended; a row that still says running is asked of the crawl's
 * object (it ends first, and writes the row just after: the answer must not lag behind its status).
 */
export async function reachNow(env: Env, row: Pick<CrawlRow, 'id' | 'status' | 'summary'>): Promise<Reach> {
  if (row.status !== 'running') return reachOfRow(row);
  const summary = await env.CRAWL.getByName(row.id).summary();
  return summary?.reach ?? reachOfRow(row);
}

/** A recrawl's comparison with the crawl before it (null: the crawl is not a recrawl). */
export async function changeQueryFor(env: Env, crawl: CrawlRow): Promise<ChangeQuery | null> {
  const reach = await reachNow(env, crawl);
  return changeQueryOf(env.DB, { id: crawl.id, config: crawl.config, reach }, (previous) => reachNow(env, previous));
}

/**
 * A recrawl's pages by kind: as counted when it ended (its row's summary), or counted now (running, or ended before
 * counts were kept, or counted while the crawl before it still ran). Null for a crawl that is not a recrawl.
 */
export async function changeCountsFor(env: Env, crawl: CrawlRow): Promise<ChangeCounts | null> {
  if (crawl.config.recrawlOf === undefined) return null;
  const kept = crawl.status === 'running' ? undefined : crawl.summary?.changes;
  if (kept && !kept.provisional) return kept;
  const query = await changeQueryFor(env, crawl);
  return query ? changeCounts(env.DB, query) : null;
}

/** What a crawl that is not a recrawl answers for its changes and diffs, and how to make one. */
export const NOT_A_RECRAWL =
  "the crawl is not a recrawl: changes are counted for a schedule's runs and for a crawl started with previousCrawlId (the id of an earlier crawl of the same site)";
