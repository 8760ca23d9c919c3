import { UsageMeter } from '../domain/usage';
import { log } from '../log';
import { reportUsage } from '../objects/crawl-usage';
import { enqueueTasks } from '../queues/frontier';
import { deleteCrawl, insertCrawl } from '../storage/d1/crawls';
import type { CrawlConfig, FrontierEntry } from '../types';

export class CrawlStartError extends Error {}

/**
 * Starts a crawl: its job row in D1, its Durable Object with the seeds, the seeds' messages.
 * Used by POST /v1/crawls and by the scheduler.
 */
export async function startCrawl(env: Env, config: CrawlConfig, origin: { scheduleId?: string } = {}): Promise<string> {
  const id = crypto.randomUUID();
  const meter = new UsageMeter();
  await insertCrawl(env.DB, id, config, Date.now(), origin.scheduleId ?? null, meter);
  const stub = env.CRAWL.getByName(id);
  let seeds: FrontierEntry[];
  try {
    seeds = await stub.start(id, config);
  } catch (error) {
    // No crawl state exists: remove the job row so nothing half-made is listed.
    await deleteCrawl(env.DB, id).catch(() => undefined);
    log('error', 'crawl start failed', { crawlId: id, error: String(error) });
    throw new CrawlStartError('could not start the crawl; try again');
  }
  // If this send fails the seeds stay queued in the Durable Object and its sweeper re-sends them.
  await enqueueTasks(env, id, config, seeds, undefined, meter);
  await reportUsage(env.CRAWL, id, meter);
  return id;
}
