import type { CrawlTask } from './types';

/**
 * Consumer of the dead-letter queue: a frontier message lands there after the queue gave up on it
 * (every delivery threw or was retried). Its URL is recorded as failed, so the crawl can still complete
 * and the reason is listed with the crawl's errors.
 */
export async function consumeDeadLetters(batch: MessageBatch, env: Env): Promise<void> {
  const byCrawl = new Map<string, { message: Message; task: CrawlTask }[]>();
  for (const message of batch.messages) {
    const task = message.body as Partial<CrawlTask> | null;
    if (!task || typeof task.crawlId !== 'string' || typeof task.url !== 'string') {
      message.ack();
      continue;
    }
    const list = byCrawl.get(task.crawlId) ?? [];
    list.push({ message, task: task as CrawlTask });
    byCrawl.set(task.crawlId, list);
  }
  await Promise.all(
    [...byCrawl].map(async ([crawlId, items]) => {
      const reason = 'dead-lettered: retries exhausted';
      try {
        const changed = new Set(await env.CRAWL.getByName(crawlId).abandon(items.map(({ task }) => ({ url: task.url, reason }))));
        const now = Date.now();
        const rows = items.filter(({ task }) => changed.has(task.url));
        if (rows.length > 0) {
          await env.DB.batch(
            rows.map(({ message, task }) =>
              env.DB.prepare(
                `INSERT INTO errors (crawl_id, url, outcome, reason, attempts, http_status, at) VALUES (?, ?, 'failed', ?, ?, NULL, ?)
                 ON CONFLICT (crawl_id, url) DO UPDATE SET outcome = 'failed', reason = excluded.reason, attempts = excluded.attempts, at = excluded.at`,
              ).bind(crawlId, task.url, reason, message.attempts, now),
            ),
          );
        }
        for (const { message } of items) message.ack();
      } catch (error) {
        console.error(JSON.stringify({ level: 'error', msg: 'dead-letter handling failed', crawlId, error: String(error) }));
        for (const { message } of items) message.retry();
      }
    }),
  );
}
