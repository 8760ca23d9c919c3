import { z } from 'zod';
import type { UsageMeter } from '../domain/crawl/usage';

/** A stored page for the model step (formats json and summary): its record is read, answered, and written again. */
export const modelTaskSchema = z.object({
  crawlId: z.string().min(1).max(64),
  url: z.string().min(1).max(8192),
});

export type ModelTask = z.output<typeof modelTaskSchema>;

/** Messages per sendBatch (Queues' limit). */
const BATCH = 100;

/** Sends one message per page, a hundred per call. */
export async function sendModelTasks(
  queue: Queue,
  crawlId: string,
  urls: readonly string[],
  meter?: UsageMeter,
): Promise<void> {
  for (let i = 0; i < urls.length; i += BATCH) {
    const messages = urls.slice(i, i + BATCH).map((url) => ({ body: { crawlId, url }, contentType: 'json' as const }));
    await queue.sendBatch(messages);
    meter?.queueWrites(messages.map((m) => m.body.url.length + crawlId.length + 32));
  }
}
