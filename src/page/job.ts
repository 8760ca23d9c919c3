import type { DuplicateMode } from '../domain/duplicates';
import type { ExtractSpec } from '../domain/extract/spec';
import type { LinkPolicy } from '../domain/policy';
import type { Limit } from '../lib/limit';
import type { Settings } from '../settings';
import type { PreviousVersion } from '../storage/d1/pages';
import type { Claim, CrawlTask, Outcome, PageRecord, Processed } from '../types';
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
  /** What the crawl does with duplicates (domain/duplicates.ts); none: keep them. */
  duplicates?: DuplicateMode;
  /** What each HTML page is extracted into; none: links and title only. */
  extract?: ExtractSpec | null;
  /** A scheduled crawl: what the previous crawl fetched (for conditional GETs), or none for a first run. */
  recrawl?: {
    previous: Map<string, PreviousVersion>;
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
  /** Rendering pages in a browser (page/rendering.ts); none: pages are stored as fetched. */
  render?: RenderDeps | null;
  now?: () => number;
}

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
 * the last attempt, as domain/url-life.ts decides. The page of the response, if any, is recorded only if it fails.
 */
export function transient(
  job: Job,
  reason: string,
  fetched: boolean,
  delaySeconds?: number,
  page?: PageRecord,
): Processed {
  const retryDelaySeconds = delaySeconds === undefined ? {} : { retryDelaySeconds: delaySeconds };
  return finish(job, { kind: 'retry', fetched, reason, ...retryDelaySeconds }, page ? { page } : {});
}
