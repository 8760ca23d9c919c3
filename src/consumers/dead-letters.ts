import { getCrawl } from '../storage/d1/crawls';
import { emitWebhookEvents, pageFailedEvents } from '../queues/webhook-events';
import type { CrawlTask } from '../types';
import { log } from '../log';

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
        const changed = await env.CRAWL.getByName(crawlId).abandon(items.map(({ task }) => ({ url: task.url, reason })));
        if (changed.length > 0) {
          const now = Date.now();
          await env.DB.batch(
            changed.map(({ url, attempts }) =>
              env.DB.prepare(
                `INSERT INTO errors (crawl_id, url, outcome, reason, attempts, http_status, at) VALUES (?, ?, 'failed', ?, ?, NULL, ?)
                 ON CONFLICT (crawl_id, url) DO UPDATE SET outcome = 'failed', reason = excluded.reason, attempts = excluded.attempts, at = excluded.at`,
              ).bind(crawlId, url, reason, attempts, now),
            ),
          );
        }
        if (changed.length > 0) {
          const crawl = await getCrawl(env.DB, crawlId);
          if (crawl) await emitWebhookEvents(env.WEBHOOKS, crawl.config, pageFailedEvents(crawlId, changed.map(({ url, attempts }) => ({ outcome: { url, reason }, attempts }))));
        }
        for (const { message } of items) message.ack();
      } catch (error) {
        log('error', 'dead-letter handling failed', { crawlId, error: String(error) });
        for (const { message } of items) message.retry();
      }
    }),
  );
}
