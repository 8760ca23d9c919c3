import { z } from 'zod';
import type { UsageMeter } from '../domain/crawl/usage';

/**
 * A stored page for the model step (formats json and summary): its record is read, answered, and written again. `d`:
 * deliveries of its model messages before this one that counted (a page sent back for the account's pacing keeps its
 * count in a new message: consumers/model.ts, sendBack).
 */
export const modelTaskSchema = z.object({
  crawlId: z.string().min(1).max(64),
  url: z.string().min(1).max(8192),
  d: z.number().int().min(0).default(0),
});

export type ModelTask = z.output<typeof modelTaskSchema>;

/** Messages per sendBatch (Queues' limit). */
const BATCH = 100;

/** A page to send: its URL, or its URL and the deliveries it had that counted. */
type Outgoing = string | { url: string; d: number };

/** Sends one message per page, a hundred per call, optionally delayed. */
export async function sendModelTasks(
  queue: Queue,
  crawlId: string,
  pages: readonly Outgoing[],
  meter?: UsageMeter,
  delaySeconds = 0,
): Promise<void> {
  for (let i = 0; i < pages.length; i += BATCH) {
    const messages = pages.slice(i, i + BATCH).map((page) => ({
      body: typeof page === 'string' || page.d === 0 ? { crawlId, url: urlOf(page) } : { crawlId, ...page },
      contentType: 'json' as const,
      ...(delaySeconds > 0 ? { delaySeconds } : {}),
    }));
    await queue.sendBatch(messages);
    meter?.queueWrites(messages.map((m) => m.body.url.length + crawlId.length + 32));
  }
}

const urlOf = (page: Outgoing) => (typeof page === 'string' ? page : page.url);
