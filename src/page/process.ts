import { backoffSeconds } from '../domain/backoff';
import { classifyResponse, parseRetryAfter } from '../domain/classify';
import { isRefusedUrl } from '../domain/address';
import { discoverLinks } from '../domain/discover';
import { decodeBody, isHtml } from '../domain/html';
import { normalizeUrl } from '../domain/normalize';
import { isGzip, parseSitemap } from '../domain/sitemap';
import type { LinkPolicy } from '../domain/policy';
import { BodyTooLargeError, fetchOnce, gunzipCapped, NetworkError } from './fetcher';
import type { Limit } from '../lib/limit';
import type { CrawlPoliteness, Gate } from '../objects/host-gate-client';
import type { Settings } from '../settings';
import type { PreviousVersion } from '../storage/d1/pages';
import type { Claim, CrawlTask, FrontierEntry, Outcome } from '../types';

export const MAX_REDIRECT_HOPS = 5;
/** Outgoing links recorded in D1 per page (all of them are still considered for crawling). */
export const MAX_LINKS_RECORDED = 1000;

export interface PageRecord {
  url: string;
  status: number;
  contentType: string | null;
  title: string | null;
  depth: number;
  bytes: number;
  fetchedAt: number;
  /** The R2 object holding the body, and the body's byte range in it (null offset: the whole object). */
  r2Key: string | null;
  bodyOffset?: number | null;
  bodyLength?: number | null;
  redirectTo: string | null;
  etag?: string | null;
  lastModified?: string | null;
  /** In a scheduled crawl: new, changed or unchanged since the previous crawl. */
  change?: 'new' | 'changed' | 'unchanged' | null;
}

export interface Processed {
  outcome: Outcome;
  attempts: number;
  page?: PageRecord;
  links?: string[];
  /** The body of a 2xx page, to be written to R2 with the rest of its batch (see writeSegments). */
  body?: Uint8Array;
}

export interface ProcessDeps {
  settings: Settings;
  policy: LinkPolicy;
  /** Whether a sitemap URL belongs to the crawl (scope only). */
  sitemapPolicy: (url: string) => boolean;
  /** The crawl reads sitemaps: seeds look up robots.txt Sitemap lines and /sitemap.xml. */
  sitemaps: boolean;
  /** A scheduled crawl: what the previous crawl fetched (for conditional GETs), or none for a first run. */
  recrawl?: { previous: Map<string, PreviousVersion>; links: (url: string) => Promise<string[]> } | null;
  crawlId: string;
  /** robots.txt and the host's rate limiter. */
  gate: Gate;
  /** The crawl's own politeness towards each host. */
  politeness: CrawlPoliteness;
  /** The consumer invocation's cap on requests in flight (settings.fetchConcurrency); none: no cap. */
  limit?: Limit;
  now?: () => number;
}

/**
 * Fetches one claimed URL, once robots.txt and its host's rate limiter let it, and decides its outcome:
 * stored (body in R2, links offered), a redirect (target offered as a new task, this URL skipped),
 * skipped by robots.txt, throttled (handed back without using up an attempt), a retry, or a failure.
 * Never throws for anything the site does; storage errors propagate to the caller.
 */
export async function processTask(task: CrawlTask, claim: Claim, deps: ProcessDeps): Promise<Processed> {
  const seedSitemaps = deps.sitemaps && claim.kind === 'page' && claim.depth === 0 && claim.hops === 0;
  const found: string[] = [];
  const processed = await fetchAndDecide(task, claim, deps, seedSitemaps ? found : null);
  if (!seedSitemaps || processed.outcome.kind === 'retry' || processed.outcome.kind === 'throttled') return processed;
  // A seed of a crawl that reads sitemaps offers its origin's: robots.txt Sitemap lines and /sitemap.xml.
  const candidates = [...found, '/sitemap.xml']
    .map((href) => normalizeUrl(href, task.url))
    .filter((url): url is string => url !== null && deps.sitemapPolicy(url))
    .map((url): FrontierEntry => ({ url, depth: 0, hops: 0, kind: 'sitemap' }));
  return { ...processed, outcome: { ...processed.outcome, links: [...(processed.outcome.links ?? []), ...candidates] } };
}

/** The request itself. `sitemaps`, when given, receives the robots.txt Sitemap URLs of the origin. */
async function fetchAndDecide(task: CrawlTask, claim: Claim, deps: ProcessDeps, sitemaps: string[] | null): Promise<Processed> {
  const { settings, policy } = deps;
  const attempts = claim.attempts;
  const final = attempts >= settings.maxAttempts;
  const skip = (reason: string): Processed => ({ outcome: { url: task.url, kind: 'skipped', fetched: false, reason }, attempts });

  if (isRefusedUrl(task.url, settings.allowPrivateNetworks)) return skip('blocked: private network address');

  const admission = await deps.gate(task.url, sitemaps ? { ...deps.politeness, withSitemaps: true } : deps.politeness);
  const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));
  if ((admission.kind === 'go' || admission.kind === 'disallowed') && admission.sitemaps) sitemaps?.push(...admission.sitemaps);
  switch (admission.kind) {
    case 'disallowed':
      return skip('blocked by robots.txt');
    case 'unreachable':
      return final
        ? { outcome: { url: task.url, kind: 'failed', fetched: false, reason: admission.reason }, attempts }
        : { outcome: { url: task.url, kind: 'retry', fetched: false, reason: admission.reason, retryDelaySeconds: Math.max(seconds(admission.retryInMs), backoffSeconds(attempts)) }, attempts };
    case 'throttled':
      return { outcome: { url: task.url, kind: 'throttled', fetched: false, reason: 'waiting for the host', retryDelaySeconds: seconds(admission.retryInMs) }, attempts };
    case 'go':
      break;
  }

  const previous = deps.recrawl?.previous.get(task.url);
  const conditional: Record<string, string> = {};
  if (previous?.etag) conditional['if-none-match'] = previous.etag;
  if (previous?.lastModified) conditional['if-modified-since'] = previous.lastModified;

  let response;
  try {
    response = await (deps.limit ?? ((fetch) => fetch()))(() => fetchOnce(task.url, settings, conditional));
  } catch (error) {
    await admission.done();
    const reason = (error as Error).message;
    if (error instanceof BodyTooLargeError) return { outcome: { url: task.url, kind: 'failed', fetched: true, reason }, attempts };
    if (error instanceof NetworkError && !final) return { outcome: { url: task.url, kind: 'retry', fetched: false, reason, retryDelaySeconds: backoffSeconds(attempts) }, attempts };
    return { outcome: { url: task.url, kind: 'failed', fetched: false, reason }, attempts };
  }
  const retryAfterSeconds = parseRetryAfter(response.headers.get('retry-after'));
  const { status, respondedAt } = response;
  await admission.done(retryAfterSeconds === undefined ? { status, respondedAt } : { status, respondedAt, retryAfterSeconds });

  const fetchedAt = (deps.now ?? Date.now)();
  const contentType = response.headers.get('content-type');
  const page: PageRecord = {
    url: task.url,
    status: response.status,
    contentType,
    title: null,
    depth: claim.depth,
    bytes: response.body.byteLength,
    fetchedAt,
    r2Key: null,
    redirectTo: null,
  };
  page.etag = response.headers.get('etag');
  page.lastModified = response.headers.get('last-modified');

  if (response.status === 304 && previous && deps.recrawl) {
    // Unchanged since the previous crawl: keep its body (no new R2 write) and follow its links.
    Object.assign(page, {
      contentType: previous.contentType,
      title: previous.title,
      r2Key: previous.r2Key,
      bodyOffset: previous.bodyOffset,
      bodyLength: previous.bodyLength,
      change: 'unchanged' as const,
    });
    page.etag ??= previous.etag;
    page.lastModified ??= previous.lastModified;
    const previousLinks = await deps.recrawl.links(task.url);
    const depth = claim.depth + 1;
    return {
      outcome: { url: task.url, kind: 'stored', fetched: true, links: previousLinks.filter((url) => policy(url, depth)).map((url) => ({ url, depth, hops: 0 })) },
      attempts,
      page,
      links: previousLinks,
    };
  }

  const decision = classifyResponse(response.status, response.headers);

  switch (decision.kind) {
    case 'retry': {
      if (final) return { outcome: { url: task.url, kind: 'failed', fetched: true, reason: decision.reason }, attempts, page };
      const delay = decision.retryAfterSeconds === undefined ? undefined : Math.min(300, decision.retryAfterSeconds);
      return { outcome: { url: task.url, kind: 'retry', fetched: true, reason: decision.reason, retryDelaySeconds: delay ?? backoffSeconds(attempts) }, attempts };
    }
    case 'fail':
      return { outcome: { url: task.url, kind: 'failed', fetched: true, reason: decision.reason }, attempts, page };
    case 'redirect': {
      const target = normalizeUrl(decision.location, task.url);
      page.redirectTo = target;
      const fail = (reason: string): Processed => ({ outcome: { url: task.url, kind: 'failed', fetched: true, reason }, attempts, page });
      if (target === null) return fail(`redirect to a non-http(s) URL: ${decision.location.slice(0, 200)}`);
      if (claim.hops + 1 > MAX_REDIRECT_HOPS) return fail(`too many redirects (more than ${MAX_REDIRECT_HOPS})`);
      const reason = `redirect ${response.status} to ${target}`;
      if (claim.kind === 'sitemap' ? !deps.sitemapPolicy(target) : !policy(target, claim.depth)) {
        return { outcome: { url: task.url, kind: 'skipped', fetched: true, reason: `${reason}, out of scope` }, attempts, page };
      }
      const next: FrontierEntry = { url: target, depth: claim.depth, hops: claim.hops + 1, ...(claim.kind === 'sitemap' ? { kind: 'sitemap' as const } : {}) };
      return { outcome: { url: task.url, kind: 'skipped', fetched: true, reason, links: [next] }, attempts, page };
    }
    case 'ok':
      break;
  }

  // A 2xx in a scheduled crawl: new since the previous crawl, or fetched again because it changed.
  if (deps.recrawl !== undefined) page.change = previous ? 'changed' : 'new';

  let links: string[] = [];
  let candidates: FrontierEntry[] = [];
  if (claim.kind === 'sitemap') {
    let xml: Uint8Array;
    try {
      xml = isGzip(response.body) ? await gunzipCapped(response.body, settings.maxBodyBytes) : response.body;
    } catch (error) {
      return { outcome: { url: task.url, kind: 'failed', fetched: true, reason: `sitemap: ${(error as Error).message}` }, attempts, page, body: response.body };
    }
    const sitemap = parseSitemap(decodeBody(xml, contentType));
    links = sitemap.locs.map((loc) => normalizeUrl(loc)).filter((url): url is string => url !== null);
    candidates =
      sitemap.kind === 'index'
        ? links.filter((url) => deps.sitemapPolicy(url)).map((url) => ({ url, depth: claim.depth, hops: 0, kind: 'sitemap' as const }))
        : links.filter((url) => policy(url, claim.depth + 1)).map((url) => ({ url, depth: claim.depth + 1, hops: 0 }));
  } else if (isHtml(contentType)) {
    const parsed = await discoverLinks(response.body, contentType, task.url);
    page.title = parsed.title;
    links = parsed.links;
    const depth = claim.depth + 1;
    candidates = links.filter((url) => policy(url, depth)).map((url) => ({ url, depth, hops: 0 }));
  }
  return {
    outcome: { url: task.url, kind: 'stored', fetched: true, links: candidates },
    attempts,
    page,
    links: links.slice(0, MAX_LINKS_RECORDED),
    body: response.body,
  };
}
