import { z } from 'zod';
import { UsageMeter } from '../domain/crawl/usage';
import { WEBHOOK_EVENTS } from '../domain/crawl/webhook-setting';
import { backoffSeconds } from '../domain/fetch/backoff';
import { isRefusedUrl } from '../domain/url/address';
import { log } from '../log';
import { reportUsage } from '../objects/crawl-usage';
import type { WebhookEvent } from '../queues/webhook-events';
import { readSettings, type Settings } from '../settings';
import { type CrawlRow, getCrawl } from '../storage/d1/crawls';
import { diffPage } from '../storage/page-diff';
import type { Webhook } from '../types';
import { FirecrawlFactsReader } from './firecrawl-facts';
import { meteredMessage } from './tasks';
import { type WebhookRequest, webhookRequest } from './webhook-request';

/** Deliveries of one event before it is given up (logged as abandoned). */
export const WEBHOOK_MAX_ATTEMPTS = 8;
const WEBHOOK_TIMEOUT_MS = 10_000;

const eventSchema = z.object({
  id: z.uuid(),
  type: z.enum(WEBHOOK_EVENTS),
  crawlId: z.string().min(1).max(64),
  createdAt: z.string(),
  data: z.record(z.string(), z.unknown()),
}) satisfies z.ZodType<WebhookEvent>;

/** Characters of diff a page.changed event carries; the whole is at GET /v1/crawls/:id/diff. */
const SHORT_DIFF_CHARS = 4000;

/**
 * A page.changed event with what changed: the start of the unified diff of the page's markdown (or text) and the
 * fields that changed, read from R2 here, apart from the crawl. Without a record to compare, the event as it is.
 */
async function withShortDiff(env: Env, event: WebhookEvent, crawl: CrawlRow): Promise<WebhookEvent> {
  const { url, previousCrawlId } = event.data;
  const formats = crawl.extract?.formats ?? [];
  const format = formats.includes('markdown') ? 'markdown' : formats.includes('text') ? 'text' : null;
  if (event.type !== 'page.changed' || typeof url !== 'string' || typeof previousCrawlId !== 'string' || !format)
    return event;
  const diffUrl = `/v1/crawls/${event.crawlId}/diff?url=${encodeURIComponent(url)}&format=${format}`;
  try {
    const diff = await diffPage(env.DB, env.BODIES, { crawlId: event.crawlId, previousCrawlId, url, format });
    if (typeof diff === 'string') return { ...event, data: { ...event.data, diffUrl } };
    const cut = diff.diff.length > SHORT_DIFF_CHARS;
    const short = cut ? `${diff.diff.slice(0, SHORT_DIFF_CHARS)}\n…` : diff.diff;
    const { added, removed, fields } = diff;
    return { ...event, data: { ...event.data, diffUrl, added, removed, diff: short, diffCut: cut, fields } };
  } catch (error) {
    log('warn', 'webhook: reading the diff failed; sending the event without it', { url, error: String(error) });
    return { ...event, data: { ...event.data, diffUrl } };
  }
}

/** Backoff between deliveries of an event: 5 s before the second, doubling to an hour, with jitter. */
export function webhookRetryDelaySeconds(attempt: number, random: () => number = Math.random): number {
  return backoffSeconds(attempt, 5, 3600, random);
}

type Delivery = { ok: true; status: number } | { ok: false; reason: string; permanent?: boolean };

/**
 * One POST of an event's request to a webhook; never throws. Redirects are not followed: the URL is the one given.
 * Its headers (the webhook's own among them) are never logged.
 */
async function deliverWebhook(webhook: Webhook, request: WebhookRequest, settings: Settings): Promise<Delivery> {
  if (isRefusedUrl(webhook.url, settings.allowPrivateNetworks))
    return { ok: false, reason: 'blocked: private network address', permanent: true };
  try {
    const response = await fetch(webhook.url, {
      method: 'POST',
      body: request.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
      headers: request.headers,
    });
    await response.body?.cancel();
    return response.status >= 200 && response.status < 300
      ? { ok: true, status: response.status }
      : { ok: false, reason: `http ${response.status}` };
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
  }
}

/**
 * What an event's delivery POSTs, in its crawl's webhook's format (null: nothing, acked); throws when what it needs
 * cannot be read.
 */
type Prepare = (webhook: Webhook, event: WebhookEvent, crawl: CrawlRow) => Promise<WebhookRequest | null>;

/**
 * Consumer of the webhooks queue: each event POSTed to its crawl's webhook, acked when delivered (2xx),
 * retried with exponential backoff (5 s doubling to an hour) otherwise, and given up after
 * WEBHOOK_MAX_ATTEMPTS. Runs apart from the crawl, which never waits for a receiver.
 */
export async function consumeWebhooks(batch: MessageBatch, env: Env): Promise<void> {
  const settings = readSettings(env);
  const crawls = new Map<string, Promise<CrawlRow | null>>();
  const crawlOf = (id: string) => {
    const crawl = crawls.get(id) ?? getCrawl(env.DB, id);
    crawls.set(id, crawl);
    return crawl;
  };
  // Each crawl is charged the invocation, its events' deliveries and acks (see recordUsage).
  const meters = new Map<string, UsageMeter>();
  const metered = batch.messages.map((message) => {
    const crawlId = eventSchema.safeParse(message.body).data?.crawlId;
    if (crawlId === undefined) return message;
    const meter = meters.get(crawlId) ?? UsageMeter.delivered(0);
    meters.set(crawlId, meter);
    meter.count('queueOperations');
    return meteredMessage(message, meter);
  });
  const firecrawl = new FirecrawlFactsReader(
    env,
    batch.messages.flatMap((m) => eventSchema.safeParse(m.body).data ?? []),
  );
  const prepare: Prepare = async (webhook, event, crawl) =>
    webhook.format === 'firecrawl'
      ? webhookRequest(webhook, event, settings, await firecrawl.factsOf(event, crawl))
      : webhookRequest(webhook, await withShortDiff(env, event, crawl), settings, null);
  await Promise.all(metered.map((message) => deliverMessage(message, crawlOf, settings, prepare)));
  await Promise.all([...meters].map(([crawlId, meter]) => reportUsage(env.CRAWL, crawlId, meter)));
}

async function deliverMessage(
  message: Message,
  crawlOf: (id: string) => Promise<CrawlRow | null>,
  settings: Settings,
  prepare: Prepare,
): Promise<void> {
  const parsed = eventSchema.safeParse(message.body);
  if (!parsed.success) {
    log('warn', 'dropping malformed webhook event', { messageId: message.id });
    return message.ack();
  }
  const event = parsed.data;
  const fields = {
    crawlId: event.crawlId,
    event: event.type,
    eventId: event.id,
    attempt: message.attempts,
    ...(typeof event.data.url === 'string' ? { url: event.data.url } : {}),
  };
  let crawl: CrawlRow | null;
  let request: WebhookRequest | null = null;
  try {
    crawl = await crawlOf(event.crawlId);
    const webhook = crawl?.config.webhook;
    if (crawl && webhook) request = await prepare(webhook, event, crawl);
  } catch (error) {
    log('error', 'webhook: reading the crawl or its page failed', { ...fields, error: String(error) });
    return message.retry({ delaySeconds: backoffSeconds(message.attempts) });
  }
  const webhook = crawl?.config.webhook;
  if (!webhook || !request) return message.ack(); // the crawl is gone, has no webhook, or its job did not ask
  const delivery = await deliverWebhook(webhook, request, settings);
  if (delivery.ok) {
    log('info', 'webhook delivered', { ...fields, status: delivery.status });
    return message.ack();
  }
  if (delivery.permanent || message.attempts >= WEBHOOK_MAX_ATTEMPTS) {
    log('error', 'webhook delivery abandoned', { ...fields, reason: delivery.reason });
    return message.ack();
  }
  const delaySeconds = webhookRetryDelaySeconds(message.attempts);
  log('warn', 'webhook delivery failed; will retry', { ...fields, reason: delivery.reason, delaySeconds });
  message.retry({ delaySeconds });
}
