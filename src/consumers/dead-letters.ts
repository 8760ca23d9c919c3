import type { OutcomeCode } from '../domain/crawl/outcome-codes';
import { DEAD_LETTER_CODE, DEAD_LETTER_REASON, transition } from '../domain/crawl/url-life';
import { UsageMeter } from '../domain/crawl/usage';
import { log } from '../log';
import { reportUsage } from '../objects/crawl-usage';
import { emitWebhookEvents, pageFailedEvents } from '../queues/webhook-events';
import { limitsOf, readSettings } from '../settings';
import { getCrawl } from '../storage/d1/crawls';
import { recordErrors } from '../storage/d1/errors';
import { answerMessage } from './settle';
import { envelopesOf, messagesByCrawl } from './tasks';

/**
 * Consumer of the dead-letter queue: a frontier message lands there after the queue gave up on it (every delivery
 * threw or was retried). It carries out the 'dead-lettered' row of domain/crawl/url-life.ts: its URL is recorded as failed,
 * so the crawl can still complete and the reason is listed with the crawl's errors.
 */
export async function consumeDeadLetters(batch: MessageBatch, env: Env): Promise<void> {
  await Promise.all(
    [...messagesByCrawl(batch, 'dead letter')].map(async ([crawlId, carriers]) => {
      // What handling them costs is the crawl's: the invocation, each delivery and ack, the D1 rows, the events.
      const meter = UsageMeter.delivered(carriers.length);
      const envelopes = envelopesOf(carriers, meter);
      const items = envelopes.flatMap((e) => e.tasks);
      try {
        const { record, message: action } = transition({ on: 'dead-lettered' }, limitsOf(readSettings(env)));
        const reason = record.to === 'final' ? (record.reason ?? DEAD_LETTER_REASON) : DEAD_LETTER_REASON;
        const code = record.to === 'final' ? (record.code ?? DEAD_LETTER_CODE) : DEAD_LETTER_CODE;
        await abandon(
          env,
          crawlId,
          items.map(({ task }) => ({ url: task.url, reason, code })),
          meter,
        );
        for (const { message } of items) answerMessage(message, action);
      } catch (error) {
        log('error', 'dead-letter handling failed', { crawlId, error: String(error) });
        for (const { message } of items) message.retry();
      }
      // A dead letter's URLs are all acked or all retried: nothing is sent back.
      for (const envelope of envelopes) await envelope.settle(null);
      await reportUsage(env.CRAWL, crawlId, meter);
    }),
  );
}

/** Marks the URLs failed in the crawl's Durable Object, records why in D1, and tells the crawl's webhook. */
async function abandon(
  env: Env,
  crawlId: string,
  entries: { url: string; reason: string; code: OutcomeCode }[],
  meter: UsageMeter,
): Promise<void> {
  const changed = await env.CRAWL.getByName(crawlId).abandon(entries);
  const reasons = new Map(entries.map((e) => [e.url, e.reason]));
  if (changed.length === 0) return;
  await recordErrors(
    env.DB,
    crawlId,
    changed.map(({ url, attempts }) => ({
      url,
      outcome: 'failed' as const,
      reason: reasons.get(url) ?? DEAD_LETTER_REASON,
      code: DEAD_LETTER_CODE,
      attempts,
      httpStatus: null,
    })),
    Date.now(),
    meter,
  );
  const crawl = await getCrawl(env.DB, crawlId);
  if (!crawl) return;
  const events = pageFailedEvents(
    crawlId,
    changed.map(({ url, attempts }) => ({
      outcome: { url, reason: reasons.get(url) ?? DEAD_LETTER_REASON, code: DEAD_LETTER_CODE },
      attempts,
    })),
  );
  await emitWebhookEvents(env.WEBHOOKS, crawl.config, events, meter);
}
