import { z } from 'zod';

/** Firecrawl's webhook: a URL, or `{url, headers, metadata, events}`. */
export const webhookInputSchema = z.union([
  z.string().max(2048),
  z.looseObject({
    url: z.string().max(2048),
    headers: z.record(z.string(), z.string()).optional(),
    metadata: z.record(z.string(), z.unknown()).optional(),
    events: z.array(z.string().max(50)).max(10).optional(),
  }),
]);
export type FirecrawlWebhookInput = z.output<typeof webhookInputSchema>;

/**
 * Firecrawl's event filters and the edgecrawl events that make them: `page` is a page stored (crawl.page) or failed
 * (crawl.page with success false); `completed` a crawl that ended, completed or cancelled (crawl.cancelled, as
 * Firecrawl's newest servers send); `failed` a crawl that ended with no document (its login failed, its seeds were
 * refused): edgecrawl's crawl.completed, sent as crawl.failed (domain/firecrawl/webhook-payload.ts).
 */
const EVENTS: Record<FirecrawlEventName, string[]> = {
  started: ['crawl.started'],
  page: ['page.stored', 'page.failed'],
  completed: ['crawl.completed', 'crawl.cancelled'],
  failed: ['crawl.completed'],
};

export const FIRECRAWL_EVENT_NAMES = ['started', 'page', 'completed', 'failed'] as const;
export type FirecrawlEventName = (typeof FIRECRAWL_EVENT_NAMES)[number];

const isEventName = (name: string): name is FirecrawlEventName =>
  (FIRECRAWL_EVENT_NAMES as readonly string[]).includes(name);

/** Firecrawl's event names a webhook asks for (`crawl.page` read as `page`); null: all of them (no filter given). */
export function firecrawlEventsOf(input: FirecrawlWebhookInput | undefined): FirecrawlEventName[] | null {
  if (input === undefined || typeof input === 'string' || input.events === undefined) return null;
  return input.events.map((e) => e.replace(/^(crawl|batch_scrape)\./, '')).filter(isEventName);
}

/** Firecrawl's event names (`page`, or in full `crawl.page`, `batch_scrape.page`) as edgecrawl's events. */
function eventsOf(events: readonly string[] | undefined): string[] {
  const names = (events ?? Object.keys(EVENTS)).map((e) => e.replace(/^(crawl|batch_scrape)\./, ''));
  const unknown = names.find((e) => !isEventName(e));
  // An unknown name is left for edgecrawl's schema to refuse, naming it.
  if (unknown !== undefined) return [unknown];
  const wanted = [...new Set(names.filter(isEventName).flatMap((e) => EVENTS[e]))];
  // An empty list: the ending is still told.
  return wanted.length > 0 ? wanted : ['crawl.completed', 'crawl.cancelled'];
}

/** A Firecrawl webhook as an edgecrawl one, sending Firecrawl's payloads (consumers/webhooks.ts). */
export function webhookOf(input: FirecrawlWebhookInput): Record<string, unknown> {
  const webhook = typeof input === 'string' ? { url: input } : input;
  const metadata = webhook.metadata ?? {};
  return {
    url: webhook.url,
    format: 'firecrawl',
    events: eventsOf(webhook.events),
    ...(webhook.headers && Object.keys(webhook.headers).length > 0 ? { headers: webhook.headers } : {}),
    ...(Object.keys(metadata).length > 0 ? { metadata } : {}),
  };
}
