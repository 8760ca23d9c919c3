import { failureCode } from '../domain/crawl/outcome-codes';
import { isFinal } from '../domain/crawl/url-life';
import { credentialHeaders, redactHeaders } from '../domain/credentials/access';
import { withJar } from '../domain/credentials/cookie-jar';
import { accessDenied } from '../domain/credentials/outcomes';
import { backoffSeconds } from '../domain/fetch/backoff';
import { classifyResponse, parseRetryAfter } from '../domain/fetch/classify';
import { isHostUnreachable } from '../domain/fetch/failure';
import { isPdf, pdfTitle } from '../domain/pdf/document';
import { isRefusedUrl } from '../domain/url/address';
import { normalizeUrl } from '../domain/url/normalize';
import { sha256Hex } from '../domain/util/hash';
import { SubrequestsSpent } from '../lib/subrequests';
import type { PreviousVersion } from '../storage/d1/previous-versions';
import { encodeExchange } from '../storage/exchange';
import { encodeRecord } from '../storage/records';
import type { Claim, CrawlTask, FrontierEntry, PageRecord, Processed } from '../types';
import { fromCache } from './cache';
import type { PipelineDeps } from './deps';
import { BodyTooLargeError, type FetchedResponse, fetchOnce, NetworkError } from './fetcher';
import type { GateReport, GateResult } from './gate';
import { finish, followable, type Job, transient, withChange } from './job';
import { readBody } from './read';

export const MAX_REDIRECT_HOPS = 5;

/**
 * Fetches one claimed URL, once robots.txt and its host's rate limiter let it, and decides its outcome:
 * stored (body in R2, links offered), a redirect (target offered as a new task, this URL skipped),
 * skipped by robots.txt, throttled (handed back without using up an attempt), a retry, or a failure.
 * Never throws for anything the site does; storage errors propagate to the caller.
 */
export async function processTask(
  task: CrawlTask,
  claim: Claim,
  deps: PipelineDeps,
  deliveries = 1,
): Promise<Processed> {
  const job: Job = { task, claim, deps, deliveries };
  if (claim.trap) return trapped(job, claim.trap);
  const seed = deps.readSitemaps && claim.kind === 'page' && claim.depth === 0 && claim.hops === 0;
  if (isRefusedUrl(task.url, deps.settings.allowPrivateNetworks))
    return finish(job, {
      kind: 'skipped',
      fetched: false,
      reason: 'blocked: private network address',
      code: 'private_address',
    });
  if (typeof deps.access === 'string')
    return finish(job, { kind: 'failed', fetched: false, reason: deps.access, code: 'credentials_unavailable' });
  // A fresh copy in the page cache: no request to the site, not even robots.txt, and no politeness slot.
  const cached = deps.cache ? await deps.cache(task.url) : null;
  if (cached) {
    const processed = await fromCache(job, cached);
    return seed ? withSitemaps(processed, task.url, [], deps.sitemapInScope) : processed;
  }
  const admission = await deps.gate(
    task.url,
    seed ? { ...deps.politeness, wantRobotsSitemaps: true } : deps.politeness,
    claim.reservedAt,
  );
  const processed = admission.kind === 'go' ? await fetchPaced(job, admission) : refused(job, admission);
  if (!seed) return processed;
  const robotsSitemaps =
    admission.kind === 'go' || admission.kind === 'disallowed' ? (admission.robotsSitemaps ?? []) : [];
  return withSitemaps(processed, task.url, robotsSitemaps, deps.sitemapInScope);
}

/**
 * A URL whose pattern a trap rule found a trap after it was queued: skipped without a request, and the URL folded from
 * it (a parameter that never changes a page taken out) offered in its place.
 */
function trapped(job: Job, trap: NonNullable<Claim['trap']>): Processed {
  const { depth, hops } = job.claim;
  const links = trap.fold === undefined ? [] : [{ url: trap.fold, depth, hops }];
  return finish(job, { kind: 'skipped', fetched: false, reason: trap.reason, code: 'trap', links });
}

/** A seed of a crawl that reads sitemaps offers its origin's: robots.txt Sitemap lines and /sitemap.xml. */
function withSitemaps(
  processed: Processed,
  seedUrl: string,
  robotsSitemaps: string[],
  inScope: (url: string) => boolean,
): Processed {
  const candidates = [...robotsSitemaps, '/sitemap.xml']
    .map((href) => normalizeUrl(href, seedUrl))
    .filter((url): url is string => url !== null && inScope(url))
    .map((url): FrontierEntry => ({ url, depth: 0, hops: 0, kind: 'sitemap' }));
  const { outcome } = processed;
  if (!isFinal(outcome)) return processed;
  return { ...processed, outcome: { ...outcome, links: [...(outcome.links ?? []), ...candidates] } };
}

/** The gate did not let the request go. */
function refused(job: Job, admission: Exclude<GateResult, { kind: 'go' }>): Processed {
  const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));
  switch (admission.kind) {
    case 'disallowed':
      return finish(job, {
        kind: 'skipped',
        fetched: false,
        reason: 'blocked by robots.txt',
        code: 'robots_disallowed',
      });
    case 'unreachable':
      // The host itself cannot be reached (dns, refused): the URL fails now, for that reason, not robots.txt's.
      if (isHostUnreachable(admission.failure))
        return finish(job, {
          kind: 'failed',
          fetched: false,
          reason: admission.failure.message,
          code: failureCode(admission.failure.kind),
        });
      return transient(
        job,
        { reason: admission.reason, code: 'robots_unreachable' },
        false,
        Math.max(seconds(admission.retryInMs), backoffSeconds(job.claim.attempts)),
      );
    case 'ended':
      return finish(job, { kind: 'released', fetched: false, reason: 'the crawl has ended' });
    case 'throttled':
      return finish(job, {
        kind: 'throttled',
        fetched: false,
        reason: 'waiting for the host',
        retryDelaySeconds: seconds(admission.retryInMs),
        ...(admission.reservation === undefined ? {} : { reservation: admission.reservation }),
      });
  }
}

/**
 * The request of a granted slot; a paced one's outcome says how the host paced it (when the host is free again, its
 * spacing and this response's wait), from which the crawl plans the host's next URLs (domain/politeness/spread.ts).
 */
async function fetchPaced(job: Job, admission: Extract<GateResult, { kind: 'go' }>): Promise<Processed> {
  let respondedAt: number | undefined;
  const processed = await fetchAndDecide(job, (report) => {
    respondedAt = report?.respondedAt;
    return admission.done(report);
  });
  const { paced } = admission;
  if (!paced || respondedAt === undefined) return processed;
  const pace = {
    freeAt: respondedAt + paced.spacing,
    spacingMs: paced.spacing,
    waitMs: Math.max(0, respondedAt - paced.beganAt),
  };
  return { ...processed, outcome: { ...processed.outcome, pace } };
}

/** The request itself (conditional in a recrawl), then what its response means. */
async function fetchAndDecide(job: Job, done: (report?: GateReport) => Promise<void>): Promise<Processed> {
  const { task, deps } = job;
  const previous = deps.recrawl?.previous.get(task.url);
  const validators = deps.recrawl?.conditional ? previous : undefined;
  const conditional: Record<string, string> = {};
  if (validators?.etag) conditional['if-none-match'] = validators.etag;
  if (validators?.lastModified) conditional['if-modified-since'] = validators.lastModified;
  const sent = await accessOf(deps, task.url);
  const extra = { headers: { ...sent.headers, ...conditional }, secret: sent.secret };
  let response: FetchedResponse | string;
  try {
    response = await deps.limit(
      async () => (await deps.beforeFetch()) ?? fetchOnce(task.url, deps.settings, extra, deps.connections),
    );
  } catch (error) {
    await done();
    return (await oversizedPdf(job, error, previous)) ?? fetchFailed(job, error);
  }
  if (typeof response === 'string') {
    await done();
    return finish(job, { kind: 'released', fetched: false, reason: response });
  }
  const retryAfterSeconds = parseRetryAfter(response.headers.get('retry-after'));
  const { status, respondedAt } = response;
  // Kept before the host's slot is given back: the host's next request (from any invocation) carries the new session.
  if (deps.jar) await deps.jar.keep(task.url, response.headers.getSetCookie());
  await done(retryAfterSeconds === undefined ? { status, respondedAt } : { status, respondedAt, retryAfterSeconds });
  return decide(job, response, previous, sent);
}

/**
 * The credentials a request to `url` carries (none off the credential hosts), the crawl's cookie jar's among them, and
 * their names, to be redacted.
 */
async function accessOf(deps: PipelineDeps, url: string): Promise<SentCredentials> {
  const given = typeof deps.access === 'string' ? null : deps.access;
  const access = given && deps.jar ? withJar(given, await deps.jar.cookiesFor(url)) : given;
  const headers = credentialHeaders(url, access);
  const names = Object.keys(headers);
  return { headers, secret: new Set(names), credentialed: names.length > 0, loginUrl: access?.loginUrl ?? null };
}

interface SentCredentials {
  headers: Record<string, string>;
  secret: ReadonlySet<string>;
  credentialed: boolean;
  loginUrl: string | null;
}

function fetchFailed(job: Job, error: unknown): Processed {
  const reason = error instanceof Error ? error.message : String(error);
  // Never sent (the invocation's subrequests are spent): handed back, no attempt used up.
  if (error instanceof SubrequestsSpent) return finish(job, { kind: 'released', fetched: false, reason });
  if (error instanceof BodyTooLargeError)
    return finish(job, { kind: 'failed', fetched: true, reason, code: 'too_large' });
  if (error instanceof NetworkError && isHostUnreachable(error.failure))
    return finish(job, { kind: 'failed', fetched: false, reason, code: failureCode(error.failure.kind) });
  if (error instanceof NetworkError) return transient(job, { reason, code: failureCode(error.failure.kind) }, false);
  return finish(job, { kind: 'failed', fetched: false, reason, code: 'fetch_error' });
}

/** What a response means for the URL: unchanged, a retry, a failure, a redirect, or a page to store. */
async function decide(
  job: Job,
  response: FetchedResponse,
  previous: PreviousVersion | undefined,
  sent: SentCredentials,
): Promise<Processed> {
  const page = pageRecord(job, response);
  if (response.status === 304 && previous && job.deps.recrawl)
    return unchanged(job, page, previous, job.deps.recrawl.links);
  const location = response.headers.get('location');
  const target = location === null ? null : normalizeUrl(location, job.task.url);
  const denied = accessDenied(response.status, target, sent);
  if (denied)
    return finish(job, { kind: 'failed', fetched: true, ...denied }, { page: { ...page, redirectTo: target } });
  const decision = classifyResponse(response.status, response.headers);
  switch (decision.kind) {
    case 'retry': {
      const delay = decision.retryAfterSeconds === undefined ? undefined : Math.min(300, decision.retryAfterSeconds);
      return transient(job, decision, true, delay, page);
    }
    case 'fail':
      return finish(job, { kind: 'failed', fetched: true, reason: decision.reason, code: decision.code }, { page });
    case 'redirect':
      return redirect(job, page, decision.location, response.status);
    case 'ok': {
      const read = await readBody(job, page, response.body);
      return withExchange(await withChange(job, read, previous), response, sent.credentialed);
    }
  }
}

/** What a credentialed answer's recorded headers never show: the session a server sets. */
const SESSION_HEADERS: ReadonlySet<string> = new Set(['set-cookie']);

/**
 * A page whose body is stored keeps the exchange it was fetched with beside it (a WARC's request and response): its
 * request's credentials redacted (fetchOnce), and, when it carried credentials, the cookies its answer set.
 */
function withExchange(processed: Processed, response: FetchedResponse, credentialed: boolean): Processed {
  if (processed.body === undefined) return processed;
  const { request, status, statusText, headers } = response;
  const answered = credentialed ? redactHeaders([...headers], SESSION_HEADERS) : [...headers];
  return {
    ...processed,
    exchange: encodeExchange({ request, response: { status, statusText, headers: answered } }),
  };
}

/**
 * A PDF larger than the body cap (the fetch stopped reading at the cap): stored unread, with a warning and no body
 * (and a record of no content when the crawl extracts), rather than failed. Its content hash is of its length and
 * validators, so a recrawl still tells a change.
 */
async function oversizedPdf(
  job: Job,
  error: unknown,
  previous: PreviousVersion | undefined,
): Promise<Processed | null> {
  const head = error instanceof BodyTooLargeError ? error.response : undefined;
  if (!head || head.status < 200 || head.status > 299 || !isPdf(head.headers.get('content-type'))) return null;
  const declared = Number(head.headers.get('content-length') ?? Number.NaN);
  const limit = job.deps.settings.maxBodyBytes;
  const size = Number.isSafeInteger(declared) ? ` (${declared} bytes)` : '';
  const fetched = pageRecord(job, { ...head, body: new Uint8Array(0) });
  const warnings = [`pdf: larger than the ${limit}-byte body cap${size}: not read, body not stored`];
  const contentHash = await sha256Hex(`pdf ${size} ${fetched.etag ?? ''} ${fetched.lastModified ?? ''}`);
  const bytes = Number.isSafeInteger(declared) ? declared : limit;
  const page: PageRecord = { ...fetched, bytes, title: pdfTitle(null, [], job.task.url), warnings, contentHash };
  // A crawl (or scrape) that extracts gets a record saying why it is empty.
  const record = job.deps.extract ? { record: encodeRecord({ wordCount: 0, contentHash, warnings }, {}) } : {};
  return withChange(job, finish(job, { kind: 'stored', fetched: true, links: [] }, { page, ...record }), previous);
}

function pageRecord(job: Job, response: FetchedResponse): PageRecord {
  return {
    url: job.task.url,
    status: response.status,
    contentType: response.headers.get('content-type'),
    title: null,
    depth: job.claim.depth,
    bytes: response.body.byteLength,
    fetchedAt: Date.now(),
    bodyAt: null,
    redirectTo: null,
    etag: response.headers.get('etag'),
    lastModified: response.headers.get('last-modified'),
  };
}

/** Unchanged since the previous crawl (304): keep its body and links (no new R2 write) and follow its links. */
async function unchanged(
  job: Job,
  page: PageRecord,
  previous: PreviousVersion,
  linksOf: (url: string, previous: PreviousVersion) => Promise<string[]>,
): Promise<Processed> {
  const kept: PageRecord = {
    ...page,
    contentType: previous.contentType,
    title: previous.title,
    bodyAt: previous.bodyAt,
    contentHash: previous.contentHash,
    linksAt: previous.linksAt,
    ...previous.extracted,
    change: 'unchanged',
    etag: page.etag ?? previous.etag,
    lastModified: page.lastModified ?? previous.lastModified,
  };
  const links = await linksOf(job.task.url, previous);
  const depth = job.claim.depth + 1;
  const candidates = followable(job, links, depth);
  // The previous crawl's links are pointed at, not written again.
  return finish(job, { kind: 'stored', fetched: true, links: candidates }, { page: kept });
}

/** A redirect is a new task for its target (every hop is checked again); this URL is skipped. */
function redirect(job: Job, fetched: PageRecord, location: string, status: number): Processed {
  const { claim, deps } = job;
  const found = normalizeUrl(location, job.task.url);
  const target = found === null || deps.cleanUrl === undefined ? found : deps.cleanUrl(found);
  const page: PageRecord = { ...fetched, redirectTo: target };
  if (target === null)
    return finish(
      job,
      {
        kind: 'failed',
        fetched: true,
        reason: `redirect to a non-http(s) URL: ${location.slice(0, 200)}`,
        code: 'redirect_invalid',
      },
      { page },
    );
  if (claim.hops + 1 > MAX_REDIRECT_HOPS)
    return finish(
      job,
      {
        kind: 'failed',
        fetched: true,
        reason: `too many redirects (more than ${MAX_REDIRECT_HOPS})`,
        code: 'too_many_redirects',
      },
      { page },
    );
  const reason = `redirect ${status} to ${target}`;
  const inScope = claim.kind === 'sitemap' ? deps.sitemapInScope(target) : deps.policy(target, claim.depth);
  if (!inScope)
    return finish(
      job,
      { kind: 'skipped', fetched: true, reason: `${reason}, out of scope`, code: 'redirect_out_of_scope' },
      { page },
    );
  const next: FrontierEntry = {
    url: target,
    depth: claim.depth,
    hops: claim.hops + 1,
    ...(claim.kind === 'sitemap' ? { kind: 'sitemap' as const } : {}),
  };
  return finish(job, { kind: 'skipped', fetched: true, reason, code: 'redirect', links: [next] }, { page });
}
