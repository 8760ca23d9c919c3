import { type FirecrawlDocument, firecrawlDocument } from '../domain/firecrawl/document';
import { formatsOfSpec } from '../domain/firecrawl/formats';
import type { FirecrawlEventName } from '../domain/firecrawl/webhook-options';
import type { WebhookEvent } from '../queues/webhook-events';
import type { CrawlRow } from '../storage/d1/crawls';
import { listErrors } from '../storage/d1/errors';
import { countDocuments } from '../storage/d1/firecrawl-documents';
import { getFirecrawlJob } from '../storage/d1/firecrawl-jobs';
import { documentsOf } from '../storage/firecrawl-pages';
import type { FirecrawlFacts } from './webhook-request';

/** What Firecrawl payloads of a crawl's events need: its kind, the events it asked for, its pages' documents. */
interface CrawlFacts {
  kind: 'crawl' | 'batch';
  events: FirecrawlEventName[] | null;
  documents: Map<string, FirecrawlDocument>;
}

/** The page of an event that carries a document in Firecrawl's format (page.stored, page.changed), or null. */
const documentUrl = (event: WebhookEvent): string | null =>
  (event.type === 'page.stored' || event.type === 'page.changed') && typeof event.data.url === 'string'
    ? event.data.url
    : null;

/**
 * How long a duplicate's event waits for its kept page to be recorded: a canonical is fetched after the pages naming
 * it, and a content duplicate's kept page may still be being written by another consumer. Retried with the
 * delivery's backoff (5 s doubling: about 10 minutes is 7 tries); past it, the event is sent without its document.
 */
const KEPT_PAGE_WAIT_MS = 10 * 60_000;

/** Throws (the event is tried again later) while a duplicate's kept page may not be recorded yet. */
function waitForKeptPage(event: WebhookEvent, url: string, now = Date.now()): void {
  const of = event.data.duplicateOf;
  if (typeof of !== 'string' || now - Date.parse(event.createdAt) > KEPT_PAGE_WAIT_MS) return;
  throw new Error(`${url} is a duplicate of ${of}, whose content is not recorded yet`);
}

/** A sitemap the crawl looked for: not a page the user asked for (as Firecrawl's error list leaves them out). */
const SITEMAP = /\.xml(\.gz)?$/i;

/**
 * Why a completed crawl failed as Firecrawl counts it: it has no document (its login failed, its seeds were refused or
 * could not be read), said by its first error; null: it has documents.
 */
async function failureOf(db: D1Database, crawlId: string): Promise<string | null> {
  if ((await countDocuments(db, crawlId)) > 0) return null;
  const first = (await listErrors(db, crawlId, 10, null, null)).find((r) => !SITEMAP.test(r.url));
  const why = first ? `: ${first.url}: ${first.reason ?? first.code}` : '';
  return `the crawl ended with no page${why}`;
}

/**
 * The Firecrawl facts of a batch of webhook events: per crawl, its Firecrawl job (what its documents carry: the job's
 * formats, or those its extraction makes for a crawl started through edgecrawl's API) read once, and the documents of
 * all its events' pages read together (one D1 query, then their records from R2).
 */
export class FirecrawlFactsReader {
  private readonly urls = new Map<string, Set<string>>();
  private readonly crawls = new Map<string, Promise<CrawlFacts>>();

  constructor(
    private readonly env: Env,
    events: readonly WebhookEvent[],
  ) {
    for (const event of events) {
      const url = documentUrl(event);
      if (url === null) continue;
      const urls = this.urls.get(event.crawlId) ?? new Set();
      this.urls.set(event.crawlId, urls.add(url));
    }
  }

  /** The facts of an event of a crawl whose webhook is in Firecrawl's format; throws when they cannot be read. */
  async factsOf(event: WebhookEvent, crawl: CrawlRow): Promise<FirecrawlFacts> {
    const facts = this.crawls.get(crawl.id) ?? this.read(crawl);
    this.crawls.set(crawl.id, facts);
    const { kind, events, documents } = await facts;
    const url = documentUrl(event);
    const document = url === null ? null : (documents.get(url) ?? null);
    if (url !== null && document === null) waitForKeptPage(event, url);
    const failure = event.type === 'crawl.completed' ? await failureOf(this.env.DB, crawl.id) : null;
    return { kind, document, events, failure };
  }

  private async read(crawl: CrawlRow): Promise<CrawlFacts> {
    const job = await getFirecrawlJob(this.env.DB, crawl.id);
    const formats = job?.formats ?? formatsOfSpec(crawl.extract);
    const urls = [...(this.urls.get(crawl.id) ?? [])];
    const pages = await documentsOf(
      this.env.DB,
      this.env.BODIES,
      crawl.id,
      urls,
      formats,
      crawl.config.previousCrawlId,
    );
    return {
      kind: job?.kind ?? 'crawl',
      events: job?.events ?? null,
      documents: new Map(pages.map((page) => [page.url, firecrawlDocument(page, formats)])),
    };
  }
}
