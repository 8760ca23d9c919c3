import type { WebhookEventType } from '../crawl/webhook-setting';
import type { FirecrawlDocument } from './document';

/**
 * An edgecrawl webhook event as Firecrawl's payload (`{success, type, id, webhookId, data, metadata?, error?}`), and
 * its body, kept under MAX_WEBHOOK_BODY_BYTES: a page's document sheds its largest parts first, saying so in its
 * `warning`.
 */

/** The largest body a Firecrawl-format delivery has. */
export const MAX_WEBHOOK_BODY_BYTES = 1024 * 1024;

interface FirecrawlEvent {
  /** The event's id: Firecrawl's webhookId, the same on every delivery of the event. */
  id: string;
  type: WebhookEventType;
  crawlId: string;
  data: Record<string, unknown>;
}

export interface FirecrawlPayloadInput {
  event: FirecrawlEvent;
  /** A batch scrape's events are batch_scrape.*, a crawl's crawl.*. */
  kind: 'crawl' | 'batch';
  metadata?: Record<string, unknown>;
  /** The page's document (page.stored, page.changed); null when it could not be read (no longer stored). */
  document?: FirecrawlDocument | null;
  /** Why the job failed: a crawl.completed of a job with no document is sent as crawl.failed. */
  failure?: string | null;
}

export interface FirecrawlPayload {
  success: boolean;
  type: string;
  id: string;
  webhookId: string;
  data: FirecrawlDocument[];
  metadata?: Record<string, unknown>;
  error?: string;
}

const NAMES: Record<WebhookEventType, 'started' | 'page' | 'completed' | 'cancelled'> = {
  'crawl.started': 'started',
  'crawl.completed': 'completed',
  'crawl.cancelled': 'cancelled',
  'page.stored': 'page',
  'page.changed': 'page',
  'page.failed': 'page',
};

/** Why a page's document could not be read: gone, or a duplicate whose kept page has no content (it failed). */
function unread(event: FirecrawlEvent, url: string): string {
  const of = event.data.duplicateOf;
  return typeof of === 'string'
    ? `the document of ${url} could not be read: it is a duplicate of ${of}, whose content is not stored`
    : `the document of ${url} could not be read: it is no longer stored`;
}

/** What the event says in Firecrawl's terms: whether it went well, its documents, and what went wrong. */
function outcomeOf(input: FirecrawlPayloadInput): Pick<FirecrawlPayload, 'success' | 'data' | 'error'> {
  const { event, document } = input;
  const url = typeof event.data.url === 'string' ? event.data.url : '';
  switch (event.type) {
    case 'page.failed':
      return { success: false, data: [], error: typeof event.data.reason === 'string' ? event.data.reason : 'failed' };
    case 'page.stored':
    case 'page.changed':
      return document ? { success: true, data: [document] } : { success: false, data: [], error: unread(event, url) };
    case 'crawl.cancelled':
      return { success: false, data: [], error: 'cancelled' };
    case 'crawl.completed':
      return input.failure ? { success: false, data: [], error: input.failure } : { success: true, data: [] };
    default:
      return { success: true, data: [] };
  }
}

export function firecrawlPayload(input: FirecrawlPayloadInput): FirecrawlPayload {
  const { event, kind, metadata } = input;
  return {
    ...outcomeOf(input),
    type: `${kind === 'batch' ? 'batch_scrape' : 'crawl'}.${input.failure && event.type === 'crawl.completed' ? 'failed' : NAMES[event.type]}`,
    id: event.crawlId,
    webhookId: event.id,
    ...(metadata && Object.keys(metadata).length > 0 ? { metadata } : {}),
  };
}

/** A document's parts dropped, in this order, while its payload is too large (markdown is cut last). */
const SHED = ['rawHtml', 'screenshot', 'html', 'links', 'images'] as const;

const bytes = (text: string) => new TextEncoder().encode(text).length;

/** The document without `dropped` (and its markdown as given), its warning saying what was left out. */
function shedding(
  doc: FirecrawlDocument,
  dropped: readonly string[],
  max: number,
  markdown?: string,
): FirecrawlDocument {
  const kept: FirecrawlDocument = { ...doc, ...(markdown === undefined ? {} : { markdown }) };
  for (const key of dropped) delete kept[key];
  const what = [...dropped, ...(markdown === undefined ? [] : ['the end of markdown'])].join(', ');
  const note = `${what} left out of this webhook (its body is at most ${max} bytes); read the page through the API`;
  const before = typeof doc.warning === 'string' && doc.warning !== '' ? `${doc.warning}; ` : '';
  return { ...kept, warning: `${before}${note}` };
}

/** The markdown cut by at least `excess` characters (each is a byte or more of the body), a pair never split. */
function cutMarkdown(markdown: string, excess: number): string {
  let end = Math.max(0, markdown.length - excess - 64);
  const last = markdown.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return markdown.slice(0, end);
}

/**
 * The payload's JSON, its page's document shedding parts (SHED, then the end of its markdown) until the body is at
 * most `max` bytes. What is left (metadata, json, summary) is sent whatever its size.
 */
export function firecrawlBody(payload: FirecrawlPayload, max = MAX_WEBHOOK_BODY_BYTES): string {
  const doc = payload.data[0];
  let body = JSON.stringify(payload);
  if (doc === undefined || bytes(body) <= max) return body;
  const bodyOf = (d: FirecrawlDocument) => JSON.stringify({ ...payload, data: [d] });
  const dropped: string[] = [];
  for (const key of SHED.filter((k) => k in doc)) {
    dropped.push(key);
    body = bodyOf(shedding(doc, dropped, max));
    if (bytes(body) <= max) return body;
  }
  let markdown = typeof doc.markdown === 'string' ? doc.markdown : '';
  while (markdown !== '' && bytes(body) > max) {
    markdown = cutMarkdown(markdown, bytes(body) - max);
    body = bodyOf(shedding(doc, dropped, max, markdown));
  }
  return body;
}
