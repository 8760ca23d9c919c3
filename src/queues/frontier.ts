import { z } from 'zod';
import type { UsageMeter } from '../domain/crawl/usage';
import { dueDelaySeconds } from '../domain/politeness/spread';
import { compilePattern } from '../domain/url/patterns';
import type { CrawlConfig, CrawlTask, FrontierEntry } from '../types';

/** Queues accept at most 100 messages per sendBatch. */
export const QUEUE_SEND_BATCH = 100;
/** ...and at most 256 KB in all per sendBatch (the bodies; a margin is kept for what the runtime adds). */
const SEND_BATCH_BYTES = 250_000;
/** A queue operation covers 64 KB of a message: a larger message is billed one operation per 64 KB. */
const OPERATION_BYTES = 64 * 1024;

/**
 * URLs one frontier message carries at most: one crawl's URLs due at the same second share a message, which is written,
 * read and deleted once for all of them (three queue operations for up to this many URLs instead of three each).
 * max_batch_size (wrangler.toml) times this is the most URLs one consumer invocation takes: 100, as before.
 */
export const TASKS_PER_MESSAGE = 10;
/** A message's body stays under one operation's 64 KB (and the queue's 128 KB limit): long URLs make fewer a message. */
const MESSAGE_BYTES = 60_000;

const entryFields = {
  url: z.string().min(1).max(8192),
  depth: z.number().int().min(0),
  hops: z.number().int().min(0).default(0),
  kind: z.enum(['page', 'sitemap']).optional(),
};

/** A message of one URL, as frontier messages were before they carried several (and as tests write them). */
const taskSchema = z.object({
  crawlId: z.string().min(1).max(64),
  ...entryFields,
}) satisfies z.ZodType<CrawlTask>;

/** A URL in a message of several: `d`, the deliveries it had in messages before this one (0: none). */
const chunkTaskSchema = z.object({ ...entryFields, d: z.number().int().min(0).default(0) });

/** A frontier message of several URLs of one crawl. */
const chunkSchema = z.object({
  crawlId: z.string().min(1).max(64),
  tasks: z.array(chunkTaskSchema).min(1).max(TASKS_PER_MESSAGE),
});

/** A frontier task as a message carries it, with the deliveries it had before this message. */
export interface CarriedTask {
  task: CrawlTask;
  priorDeliveries: number;
}

/** The tasks of a frontier message's body (one URL or several), or null when it is not one. */
export function tasksOfBody(body: unknown): CarriedTask[] | null {
  const chunk = chunkSchema.safeParse(body);
  if (chunk.success) {
    const { crawlId, tasks } = chunk.data;
    return tasks.map(({ d, ...entry }) => ({ task: { crawlId, ...entry }, priorDeliveries: d }));
  }
  const single = taskSchema.safeParse(body);
  return single.success ? [{ task: single.data, priorDeliveries: 0 }] : null;
}

/**
 * The frontier queues, all consumed. Work on the high one does not wait behind the others' backlog. The paced one
 * carries the delayed messages of crawls of normal priority (URLs due at their host's pace, sent back to a reserved
 * slot or after a backoff): its batches wait up to a second to fill (max_batch_timeout = 1), so the URLs of a window
 * that different calls sent come as one batch (one invocation, one R2 segment, one set of calls to the crawl), where
 * they would otherwise be a batch each. Messages due at once go to FRONTIER, delivered as soon as they wait.
 */
export interface Frontiers {
  FRONTIER: Queue;
  FRONTIER_HIGH: Queue;
  FRONTIER_PACED: Queue;
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

/** A URL to send, with the deliveries it already had (a URL sent back by its consumer keeps its count). */
export interface Outgoing {
  entry: FrontierEntry;
  priorDeliveries?: number;
}

/** A message to send: its body, its size in bytes, and its delay. */
interface Outbound {
  body: { crawlId: string; tasks: z.input<typeof chunkTaskSchema>[] };
  bytes: number;
  delaySeconds: number;
}

const encoder = new TextEncoder();
const sizeOf = (value: unknown) => encoder.encode(JSON.stringify(value)).length;

function taskOf({ entry: e, priorDeliveries }: Outgoing): z.input<typeof chunkTaskSchema> {
  return {
    url: e.url,
    depth: e.depth,
    hops: e.hops,
    ...(e.kind === 'sitemap' ? { kind: 'sitemap' as const } : {}),
    ...(priorDeliveries ? { d: priorDeliveries } : {}),
  };
}

/**
 * The messages of one crawl's URLs: those due at the same second (their host's pace, domain/politeness/spread.ts, or
 * the batch's delay) share a message, up to TASKS_PER_MESSAGE URLs and MESSAGE_BYTES each, in the order given.
 */
export function messagesOf(
  crawlId: string,
  items: readonly Outgoing[],
  delaySeconds = 0,
  now = Date.now(),
): Outbound[] {
  const byDelay = new Map<number, Outbound[]>();
  const empty = sizeOf({ crawlId, tasks: [] });
  for (const item of items) {
    const delay = Math.max(delaySeconds, dueDelaySeconds(item.entry.dueAt, now));
    const task = taskOf(item);
    const bytes = sizeOf(task);
    const open = byDelay.get(delay) ?? [];
    const last = open.at(-1);
    // A task after the first adds its comma.
    if (last && last.body.tasks.length < TASKS_PER_MESSAGE && last.bytes + bytes + 1 <= MESSAGE_BYTES) {
      last.body.tasks.push(task);
      last.bytes += bytes + 1;
    } else open.push({ body: { crawlId, tasks: [task] }, bytes: empty + bytes, delaySeconds: delay });
    byDelay.set(delay, open);
  }
  return [...byDelay.values()].flat();
}

/** Messages in sendBatch calls: at most QUEUE_SEND_BATCH messages and SEND_BATCH_BYTES a call. */
export function sendBatches<T extends { bytes: number }>(messages: readonly T[]): T[][] {
  const batches: T[][] = [];
  let current: T[] = [];
  let bytes = 0;
  for (const message of messages) {
    if (current.length > 0 && (current.length >= QUEUE_SEND_BATCH || bytes + message.bytes > SEND_BATCH_BYTES)) {
      batches.push(current);
      current = [];
      bytes = 0;
    }
    current.push(message);
    bytes += message.bytes;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

async function send(queue: Queue, messages: readonly Outbound[], meter?: UsageMeter): Promise<void> {
  for (const batch of sendBatches(messages)) {
    await queue.sendBatch(
      batch.map(({ body, delaySeconds: delay }) => ({
        body,
        contentType: 'json' as const,
        ...(delay ? { delaySeconds: delay } : {}),
      })),
    );
    // One operation per 64 KB of each message: a message's body stays under it (MESSAGE_BYTES).
    meter?.count(
      'queueOperations',
      batch.reduce((n, m) => n + Math.ceil(m.bytes / OPERATION_BYTES), 0),
    );
  }
}

/**
 * Sends URLs to their queues (see Frontiers: a delayed message of a normal crawl to the paced one), several to a
 * message (messagesOf), optionally delayed (an entry with `dueAt`, until then at least); a URL given with `priorDeliveries` keeps that count (a consumer sending back part of a message).
 */
export async function enqueueTasks(
  queues: Frontiers,
  crawlId: string,
  config: Pick<CrawlConfig, 'priority' | 'boost'>,
  entries: readonly (FrontierEntry | Outgoing)[],
  delaySeconds?: number,
  meter?: UsageMeter,
): Promise<void> {
  const isHigh = highPriority(config);
  const items = entries.map((e): Outgoing => ('entry' in e ? e : { entry: e }));
  const high = messagesOf(
    crawlId,
    items.filter((i) => isHigh(i.entry)),
    delaySeconds,
  );
  const normal = messagesOf(
    crawlId,
    items.filter((i) => !isHigh(i.entry)),
    delaySeconds,
  );
  await Promise.all([
    send(queues.FRONTIER_HIGH, high, meter),
    send(
      queues.FRONTIER,
      normal.filter((m) => !m.delaySeconds),
      meter,
    ),
    send(
      queues.FRONTIER_PACED,
      normal.filter((m) => m.delaySeconds),
      meter,
    ),
  ]);
}
