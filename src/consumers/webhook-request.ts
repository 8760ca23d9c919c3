import type { FirecrawlDocument } from '../domain/firecrawl/document';
import type { FirecrawlEventName } from '../domain/firecrawl/webhook-options';
import { firecrawlBody, firecrawlPayload } from '../domain/firecrawl/webhook-payload';
import { signFirecrawlWebhook, signWebhook } from '../domain/output/webhook-signature';
import type { WebhookEvent } from '../queues/webhook-events';
import type { Settings } from '../settings';
import type { Webhook } from '../types';

/** What a delivery POSTs: its body and headers (the webhook's own headers among them: secrets, never logged). */
export interface WebhookRequest {
  body: string;
  headers: Record<string, string>;
}

/**
 * What a Firecrawl-format delivery of an event needs besides it: its job's kind, its page's document, the events the
 * job asked for (null: all), and why the job failed (a crawl.completed of a job with no document; null: it did not).
 */
export interface FirecrawlFacts {
  kind: 'crawl' | 'batch';
  document: FirecrawlDocument | null;
  events?: readonly FirecrawlEventName[] | null;
  failure?: string | null;
}

/** Whether the job asked for the event: an ending is `failed` or `completed` as it went (the rest edgecrawl filters). */
function asked(event: WebhookEvent, facts: FirecrawlFacts): boolean {
  if (!facts.events || event.type !== 'crawl.completed') return true;
  return facts.events.includes(facts.failure ? 'failed' : 'completed');
}

/** Every delivery's headers: the user agent, the webhook's own headers, and JSON (which they cannot change). */
const commonHeaders = (webhook: Webhook, settings: Settings) => ({
  'user-agent': settings.userAgent,
  ...webhook.headers,
  'content-type': 'application/json',
});

/** Edgecrawl's format: the event as it is, signed in Edgecrawl-Signature with the webhook's secret. */
async function edgecrawlRequest(
  webhook: Webhook,
  event: WebhookEvent,
  settings: Settings,
  now: number,
): Promise<WebhookRequest> {
  const body = JSON.stringify(event);
  // A webhook in edgecrawl's format always has a secret (its schema requires one); the deployment's, else.
  const secret = webhook.secret ?? settings.webhookSecret;
  return {
    body,
    headers: {
      ...commonHeaders(webhook, settings),
      'edgecrawl-event': event.type,
      'edgecrawl-delivery': event.id,
      ...(secret ? { 'edgecrawl-signature': await signWebhook(secret, body, Math.floor(now / 1000)) } : {}),
    },
  };
}

/**
 * Firecrawl's format: its payload, signed in X-Firecrawl-Signature with the webhook's secret, else the deployment's
 * WEBHOOK_SECRET; without either, unsigned.
 */
async function firecrawlRequest(
  webhook: Webhook,
  event: WebhookEvent,
  settings: Settings,
  facts: FirecrawlFacts,
): Promise<WebhookRequest | null> {
  if (!asked(event, facts)) return null;
  const { kind, document, failure = null } = facts;
  const payload = firecrawlPayload({ event, kind, metadata: webhook.metadata, document, failure });
  const body = firecrawlBody(payload);
  const secret = webhook.secret ?? settings.webhookSecret;
  return {
    body,
    headers: {
      ...commonHeaders(webhook, settings),
      ...(secret ? { 'x-firecrawl-signature': await signFirecrawlWebhook(secret, body) } : {}),
    },
  };
}

/**
 * The request of one delivery of an event, in its webhook's format (Firecrawl's needs `facts`); null: nothing to send
 * (a Firecrawl job's ending it did not ask for).
 */
export function webhookRequest(
  webhook: Webhook,
  event: WebhookEvent,
  settings: Settings,
  facts: FirecrawlFacts | null,
  now = Date.now(),
): Promise<WebhookRequest | null> {
  return webhook.format === 'firecrawl' && facts
    ? firecrawlRequest(webhook, event, settings, facts)
    : edgecrawlRequest(webhook, event, settings, now);
}
