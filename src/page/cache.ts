import { cachedBodyUse, freshSince } from '../domain/crawl/page-cache';
import type { UsageMeter } from '../domain/crawl/usage';
import { isHtml } from '../domain/html/page';
import type { RenderMode } from '../domain/render/rules';
import { type CachedPage, freshPages } from '../storage/d1/page-cache';
import { readSpan } from '../storage/spans';
import type { PageRecord, Processed } from '../types';
import type { CachedBody } from './deps';
import { finish, type Job, withChange } from './job';
import { pageNeed, readBody } from './read';

/** How a request renders, for the page cache: its mode, and whether it wants a browser of its own. */
export interface CacheRequest {
  render: RenderMode;
  wantsBrowser: boolean;
}

/**
 * The body of a cached page that fits the request (domain/crawl/page-cache.ts), read from R2 (one ranged read); null when
 * none fits, when an unrendered page would need rendering, or when the copy is gone from R2 (its crawl purged).
 */
async function cachedBody(
  bucket: R2Bucket,
  page: CachedPage,
  request: CacheRequest,
  meter?: UsageMeter,
): Promise<CachedBody | null> {
  const use = cachedBodyUse(request, { rendered: page.rendered !== null, hasFetched: page.fetchedBodyAt !== null });
  if (use === null) return null;
  const span = use === 'fetched' ? page.fetchedBodyAt : page.bodyAt;
  const body = span ? await readSpan(bucket, span, meter) : null;
  if (body === null) return null;
  // As a fetch decides it: HTML only, and the words extraction counted then, when it did, spare the scan.
  if (use === 'check' && isHtml(page.contentType) && pageNeed(body, page.contentType, page.wordCount) !== null)
    return null;
  const { crawlId, status, contentType, fetchedAt, etag, lastModified } = page;
  const rendered = use === 'body' ? page.rendered : null;
  // A rendered copy's HTML as fetched: one more ranged read, for rendered pages only.
  const fetchedBody =
    rendered !== null && page.fetchedBodyAt ? await readSpan(bucket, page.fetchedBodyAt, meter) : null;
  return { crawlId, status, contentType, fetchedAt, etag, lastModified, rendered, body, fetchedBody };
}

/**
 * The cache lookup of a group of URLs: their fresh copies found in one read (freshPages), each body read when its URL
 * is processed.
 */
export async function cacheLookup(
  env: Pick<Env, 'DB' | 'BODIES'>,
  urls: readonly string[],
  {
    maxAge,
    request,
    exceptCrawl,
    meter,
  }: { maxAge: number; request: CacheRequest; exceptCrawl?: string; meter?: UsageMeter },
): Promise<(url: string) => Promise<CachedBody | null>> {
  const fresh = await freshPages(env.DB, urls, freshSince(Date.now(), maxAge), {
    ...(exceptCrawl === undefined ? {} : { exceptCrawl }),
    ...(meter === undefined ? {} : { meter }),
  });
  return async (url) => {
    const page = fresh.get(url);
    return page ? cachedBody(env.BODIES, page, request, meter) : null;
  };
}

/**
 * A page served from the cache: stored as a fetched page is (its body copied into this crawl's segment, so no other
 * crawl's purge can break it, with its HTML as fetched when it is a rendered DOM; not the copy's HTTP exchange, which
 * would be one more read a hit), read with this crawl's spec, its links followed, nothing rendered, no request to the
 * site. Its fetch time is the copy's; the outcome is not a fetch.
 */
export async function fromCache(job: Job, hit: CachedBody): Promise<Processed> {
  const stop = (await job.deps.beforeFetch?.()) ?? null;
  if (stop !== null) return finish(job, { kind: 'released', fetched: false, reason: stop });
  const page: PageRecord = {
    url: job.task.url,
    status: hit.status,
    contentType: hit.contentType,
    title: null,
    depth: job.claim.depth,
    // What the site sent: a rendered copy's HTML as fetched, as for the page it was copied from.
    bytes: (hit.fetchedBody ?? hit.body).byteLength,
    fetchedAt: hit.fetchedAt,
    bodyAt: null,
    redirectTo: null,
    etag: hit.etag,
    lastModified: hit.lastModified,
    rendered: hit.rendered,
    cachedFrom: hit.crawlId,
  };
  const read = await readBody({ ...job, deps: { ...job.deps, render: null } }, page, hit.body);
  const copied = read.body && hit.fetchedBody ? { ...read, fetchedBody: hit.fetchedBody } : read;
  const processed = await withChange(job, copied, job.deps.recrawl?.previous.get(job.task.url));
  const { outcome } = processed;
  return outcome.kind === 'stored' ? { ...processed, outcome: { ...outcome, fetched: false } } : processed;
}
