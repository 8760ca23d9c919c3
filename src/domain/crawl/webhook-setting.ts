import { z } from 'zod';

/**
 * A crawl's webhook: where its events are POSTed, in edgecrawl's format (signed with the webhook's secret) or
 * Firecrawl's (signed when there is a key: the webhook's secret, or the deployment's WEBHOOK_SECRET), with headers
 * of the receiver's (secrets: never shown back, never logged) and metadata echoed in Firecrawl's payloads.
 */

/** What a crawl's webhook can be sent. */
export const WEBHOOK_EVENTS = [
  'crawl.started',
  'crawl.completed',
  'crawl.cancelled',
  'page.stored',
  'page.failed',
  'page.changed',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];

/** What a webhook without `events` is sent (one event per stored page, or the start, only when asked for). */
export const DEFAULT_WEBHOOK_EVENTS: readonly WebhookEventType[] = [
  'crawl.completed',
  'crawl.cancelled',
  'page.failed',
  'page.changed',
];

export const WEBHOOK_FORMATS = ['edgecrawl', 'firecrawl'] as const;

const MAX_HEADERS = 20;
const MAX_METADATA_BYTES = 4096;
/** An HTTP header name (RFC 9110's token). */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Headers edgecrawl sets itself on every delivery. */
const RESERVED = new Set([
  'content-type',
  'content-length',
  'host',
  'x-firecrawl-signature',
  'edgecrawl-signature',
  'edgecrawl-event',
  'edgecrawl-delivery',
]);

/** Why a header name cannot be given, or null. */
function headerNameRefusal(name: string): string | null {
  if (name.length > 256 || !TOKEN.test(name)) return `webhook.headers: ${JSON.stringify(name)} is not a header name`;
  if (RESERVED.has(name.toLowerCase()))
    return `webhook.headers: ${name} is set by edgecrawl; it cannot be given (nor content-type, content-length, host, and the signature and event headers)`;
  return null;
}

const headersSchema = z
  .record(
    z.string(),
    z
      .string()
      .max(1024, 'webhook.headers: a value is at most 1024 characters')
      .regex(/^[^\r\n\0]*$/, 'webhook.headers: a value cannot hold CR, LF or NUL'),
  )
  .superRefine((headers, ctx) => {
    const names = Object.keys(headers);
    if (names.length > MAX_HEADERS)
      ctx.addIssue({ code: 'custom', message: `webhook.headers: at most ${MAX_HEADERS} headers` });
    const seen = new Set<string>();
    for (const name of names) {
      const refusal = headerNameRefusal(name);
      if (refusal) ctx.addIssue({ code: 'custom', message: refusal, path: [name] });
      if (seen.has(name.toLowerCase()))
        ctx.addIssue({ code: 'custom', message: `webhook.headers: ${name} is given twice`, path: [name] });
      seen.add(name.toLowerCase());
    }
  })
  .describe(
    `Headers sent with every delivery (at most ${MAX_HEADERS}), e.g. the receiver's Authorization: secrets, never shown back (only their names, as headerNames).`,
  );

/**
 * A metadata value: a string as Firecrawl's are, or another JSON scalar. Not any JSON: a crawl's config crosses RPC to
 * its Durable Object, whose types a recursive JSON value makes too deep for TypeScript.
 */
export const metadataValueSchema = z.union([z.string(), z.number(), z.boolean(), z.null()]);

const metadataSchema = z
  .record(z.string(), metadataValueSchema, 'webhook.metadata: an object of strings (or numbers, booleans, null)')
  .refine((m) => new TextEncoder().encode(JSON.stringify(m)).length <= MAX_METADATA_BYTES, {
    message: `webhook.metadata: at most ${MAX_METADATA_BYTES} bytes as JSON`,
  })
  .describe(
    "Echoed as `metadata` in Firecrawl's payloads (at most 4 KB as JSON; its values strings, numbers, booleans or null); shown back.",
  );

export const webhookSchema = z
  .object({
    url: z.url({ protocol: /^https?$/, message: 'webhook.url must be an absolute http(s) URL' }).max(2048),
    format: z
      .enum(WEBHOOK_FORMATS)
      .default('edgecrawl')
      .describe(
        "edgecrawl: edgecrawl's events, signed in Edgecrawl-Signature. firecrawl: Firecrawl's payloads ({success, type, id, webhookId, data, metadata}), signed in X-Firecrawl-Signature when there is a key.",
      ),
    secret: z
      .string()
      .min(16, 'webhook.secret must be at least 16 characters')
      .max(256)
      .optional()
      .describe(
        "HMAC-SHA256 key of the signature header; never shown back. Required for format edgecrawl; for firecrawl, the deployment's WEBHOOK_SECRET signs without one.",
      ),
    events: z
      .array(z.enum(WEBHOOK_EVENTS))
      .min(1)
      .max(WEBHOOK_EVENTS.length)
      .optional()
      .describe(
        'The events sent (default: crawl.completed, crawl.cancelled, page.failed, page.changed; crawl.started and page.stored only when named); ["page.changed"]: what changed, only.',
      ),
    headers: headersSchema.optional(),
    metadata: metadataSchema.optional(),
  })
  .strict()
  .refine((w) => w.format === 'firecrawl' || w.secret !== undefined, {
    message: 'webhook.secret is required (at least 16 characters) unless webhook.format is "firecrawl"',
    path: ['secret'],
  });
