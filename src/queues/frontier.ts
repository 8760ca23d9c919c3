import { z } from 'zod';
import type { UsageMeter } from '../domain/crawl/usage';
import { dueDelaySeconds } from '../domain/politeness/spread';
import { compilePattern } from '../domain/url/patterns';
import type { CrawlConfig, CrawlTask, FrontierEntry } from '../types';

/** Queues accept at most 100 messages per sendBatch. */
export const QUEUE_SEND_BATCH = 100;

/** A frontier message's body, as the frontier and dead-letter consumers read it. */
export const taskSchema = z.object({
  crawlId: z.string().min(1).max(64),
  url: z.string().min(1).max(8192),
  depth: z.number().int().min(0),
  hops: z.number().int().min(0).default(0),
  kind: z.enum(['page', 'sitemap']).optional(),
}) satisfies z.ZodType<CrawlTask>;

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
  return (entry) =>
    config.priority === 'high' || entry.kind === 'sitemap' || boosts.some((matches) => matches(entry.url));
}

/** A frontier entry of a crawl as a message body (and the entry of a task). */
function taskBody(crawlId: string, e: FrontierEntry): CrawlTask {
  return {
    crawlId,
    url: e.url,
    depth: e.depth,
    hops: e.hops,
    ...(e.kind === 'sitemap' ? { kind: 'sitemap' as const } : {}),
  };
}

async function send(
  queue: Queue,
  crawlId: string,
  entries: readonly FrontierEntry[],
  delaySeconds?: number,
  meter?: UsageMeter,
): Promise<void> {
  for (let i = 0; i < entries.length; i += QUEUE_SEND_BATCH) {
    const slice = entries.slice(i, i + QUEUE_SEND_BATCH);
    const now = Date.now();
    await queue.sendBatch(
      slice.map((e) => {
        // An entry due later (its host's pace, domain/politeness/spread.ts) waits until then, whatever the batch's delay.
        const delay = Math.max(delaySeconds ?? 0, dueDelaySeconds(e.dueAt, now));
        return { body: taskBody(crawlId, e), contentType: 'json' as const, ...(delay ? { delaySeconds: delay } : {}) };
      }),
    );
    // One operation per message: a task's body is far below the 64 KB an operation covers.
    meter?.count('queueOperations', slice.length);
  }
}

/** Sends frontier entries to their queues (optionally delayed; an entry with `dueAt`, until then at least). */
export async function enqueueTasks(
  queues: Frontiers,
  crawlId: string,
  config: Pick<CrawlConfig, 'priority' | 'boost'>,
  entries: readonly FrontierEntry[],
  delaySeconds?: number,
  meter?: UsageMeter,
): Promise<void> {
  const isHigh = highPriority(config);
  const high = entries.filter(isHigh);
  const normal = entries.filter((e) => !isHigh(e));
  await Promise.all([
    send(queues.FRONTIER_HIGH, crawlId, high, delaySeconds, meter),
    send(queues.FRONTIER, crawlId, normal, delaySeconds, meter),
  ]);
}
