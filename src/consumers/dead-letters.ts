import { log } from '../log';
import { emitWebhookEvents, pageFailedEvents } from '../queues/webhook-events';
import { getCrawl } from '../storage/d1/crawls';
import { recordErrors } from '../storage/d1/errors';
import { tasksByCrawl } from './tasks';

const REASON = 'dead-lettered: retries exhausted';

/**
 * Consumer of the dead-letter queue: a frontier message lands there after the queue gave up on it
 * (every delivery threw or was retried). Its URL is recorded as failed, so the crawl can still complete
 * and the reason is listed with the crawl's errors.
 */
export async function consumeDeadLetters(batch: MessageBatch, env: Env): Promise<void> {
  await Promise.all(
    [...tasksByCrawl(batch, 'dead letter')].map(async ([crawlId, items]) => {
      try {
        await abandon(
          env,
          crawlId,
          items.map(({ task }) => task.url),
        );
        for (const { message } of items) message.ack();
      } catch (error) {
        log('error', 'dead-letter handling failed', { crawlId, error: String(error) });
        for (const { message } of items) message.retry();
      }
    }),
  );
}

/** Marks the URLs failed in the crawl's Durable Object, records why in D1, and tells the crawl's webhook. */
async function abandon(env: Env, crawlId: string, urls: string[]): Promise<void> {
  const changed = await env.CRAWL.getByName(crawlId).abandon(urls.map((url) => ({ url, reason: REASON })));
  if (changed.length === 0) return;
  await recordErrors(
    env.DB,
    crawlId,
    changed.map(({ url, attempts }) => ({ url, outcome: 'failed' as const, reason: REASON, attempts, httpStatus: null })),
    Date.now(),
  );
  const crawl = await getCrawl(env.DB, crawlId);
  if (crawl)
    await emitWebhookEvents(
      env.WEBHOOKS,
      crawl.config,
      pageFailedEvents(
        crawlId,
        changed.map(({ url, attempts }) => ({ outcome: { url, reason: REASON }, attempts })),
      ),
    );
}
