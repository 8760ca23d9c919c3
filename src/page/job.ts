import type { DuplicateMode } from '../domain/crawl/duplicates';
import type { OutcomeCode } from '../domain/crawl/outcome-codes';
import type { ExtractSpec } from '../domain/extract/spec-schema';
import type { LinkPolicy } from '../domain/url/link-policy';
import type { Limit } from '../lib/limit';
import type { Settings } from '../settings';
import type { PreviousVersion } from '../storage/d1/pages';
import type { Claim, CrawlTask, Outcome, PageRecord, Processed } from '../types';
import type { CachedBody } from './cache';
import type { Connections } from './connections';
import type { CrawlPoliteness, Gate } from './gate';
import type { RenderDeps } from './rendering';

export interface ProcessDeps {
  settings: Settings;
  policy: LinkPolicy;
  /** Whether a sitemap URL belongs to the crawl (scope only). */
  sitemapInScope: (url: string) => boolean;
  /** The crawl reads sitemaps: its seeds look up their robots.txt Sitemap lines and /sitemap.xml. */
  readSitemaps: boolean;
  /** What the crawl does with duplicates (domain/crawl/duplicates.ts); none: keep them. */
  duplicates?: DuplicateMode;
  /** What each HTML page is extracted into; none: links and title only. */
  extract?: ExtractSpec | null;
  /** A recrawl without extraction: pages are hashed by what this spec reads of them (their main text), not bytes. */
  compare?: ExtractSpec;
  /** A recrawl: what the previous crawl fetched (to compare, and for conditional GETs), or none for a first run. */
  recrawl?: {
    previous: Map<string, PreviousVersion>;
    /**
     * Requests are conditional on the previous crawl's validators (a schedule's runs): a 304 keeps pointing at its
     * body. A crawl given a previousCrawlId fetches in full, so it holds no reference into the other crawl's data.
     */
    conditional: boolean;
    /** The previous version hashed as this crawl hashes pages, when the hashes differ (see previousHash). */
    rehash?: (url: string, previous: PreviousVersion) => Promise<string | null>;
    links: (url: string, previous: PreviousVersion) => Promise<string[]>;
  } | null;
  crawlId: string;
  /** robots.txt and the host's rate limiter. */
  gate: Gate;
  /** The crawl's own politeness towards each host. */
  politeness: CrawlPoliteness;
  /** The consumer invocation's cap on requests in flight (settings.fetchConcurrency); none: no cap. */
  limit?: Limit;
  /** The invocation's connections (at most six waiting for headers; see Connections). */
  connections?: Connections;
  /**
   * Asked right before a request goes out: a reason to hand the URL back unfetched (the crawl was cancelled, the
   * claim's lease would run out before the fetch could end), or null to go.
   */
  beforeFetch?: () => Promise<string | null>;
  /**
   * The page cache (maxAge): a URL's stored copy fresh enough to be served instead of a request to the site, or null;
   * none: every URL is fetched.
   */
  cache?: (url: string) => Promise<CachedBody | null>;
  /** Rendering pages in a browser (page/rendering.ts); none: pages are stored as fetched. */
  render?: RenderDeps | null;
  now?: () => number;
}

/** Outgoing links recorded per page, in R2 beside its body (all of them are still considered for crawling). */
export const MAX_LINKS_RECORDED = 1000;

/** A claimed task being worked on: the one place outcomes are built. */
export interface Job {
  task: CrawlTask;
  claim: Claim;
  deps: ProcessDeps;
  /** Deliveries of the URL's message, this one included (bounds the retries of faults that use up no attempt). */
  deliveries: number;
}

/** An outcome before it names its URL. */
type Decided = Outcome extends infer O ? (O extends Outcome ? Omit<O, 'url'> : never) : never;

/** The one outcome builder: what became of the job's URL, with what is recorded of it. */
export function finish(job: Job, outcome: Decided, extra: Omit<Processed, 'outcome' | 'attempts'> = {}): Processed {
  return { outcome: { ...outcome, url: job.task.url }, attempts: job.claim.attempts, ...extra };
}

/**
 * A transient failure: to be tried again (after `delaySeconds`; none: the attempt's backoff), or failed for good on
 * the last attempt, as domain/crawl/url-life.ts decides. The page of the response, if any, is recorded only if it fails.
 */
export function transient(
  job: Job,
  { reason, code }: { reason: string; code: OutcomeCode },
  fetched: boolean,
  delaySeconds?: number,
  page?: PageRecord,
): Processed {
  const retryDelaySeconds = delaySeconds === undefined ? {} : { retryDelaySeconds: delaySeconds };
  return finish(job, { kind: 'retry', fetched, reason, code, ...retryDelaySeconds }, page ? { page } : {});
}

/**
 * A 2xx page of a recrawl: new since the previous crawl, unchanged when its content hash is the previous one's (a
 * server that ignores conditional requests; noise outside the content), or changed. Hashes that differ are checked
 * again on the previous body when the crawls hashed pages differently (recrawl.rehash).
 */
export async function changeOf(
  job: Job,
  page: PageRecord,
  previous: PreviousVersion | undefined,
): Promise<'new' | 'changed' | 'unchanged'> {
  if (!previous) return 'new';
  if (!previous.contentHash || !page.contentHash) return 'changed';
  if (previous.contentHash === page.contentHash) return 'unchanged';
  const again = await job.deps.recrawl?.rehash?.(job.task.url, previous).catch(() => null);
  return again === page.contentHash ? 'unchanged' : 'changed';
}
