import type { OutcomeCode } from '../domain/crawl/outcome-codes';
import type { PreviousVersion } from '../storage/d1/previous-versions';
import type { Claim, CrawlTask, FrontierEntry, Outcome, PageRecord, Processed } from '../types';
import type { PipelineDeps } from './deps';

/** Outgoing links recorded per page, in R2 beside its body (all of them are still considered for crawling). */
export const MAX_LINKS_RECORDED = 1000;

/**
 * The URLs found on the job's page that the crawl follows, one level deeper (at `depth`): each cleaned as the crawl
 * cleans URLs (session ids stripped), taken by its policy, once each.
 */
export function followable(job: Job, urls: readonly string[], depth = job.claim.depth + 1): FrontierEntry[] {
  // A crawl that follows no link still takes the pages its sitemaps list.
  if (job.deps.followLinks === false && job.claim.kind !== 'sitemap') return [];
  const clean = job.deps.cleanUrl ?? ((url: string) => url);
  const seen = new Set<string>();
  const out: FrontierEntry[] = [];
  for (const found of urls) {
    const url = clean(found);
    if (seen.has(url) || !job.deps.policy(url, depth)) continue;
    seen.add(url);
    out.push({ url, depth, hops: 0 });
  }
  return out;
}

/** A claimed task being worked on: the one place outcomes are built. */
export interface Job {
  task: CrawlTask;
  claim: Claim;
  deps: PipelineDeps;
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
async function changeOf(
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

/** A recrawl's page says whether it changed since the previous crawl (changeOf); other pages are as they are. */
export async function withChange(
  job: Job,
  processed: Processed,
  previous: PreviousVersion | undefined,
): Promise<Processed> {
  const { page } = processed;
  if (job.deps.recrawl === null || page === undefined) return processed;
  return { ...processed, page: { ...page, change: await changeOf(job, page, previous) } };
}
