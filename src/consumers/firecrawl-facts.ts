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
    return { kind, document: url === null ? null : (documents.get(url) ?? null) };
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
