import { type FirecrawlDocument, firecrawlDocument } from '../domain/firecrawl/document';
import { formatsOfSpec } from '../domain/firecrawl/formats';
import type { WebhookEvent } from '../queues/webhook-events';
import type { CrawlRow } from '../storage/d1/crawls';
import { getFirecrawlJob } from '../storage/d1/firecrawl-jobs';
import { documentsOf } from '../storage/firecrawl-pages';
import type { FirecrawlFacts } from './webhook-request';

/** What Firecrawl payloads of a crawl's events need: its kind, and the documents of their pages. */
interface CrawlFacts {
  kind: 'crawl' | 'batch';
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
    const { kind, documents } = await facts;
    const url = documentUrl(event);
    const document = url === null ? null : (documents.get(url) ?? null);
    if (url !== null && document === null) waitForKeptPage(event, url);
    return { kind, document };
  }

  private async read(crawl: CrawlRow): Promise<CrawlFacts> {
    const job = await getFirecrawlJob(this.env.DB, crawl.id);
    const formats = job?.formats ?? formatsOfSpec(crawl.extract);
    const urls = [...(this.urls.get(crawl.id) ?? [])];
    const pages = await documentsOf(this.env.DB, this.env.BODIES, crawl.id, urls, formats);
    return {
      kind: job?.kind ?? 'crawl',
      documents: new Map(pages.map((page) => [page.url, firecrawlDocument(page, formats)])),
    };
  }
}
