import { z } from 'zod';
import { compilePattern } from '../domain/patterns';
import { reservationDelayMs } from '../domain/reservation';
import type { UsageMeter } from '../domain/usage';
import type { CrawlConfig, CrawlTask, FrontierEntry } from '../types';

/** Queues accept at most 100 messages per sendBatch. */
export const QUEUE_SEND_BATCH = 100;
/** A packed message holds at most this many URLs, and about this many bytes (a queue operation covers 64 KB). */
const PACK_MAX_TASKS = 200;
const PACK_MAX_BYTES = 48 * 1024;

const entrySchema = z.object({
  url: z.string().min(1).max(8192),
  depth: z.number().int().min(0),
  hops: z.number().int().min(0).default(0),
  kind: z.enum(['page', 'sitemap']).optional(),
  reservation: z.number().int().min(0).optional(),
}) satisfies z.ZodType<FrontierEntry>;

/** A frontier message's body, as the frontier and dead-letter consumers read it. */
export const taskSchema = entrySchema.extend({ crawlId: z.string().min(1).max(64) }) satisfies z.ZodType<CrawlTask>;

/**
 * A message carrying several URLs of a crawl: those re-queued with a reservation for the same moment (see
 * domain/reservation.ts) travel together, so that waiting for a host costs a fraction of a queue operation per URL.
 */
export const packSchema = z.object({ crawlId: z.string().min(1).max(64), tasks: z.array(entrySchema).min(1).max(PACK_MAX_TASKS) });

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

/** A frontier entry as it travels (in a task, or in a pack). */
function entryBody(e: FrontierEntry): FrontierEntry {
  return {
    url: e.url,
    depth: e.depth,
    hops: e.hops,
    ...(e.kind === 'sitemap' ? { kind: 'sitemap' as const } : {}),
    ...(e.reservation === undefined ? {} : { reservation: e.reservation }),
  };
}

type Body = CrawlTask | { crawlId: string; tasks: FrontierEntry[] };
type Outgoing = { body: Body; delaySeconds?: number };

/**
 * Entries holding a reservation, packed: those due in the same window (see reservationDelayMs, counted from now,
 * when they are sent) go in one message, delayed until then.
 */
function packed(crawlId: string, entries: readonly FrontierEntry[], now: number): Outgoing[] {
  const windows = new Map<number, FrontierEntry[][]>();
  for (const entry of entries) {
    const delay = Math.floor(reservationDelayMs(entry.reservation ?? now, now) / 1000);
    const packs = windows.get(delay) ?? [[]];
    windows.set(delay, packs);
    const last = packs.at(-1) ?? [];
    const full = last.length >= PACK_MAX_TASKS || JSON.stringify(last).length + JSON.stringify(entry).length > PACK_MAX_BYTES;
    if (full) packs.push([entryBody(entry)]);
    else last.push(entryBody(entry));
  }
  return [...windows].flatMap(([delaySeconds, packs]) =>
    packs.map((tasks) => ({ body: tasks.length === 1 && tasks[0] ? { crawlId, ...tasks[0] } : { crawlId, tasks }, ...(delaySeconds ? { delaySeconds } : {}) })),
  );
}

async function send(queue: Queue, crawlId: string, entries: readonly FrontierEntry[], delaySeconds?: number, meter?: UsageMeter): Promise<void> {
  const plain: Outgoing[] = entries
    .filter((e) => e.reservation === undefined)
    .map((e) => ({ body: { crawlId, ...entryBody(e) }, ...(delaySeconds ? { delaySeconds } : {}) }));
  const all = [
    ...plain,
    ...packed(
      crawlId,
      entries.filter((e) => e.reservation !== undefined),
      Date.now(),
    ),
  ];
  for (let i = 0; i < all.length; i += QUEUE_SEND_BATCH) {
    const slice = all.slice(i, i + QUEUE_SEND_BATCH);
    await queue.sendBatch(slice.map((m) => ({ ...m, contentType: 'json' as const })));
    // One operation per message: a body is kept below the 64 KB an operation covers.
    meter?.count('queueOperations', slice.length);
  }
}

/** Sends frontier entries to their queues (optionally delayed). */
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
  await Promise.all([send(queues.FRONTIER_HIGH, crawlId, high, delaySeconds, meter), send(queues.FRONTIER, crawlId, normal, delaySeconds, meter)]);
}
