/**
 * What firecrawl-py (Firecrawl's Python SDK) requires of the answers it reads, written here from its pydantic models
 * (no code of its own is copied): the fields each model requires, their types, and the values its Literal types allow.
 * pydantic ignores keys a model does not name, so the objects are loose. Sources, github.com/firecrawl/firecrawl,
 * apps/python-sdk/firecrawl/:
 *
 * - v2: `v2/types.py` at bef2828a (Document, DocumentMetadata, CrawlResponse, CrawlJob, BatchScrapeResponse,
 *   BatchScrapeJob, CrawlError, CrawlErrorsResponse, ActiveCrawl, LinkResult), read after `v2/utils/normalize.py` at
 *   059252cd turned the answer's camelCase keys into the models' snake_case ones (named here as the API sends them);
 * - v1: `v1/client.py` at 61e38dc8 (V1FirecrawlDocument, V1ActionsResult, V1ChangeTrackingData, V1CrawlStatusResponse,
 *   V1BatchScrapeStatusResponse, V1CrawlErrorsResponse, V1MapResponse), which the 3.x and later packages keep as
 *   `firecrawl.v1`, and which was the whole client (FirecrawlApp) before 3.0.
 */
import { z } from 'zod';

/** pydantic's `datetime` from a JSON string: an ISO 8601 date and time. */
const datetime = z.string().refine((s) => /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/.test(s) && !Number.isNaN(Date.parse(s)));
/** pydantic's `int`: a whole number. */
const int = z.number().int();
const optional = <T extends z.ZodType>(schema: T) => schema.nullish();
/** pydantic's Optional[str] for metadata, after normalize.py joined lists into one string. */
const text = optional(z.union([z.string(), z.array(z.string())]));

const v2Metadata = z.looseObject({
  title: text,
  description: text,
  url: text,
  language: text,
  keywords: text,
  sourceURL: text,
  statusCode: optional(z.union([int, z.string().regex(/^\d+$/)])),
  scrapeId: text,
  numPages: optional(int),
  contentType: text,
  proxyUsed: optional(z.enum(['basic', 'stealth'])),
  cacheState: optional(z.enum(['hit', 'miss'])),
  cachedAt: text,
  creditsUsed: optional(int),
  error: text,
});

/** v2 Document. */
const v2Document = z.looseObject({
  markdown: optional(z.string()),
  html: optional(z.string()),
  rawHtml: optional(z.string()),
  json: z.unknown().optional(),
  summary: optional(z.string()),
  metadata: optional(v2Metadata),
  links: optional(z.array(z.string())),
  images: optional(z.array(z.string())),
  screenshot: optional(z.string()),
  actions: optional(z.record(z.string(), z.unknown())),
  warning: optional(z.string()),
  changeTracking: optional(z.record(z.string(), z.unknown())),
});

const status = z.enum(['scraping', 'completed', 'failed', 'cancelled']);

/** The answers the v2 methods read, each as the method reads it (`success` first checked where it is). */
export const v2 = {
  scrape: z.looseObject({ success: z.literal(true), data: v2Document }),
  /** start_crawl: CrawlResponse(id, url). */
  started: z.looseObject({ success: z.literal(true), id: z.string(), url: z.string() }),
  /** start_batch_scrape: BatchScrapeResponse(id, url, invalid_urls). */
  batchStarted: z.looseObject({
    success: z.literal(true),
    id: z.string(),
    url: z.string(),
    invalidURLs: optional(z.array(z.string())),
  }),
  /** get_crawl_status: CrawlJob (completed, total and creditsUsed default to 0 when absent, never null). */
  crawlJob: z.looseObject({
    success: z.literal(true),
    status,
    completed: int.optional(),
    total: int.optional(),
    creditsUsed: int.optional(),
    expiresAt: optional(datetime),
    next: optional(z.string()),
    data: z.array(v2Document),
  }),
  /** get_batch_scrape_status: BatchScrapeJob (creditsUsed may be null). */
  batchJob: z.looseObject({
    success: z.literal(true),
    status,
    completed: int.optional(),
    total: int.optional(),
    creditsUsed: optional(int),
    expiresAt: optional(datetime),
    next: optional(z.string()),
    data: z.array(v2Document),
  }),
  /** get_crawl_errors: CrawlErrorsResponse (read from `data` when there is one, else the body). */
  errors: z.looseObject({
    errors: z.array(
      z.looseObject({
        id: z.string(),
        timestamp: optional(datetime),
        url: z.string(),
        code: optional(z.string()),
        error: z.string(),
      }),
    ),
    robotsBlocked: z.array(z.string()),
  }),
  /** active_crawls: ActiveCrawl(id, team_id, url, options). */
  active: z.looseObject({
    success: z.literal(true),
    crawls: z.array(
      z.looseObject({
        id: z.string(),
        teamId: z.string(),
        url: z.string(),
        options: optional(z.record(z.string(), z.unknown())),
      }),
    ),
  }),
  /** map: LinkResult(url, title, description) from each object, or a bare string. */
  map: z.looseObject({
    success: z.literal(true),
    links: z.array(
      z.union([
        z.string(),
        z.looseObject({ url: z.string(), title: optional(z.string()), description: optional(z.string()) }),
      ]),
    ),
  }),
};

/** V1FirecrawlDocument (metadata is Any). */
const v1Document = z.looseObject({
  url: optional(z.string()),
  markdown: optional(z.string()),
  html: optional(z.string()),
  rawHtml: optional(z.string()),
  links: optional(z.array(z.string())),
  extract: z.unknown().optional(),
  json: z.unknown().optional(),
  screenshot: optional(z.string()),
  metadata: z.unknown().optional(),
  actions: optional(z.looseObject({ screenshots: z.array(z.string()), pdfs: z.array(z.string()) })),
  title: optional(z.string()),
  description: optional(z.string()),
  changeTracking: optional(
    z.looseObject({
      previousScrapeAt: optional(z.string()),
      changeStatus: z.string(),
      visibility: z.string(),
      diff: optional(z.record(z.string(), z.unknown())),
      json: z.unknown().optional(),
    }),
  ),
});

/** V1CrawlStatusResponse and V1BatchScrapeStatusResponse: the same fields, `expiresAt` and `creditsUsed` required. */
const v1Job = z.looseObject({
  success: z.boolean().optional(),
  status,
  completed: int,
  total: int,
  creditsUsed: int,
  expiresAt: datetime,
  next: optional(z.string()),
  data: z.array(v1Document),
});

export const v1 = {
  /** scrape_url: V1ScrapeResponse(**body.data), after `success` and `data`. */
  scrape: z.looseObject({ success: z.literal(true), data: v1Document }),
  /** crawl_url, batch_scrape_urls: the id of the answer to the start, then _monitor_job_status. */
  started: z.looseObject({ id: z.string() }),
  job: v1Job,
  errors: v2.errors,
  /** map_url: V1MapResponse, after `success` and `links`. */
  map: z.looseObject({ success: z.literal(true), links: z.array(z.string()) }),
};
