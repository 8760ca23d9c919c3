import type { DuplicateReason, FrontierEntry, Outcome, TaskKind } from './domain/crawl/url-life';

export type { FrontierEntry, Outcome };

import type { ChangeCounts, Reach } from './domain/crawl/reach';
import type { CrawlConfig } from './domain/crawl/settings';

export type { CrawlConfig };

/** Where a crawl's events are POSTed, and the key that signs them. */
export type Webhook = NonNullable<CrawlConfig['webhook']>;

export type CrawlStatus = 'running' | 'completed' | 'cancelled';

export interface Counts {
  /** Unique in-scope URLs accepted into the frontier. Each ends stored, duplicate, failed or skipped. */
  discovered: number;
  /** HTTP responses received (any status). */
  fetched: number;
  stored: number;
  failed: number;
  skipped: number;
  /** Fetched, and recorded as a duplicate of another URL of the crawl (its content stored once, there). */
  duplicates: number;
}

/** What a crawl came to, for lists: its counts, the URLs still pending, and its estimated cost so far in US dollars. */
export interface CrawlSummary {
  counts: Counts;
  pending: number;
  usd: number;
  /** An ended crawl's: whether it reached every page it found a link to (domain/crawl/reach.ts). */
  reach?: Reach;
  /** An ended recrawl's pages by kind, counted when it ended. */
  changes?: ChangeCounts;
}

export interface CrawlSnapshot {
  id: string;
  status: CrawlStatus;
  counts: Counts;
  /** URLs queued or in flight. */
  pending: number;
  /** When it last completed or was cancelled (ms since the epoch); null while it runs. */
  finishedAt: number | null;
  /** The sitemap files among `counts` (discovered, stored): not pages (Firecrawl's counts leave them out). */
  sitemaps?: { discovered: number; stored: number };
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

/** Where in the object of a page's body (its chunk's segment) another of its parts is: a byte range. */
export interface SegmentRange {
  offset: number;
  length: number;
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
  /**
   * Where in its body's object the HTTP exchange of its fetch is stored (the request as made, the response's status
   * line and headers as received; storage/exchange.ts); null: not recorded (a page from the page cache, a 304, a page
   * stored before exchanges were kept).
   */
  exchangeAt?: SegmentRange | null;
  /**
   * Taken from the page cache (maxAge): the crawl whose stored copy of the page was used ('scrape': a scrape's), the
   * page's fetchedAt being that copy's; null: fetched from the site.
   */
  cachedFrom?: string | null;
  /** A duplicate: the URL of the crawl its content is stored under; null: it is not one. */
  duplicateOf?: string | null;
  /** Why it is a duplicate: its rel=canonical names `duplicateOf`, or that page had its content first. */
  duplicateReason?: DuplicateReason | null;
  /** A near-duplicate's similarity to duplicateOf (1 - differing sketch bits / 64); null for any other page. */
  similarity?: number | null;
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
  /** The HTTP exchange of the page's fetch, encoded (storage/exchange.ts), stored beside its body. */
  exchange?: Uint8Array;
  /** The URL the page's rel=canonical sends its content to (domain/crawl/duplicates.ts canonicalTarget), if any. */
  canonical?: string;
  /** The text of the page's first <h1>, when extraction read one (domain/crawl/duplicates.ts contentKey compares it). */
  heading?: string;
  /** The status of a response whose page is not recorded as one (a soft 404: its errors row keeps the status). */
  httpStatus?: number;
  /**
   * Similarity sketches of the page's main text (domain/similarity), made once here: `text` finds near-duplicates,
   * `template` (digits and the URL's own words masked) is what the trap rules compare pages of one pattern by.
   */
  sketches?: { text: string | null; template: string | null };
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
  /**
   * A trap rule keeps the URL out (its pattern was found a trap after it was queued): end it skipped, code `trap`, for
   * this reason, without a request; `fold`: the URL without a parameter that never changes a page, to offer instead.
   */
  trap?: { reason: string; fold?: string };
}
