import type { UsageMeter } from '../domain/usage';
import { log } from '../log';
import { reportUsage } from '../objects/crawl-usage';
import { emitWebhookEvents, pageFailedEvents } from '../queues/webhook-events';
import { getCrawl } from '../storage/d1/crawls';
import { recordErrors } from '../storage/d1/errors';
import { meteredGroup, tasksByCrawl } from './tasks';

const REASON = 'dead-lettered: retries exhausted';

/**
 * Consumer of the dead-letter queue: a frontier message lands there after the queue gave up on it
 * (every delivery threw or was retried). Its URL is recorded as failed, so the crawl can still complete
 * and the reason is listed with the crawl's errors.
 */
export async function consumeDeadLetters(batch: MessageBatch, env: Env): Promise<void> {
  await Promise.all(
    [...tasksByCrawl(batch, 'dead letter')].map(async ([crawlId, items]) => {
      // What handling them costs is the crawl's: the invocation, each delivery and ack, the D1 rows, the events.
      const { meter, group } = meteredGroup(items);
      try {
        await abandon(
          env,
          crawlId,
          group.map(({ task }) => task.url),
          meter,
        );
        for (const { message } of group) message.ack();
      } catch (error) {
        log('error', 'dead-letter handling failed', { crawlId, error: String(error) });
        for (const { message } of group) message.retry();
      }
      await reportUsage(env.CRAWL, crawlId, meter);
    }),
  );
}

/** Marks the URLs failed in the crawl's Durable Object, records why in D1, and tells the crawl's webhook. */
async function abandon(env: Env, crawlId: string, urls: string[], meter: UsageMeter): Promise<void> {
  const changed = await env.CRAWL.getByName(crawlId).abandon(urls.map((url) => ({ url, reason: REASON })));
  if (changed.length === 0) return;
  await recordErrors(
    env.DB,
    crawlId,
    changed.map(({ url, attempts }) => ({ url, outcome: 'failed' as const, reason: REASON, attempts, httpStatus: null })),
    Date.now(),
    meter,
  );
  const crawl = await getCrawl(env.DB, crawlId);
  if (!crawl) return;
  const events = pageFailedEvents(
    crawlId,
    changed.map(({ url, attempts }) => ({ outcome: { url, reason: REASON }, attempts })),
  );
  await emitWebhookEvents(env.WEBHOOKS, crawl.config, events, meter);
}
