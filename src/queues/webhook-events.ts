import type { OutcomeCode } from '../domain/crawl/outcome-codes';
import type { UsageMeter } from '../domain/crawl/usage';
import { DEFAULT_WEBHOOK_EVENTS, type WebhookEventType } from '../domain/crawl/webhook-setting';
import { log } from '../log';
import type { CrawlConfig } from '../types';
import { QUEUE_SEND_BATCH } from './frontier';

/** What a webhook receives as its JSON body (and what the webhooks queue carries). */
export interface WebhookEvent {
  /** Unique per event; the same on every delivery attempt of it, so receivers can drop repeats. */
  id: string;
  type: WebhookEventType;
  crawlId: string;
  createdAt: string;
  data: Record<string, unknown>;
}

export function webhookEvent(
  type: WebhookEventType,
  crawlId: string,
  data: Record<string, unknown>,
  now = Date.now(),
): WebhookEvent {
  return { id: crypto.randomUUID(), type, crawlId, createdAt: new Date(now).toISOString(), data };
}

/** page.failed events for URLs the crawl recorded as failed. */
export function pageFailedEvents(
  crawlId: string,
  results: readonly {
    outcome: { url: string; reason?: string; code?: OutcomeCode };
    attempts: number;
    page?: { status: number };
  }[],
): WebhookEvent[] {
  return results.map((r) =>
    webhookEvent('page.failed', crawlId, {
      url: r.outcome.url,
      reason: r.outcome.reason ?? 'failed',
      code: r.outcome.code ?? 'other',
      attempts: r.attempts,
      httpStatus: r.page?.status ?? null,
    }),
  );
}

/** What a page.stored event says of its page. */
const storedData = (r: { outcome: { url: string }; page?: { status: number; depth: number } }) => ({
  url: r.outcome.url,
  httpStatus: r.page?.status ?? null,
  depth: r.page?.depth ?? null,
});

/** page.stored events for URLs the crawl recorded as stored (a duplicate is not one). */
export function pageStoredEvents(
  crawlId: string,
  results: readonly { outcome: { url: string }; page?: { status: number; depth: number } }[],
): WebhookEvent[] {
  return results.map((r) => webhookEvent('page.stored', crawlId, storedData(r)));
}

/**
 * page.stored events for URLs the crawl recorded as duplicates, naming their kept page (`duplicateOf`), for a webhook
 * in Firecrawl's format only: Firecrawl sends a crawl.page per page crawled, and a duplicate's document is its own URL
 * with its kept page's content (consumers/firecrawl-facts.ts). edgecrawl's format keeps page.stored for stored pages.
 */
export function pageDuplicateEvents(
  crawlId: string,
  results: readonly { outcome: { url: string; of?: string }; page?: { status: number; depth: number } }[],
): WebhookEvent[] {
  return results.map((r) =>
    webhookEvent('page.stored', crawlId, { ...storedData(r), duplicateOf: r.outcome.of ?? null }),
  );
}

/**
 * page.changed events of a recrawl for its pages new or changed since the previous crawl (a schedule's first run has
 * nothing to compare with: none). The short diff is added by the webhooks consumer, off the crawl's path.
 */
export function pageChangedEvents(
  crawlId: string,
  config: Pick<CrawlConfig, 'recrawlOf'>,
  results: readonly { page?: { url: string; change?: string | null } }[],
): WebhookEvent[] {
  const previousCrawlId = config.recrawlOf;
  if (typeof previousCrawlId !== 'string') return [];
  return results.flatMap(({ page }) =>
    page && (page.change === 'new' || page.change === 'changed')
      ? [webhookEvent('page.changed', crawlId, { url: page.url, kind: page.change, previousCrawlId })]
      : [],
  );
}

/**
 * Hands events of a crawl with a webhook to the webhooks queue (those of the types its `webhook.events` names, or
 * DEFAULT_WEBHOOK_EVENTS), from which they are delivered apart from the crawl. Without a webhook, nothing. Sending must not hold up or fail the crawl: failures are logged and
 * reported false, for callers that keep a durable record of what still has to be sent (the crawl's Durable Object).
 */
export async function emitWebhookEvents(
  queue: Queue,
  config: Pick<CrawlConfig, 'webhook'>,
  events: readonly WebhookEvent[],
  meter?: UsageMeter,
): Promise<boolean> {
  const wanted: readonly WebhookEventType[] = config.webhook?.events ?? DEFAULT_WEBHOOK_EVENTS;
  const sent = events.filter((e) => wanted.includes(e.type));
  if (!config.webhook || sent.length === 0) return true;
  try {
    for (let i = 0; i < sent.length; i += QUEUE_SEND_BATCH) {
      const slice = sent.slice(i, i + QUEUE_SEND_BATCH);
      await queue.sendBatch(slice.map((body) => ({ body, contentType: 'json' as const })));
      meter?.queueWrites(slice.map((e) => JSON.stringify(e).length));
    }
    return true;
  } catch (error) {
    log('warn', 'webhook events not queued', {
      crawlId: sent[0]?.crawlId,
      types: [...new Set(sent.map((e) => e.type))],
      count: sent.length,
      error: String(error),
    });
    return false;
  }
}
