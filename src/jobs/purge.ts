import { freshSince, MAX_CACHE_AGE_SECONDS, SCRAPE_CRAWL_ID } from '../domain/crawl/page-cache';
import { log } from '../log';
import { type CrawlRow, expireCrawls, purgingCrawls } from '../storage/d1/crawls';
import { expireAnswers } from '../storage/d1/model-answers';
import { deletePagesBefore } from '../storage/d1/page-cache';
import {
  deleteCrawlRow,
  deleteCrawlRows,
  keysReferencedBySchedule,
  recrawlRunning,
  retainedObjects,
  setRetained,
} from '../storage/d1/purge';
import { deleteCrawlObjects, deleteObjects } from '../storage/purge-objects';
import { deleteSegmentsBefore } from '../storage/segments';

/**
 * A purged crawl's row is removed this long after the purge was asked for, after a last pass: a consumer that
 * claimed pages before the purge may still write them (its lease runs three minutes, its fetches less).
 */
const PURGE_SETTLE_MS = 10 * 60_000;
/** How much one pass deletes: R2 listing pages of 1,000 objects, D1 statements of 5,000 rows. */
const PASS = { objectPages: 20, rowSteps: 40 };
/** Crawls one cron run carries on purging. */
const PURGES_PER_RUN = 5;

export interface PurgeProgress {
  /** Nothing of the crawl is left in R2, D1 or its Durable Object (its row too, once `removed`). */
  done: boolean;
  removed: boolean;
}

/**
 * One pass of a crawl's purge (requestPurge first): its Durable Object's storage, its R2 objects (but those later
 * crawls of its schedule still point at, which are kept for the schedule until none does), its D1 rows, and, once
 * everything is gone and PURGE_SETTLE_MS has passed, its row. While a recrawl of it runs, only its Durable Object
 * goes. Idempotent; the cron trigger runs passes until done.
 */
export async function purgeCrawl(env: Env, crawl: CrawlRow, now: number): Promise<PurgeProgress> {
  await env.CRAWL.getByName(crawl.id).purge();
  // A running recrawl of it reads its pages, bodies and links (conditional requests, unchanged pages): wait for it.
  if (await recrawlRunning(env.DB, crawl.id)) return { done: false, removed: false };
  const keep = crawl.scheduleId
    ? await keysReferencedBySchedule(env.DB, crawl.scheduleId, crawl.id)
    : new Set<string>();
  const objects = await deleteCrawlObjects(env.BODIES, crawl.id, keep, PASS.objectPages);
  if (crawl.scheduleId) await releaseRetained(env, crawl.scheduleId, keep, objects.kept);
  const rows = await deleteCrawlRows(env.DB, crawl.id, PASS.rowSteps);
  const done = objects.done && rows;
  if (done && now - (crawl.purgeRequestedAt ?? now) >= PURGE_SETTLE_MS) {
    await deleteCrawlRow(env.DB, crawl.id);
    return { done, removed: true };
  }
  return { done, removed: false };
}

/** Objects kept for the schedule that no live crawl of it points at any more are deleted; `kept` are added. */
async function releaseRetained(
  env: Env,
  scheduleId: string,
  keep: ReadonlySet<string>,
  kept: readonly string[],
): Promise<void> {
  const free = (await retainedObjects(env.DB, scheduleId)).filter((key) => !keep.has(key));
  await deleteObjects(env.BODIES, free);
  await setRetained(env.DB, scheduleId, kept, free);
}

/**
 * Scrapes' stored pages (the page cache's, SCRAPE_CRAWL_ID) older than the longest maxAge are deleted, rows then
 * segments (a row is never left pointing at a deleted segment), a pass a cron run. Returns whether none is left.
 */
export async function expireScrapedPages(env: Env, now: number): Promise<boolean> {
  const before = freshSince(now, MAX_CACHE_AGE_SECONDS);
  const rows = await deletePagesBefore(env.DB, SCRAPE_CRAWL_ID, before, PASS.rowSteps);
  const objects = await deleteSegmentsBefore(env.BODIES, SCRAPE_CRAWL_ID, before, PASS.objectPages);
  return rows && objects;
}

/**
 * The model's answers are kept this long for reuse (a weekly or monthly recrawl finds them), then asked again: the cache
 * must not grow D1 (10 GB) without end. A cron run deletes at most this many.
 */
const MODEL_ANSWER_DAYS = 180;
const MODEL_ANSWERS_PER_RUN = 5000;

/**
 * Cron housekeeping: crawls past their retention are marked for purging, purges under way go on, and scrapes' stored
 * pages past the longest maxAge go.
 */
export async function runHousekeeping(env: Env, now: number): Promise<void> {
  try {
    await expireScrapedPages(env, now);
    await expireAnswers(env.DB, now - MODEL_ANSWER_DAYS * 86_400_000, MODEL_ANSWERS_PER_RUN);
  } catch (error) {
    log('error', "deleting scrapes' expired pages or old model answers failed; the next cron run goes on", {
      error: String(error),
    });
  }
  const expired = await expireCrawls(env.DB, now);
  if (expired > 0) log('info', 'crawls past their retention marked for purging', { count: expired });
  for (const crawl of await purgingCrawls(env.DB, PURGES_PER_RUN)) {
    try {
      const progress = await purgeCrawl(env, crawl, now);
      log('info', 'purge pass', { crawlId: crawl.id, ...progress });
    } catch (error) {
      log('error', 'purge pass failed; the next cron run goes on', { crawlId: crawl.id, error: String(error) });
    }
  }
}
