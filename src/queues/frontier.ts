import { compilePattern } from '../domain/patterns';
import type { CrawlConfig, CrawlTask, FrontierEntry } from '../types';

/** Queues accept at most 100 messages per sendBatch. */
const SEND_BATCH = 100;

/** The two frontier queues. Both are consumed; work on the high one does not wait behind the other's backlog. */
export interface Frontiers {
  FRONTIER: Queue;
  FRONTIER_HIGH: Queue;
}

/**
 * Which queue a URL goes to: every URL of a high-priority crawl, and, in any crawl, its hubs: sitemaps
 * and URLs matching the crawl's `boost` patterns (category and index pages, say).
 */
export function highPriority(config: Pick<CrawlConfig, 'priority' | 'boost'>): (entry: FrontierEntry) => boolean {
  const boosts = (config.boost ?? []).map(compilePattern);
  return (entry) => config.priority === 'high' || entry.kind === 'sitemap' || boosts.some((matches) => matches(entry.url));
}

export function taskBody(crawlId: string, e: FrontierEntry): CrawlTask {
  return { crawlId, url: e.url, depth: e.depth, hops: e.hops, ...(e.kind === 'sitemap' ? { kind: 'sitemap' as const } : {}) };
}

async function send(queue: Queue, crawlId: string, entries: readonly FrontierEntry[], delaySeconds?: number): Promise<void> {
  for (let i = 0; i < entries.length; i += SEND_BATCH) {
    await queue.sendBatch(
      entries.slice(i, i + SEND_BATCH).map((e) => ({ body: taskBody(crawlId, e), contentType: 'json' as const, ...(delaySeconds ? { delaySeconds } : {}) })),
    );
  }
}

/** Sends frontier entries to their queues (optionally delayed). */
export async function enqueueTasks(
  queues: Frontiers,
  crawlId: string,
  config: Pick<CrawlConfig, 'priority' | 'boost'>,
  entries: readonly FrontierEntry[],
  delaySeconds?: number,
): Promise<void> {
  const isHigh = highPriority(config);
  const high = entries.filter(isHigh);
  const normal = entries.filter((e) => !isHigh(e));
  await Promise.all([send(queues.FRONTIER_HIGH, crawlId, high, delaySeconds), send(queues.FRONTIER, crawlId, normal, delaySeconds)]);
}
