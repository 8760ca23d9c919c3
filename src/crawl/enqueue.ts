import type { CrawlTask, FrontierEntry } from './types';

/** Queues accept at most 100 messages per sendBatch. */
const SEND_BATCH = 100;

export async function enqueueTasks(queue: Queue, crawlId: string, entries: readonly FrontierEntry[]): Promise<void> {
  for (let i = 0; i < entries.length; i += SEND_BATCH) {
    const messages = entries.slice(i, i + SEND_BATCH).map((e) => ({
      body: { crawlId, url: e.url, depth: e.depth, hops: e.hops, ...(e.kind === 'sitemap' ? { kind: 'sitemap' as const } : {}) } satisfies CrawlTask,
      contentType: 'json' as const,
    }));
    await queue.sendBatch(messages);
  }
}
