import type { ExtractSpec } from './domain/extract/spec';
import type { RenderMode, WaitFor } from './domain/render';
import type { Scope } from './domain/scope';
import type { FrontierEntry, Outcome, TaskKind } from './domain/url-life';

export type { FrontierEntry, Outcome };

/** A validated crawl request, as stored with the job. */
export interface CrawlConfig {
  seeds: string[];
  scope: Scope;
  include: string[];
  exclude: string[];
  maxDepth: number | null;
  maxPages: number | null;
  /** This crawl's minimum gap between requests to one host; the host's own limits can only raise it. */
  hostIntervalMs: number | null;
  /** This crawl starts no request to a host while this many are in flight to it (the host's cap still applies). */
  hostConcurrency: number | null;
  /** Read the seeds' sitemaps (robots.txt Sitemap lines and /sitemap.xml) for more pages. */
  sitemaps: boolean;
  /**
   * Set by the scheduler (never by the API): the crawl is a recrawl, tracking what changed. With a
   * previous crawl id, requests are conditional on what that crawl fetched; `true` for a schedule's first run.
   */
  recrawlOf?: string | true;
  /** 'high': every URL goes to the high-priority queue, ahead of normal work already queued. */
  priority?: 'high' | 'normal';
  /** URL patterns of hub pages (category or index pages) to fetch ahead of the rest of the crawl. */
  boost?: string[];
  /** Where crawl.completed, crawl.cancelled and page.failed events are POSTed, signed with the secret. */
  webhook?: Webhook | null;
  /** What each HTML page is extracted into (markdown, metadata, fields, ...); none: the raw body, title and links only. */
  extract?: ExtractSpec | null;
  /** Days the crawl's data is kept once it has ended; then the cron trigger purges it. None: kept until deleted. */
  retentionDays?: number | null;
  /** Rendering pages in a browser: 'auto' (the default: only pages that need it), 'always' or 'never'. */
  render?: RenderMode;
  /** What a render waits for before it reads the page: milliseconds, or a CSS selector (bounded). */
  waitFor?: WaitFor | null;
  /** Renders the crawl may make (then pages are stored unrendered, with a warning); null: no cap. */
  maxRenders?: number | null;
}

export interface Webhook {
  url: string;
  /** HMAC-SHA256 key of the Edgecrawl-Signature header. Never shown by the API. */
  secret: string;
}

export type CrawlStatus = 'running' | 'completed' | 'cancelled';

export interface Counts {
  /** Unique in-scope URLs accepted into the frontier. Each ends stored, failed or skipped. */
  discovered: number;
  /** HTTP responses received (any status). */
  fetched: number;
  stored: number;
  failed: number;
  skipped: number;
}

export interface CrawlSnapshot {
  id: string;
  status: CrawlStatus;
  counts: Counts;
  /** URLs queued or in flight. */
  pending: number;
}

/** The body of a frontier queue message. */
export interface CrawlTask extends FrontierEntry {
  crawlId: string;
}

/**
 * Where stored bytes are: the R2 object `key` and the byte range [offset, offset + length) in it, as segments hold a
 * chunk's bodies, records and links back to back. A null offset (or length): the whole object.
 */
export interface Span {
  key: string;
  offset: number | null;
  length: number | null;
}

/** A fetched page as D1 records it. */
export interface PageRecord {
  url: string;
  status: number;
  contentType: string | null;
  title: string | null;
  depth: number;
  bytes: number;
  fetchedAt: number;
  /** Where the body is stored; null: not stored (not a 2xx response). */
  bodyAt: Span | null;
  redirectTo: string | null;
  etag?: string | null;
  lastModified?: string | null;
  /** In a scheduled crawl: new, changed or unchanged since the previous crawl. */
  change?: 'new' | 'changed' | 'unchanged' | null;
  /** SHA-256 (hex) of the page's content: its extracted text when the crawl extracts, else its body. */
  contentHash?: string | null;
  description?: string | null;
  language?: string | null;
  wordCount?: number | null;
  /** What could not be read of the page (too large to parse, markup the parser gave up on, ...). */
  warnings?: string[];
  /** Where the page's extraction record is stored (JSON of the record and its outputs); null: it has none. */
  recordAt?: Span | null;
  /** Where the page's outgoing links are stored (newline-separated URLs); null: it has none. */
  linksAt?: Span | null;
  /** Why the page was rendered in a browser ('always', 'screenshot', 'auto: <reason>'); null: it was not. */
  rendered?: string | null;
  /** A rendered page: where its HTML as fetched is stored (its body is the rendered DOM). */
  fetchedBodyAt?: Span | null;
  /** Where the page's PNG screenshot is stored; null: none was taken. */
  screenshotAt?: Span | null;
}

/** What extraction sets on a page's row: its facts and where its record is. */
export type ExtractedPage = Pick<
  PageRecord,
  'url' | 'title' | 'description' | 'language' | 'wordCount' | 'contentHash' | 'warnings' | 'recordAt'
>;

/** A claimed URL, fetched and decided: what the consumer records and reports. */
export interface Processed {
  outcome: Outcome;
  attempts: number;
  page?: PageRecord;
  /** Outgoing links recorded for the page (at most MAX_LINKS_RECORDED). */
  links?: string[];
  /** The body of a 2xx page, to be written to R2 with the rest of its chunk (see writeSegments). */
  body?: Uint8Array;
  /** The page's extraction record, encoded, written to R2 beside the body. */
  record?: Uint8Array;
  /** A rendered page's HTML as fetched (its `body` is then the rendered DOM), stored beside it. */
  fetchedBody?: Uint8Array;
  /** The page's PNG screenshot, stored beside its body. */
  screenshot?: Uint8Array;
}

/** A claimed URL, as the Durable Object knows it. */
export interface Claim {
  depth: number;
  hops: number;
  kind: TaskKind;
  /** This claim included. */
  attempts: number;
  /** A slot reserved for the URL on its host's timeline when it was last throttled (epoch ms of its start). */
  reservedAt?: number;
}
