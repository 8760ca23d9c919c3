/**
 * Why a URL ended failed or skipped, as a machine reads it: one code from a fixed list, given where the outcome is
 * made (never parsed back from its message). The message (`reason`) stays for people and may be reworded at will;
 * /stats, GET /errors, webhooks and the dashboard group by the code.
 */
import type { FetchFailureKind } from '../fetch/failure';

export const OUTCOME_CODES = [
  /** The URL is on a private network address (allowPrivateNetworks is off). */
  'private_address',
  /** robots.txt disallows it. */
  'robots_disallowed',
  /** Its origin's robots.txt could not be read (an error answer, a timeout, a broken connection). */
  'robots_unreachable',
  /** The host name does not resolve. */
  'dns',
  /** Nothing listens on the port. */
  'connection_refused',
  /** The connection was lost. */
  'connection_reset',
  /** The TLS handshake failed. */
  'tls',
  /** No answer within the fetch timeout. */
  'timeout',
  /** Another network failure. */
  'network',
  /** fetch() failed for a reason the crawler does not name (not a network failure). */
  'fetch_error',
  /** The body is larger than maxBodyBytes. */
  'too_large',
  /** An HTTP 4xx answer (the status is the row's httpStatus), but 408 and 429. */
  'http_4xx',
  /** An HTTP 408 or 429 to the last attempt: the site kept asking the crawler to come back later. */
  'rate_limited',
  /** An HTTP 5xx answer. */
  'http_5xx',
  /** Another HTTP status that is neither a page nor a redirect (a 304 with nothing to compare to, a 1xx). */
  'http_other',
  /** A redirect: the URL is skipped, its target is a URL of its own. */
  'redirect',
  /** A redirect to a target out of the crawl's scope. */
  'redirect_out_of_scope',
  /** A redirect to a target that is not an http(s) URL. */
  'redirect_invalid',
  /** A 3xx answer without a Location header. */
  'redirect_without_location',
  /** More redirects in a row than the crawler follows. */
  'too_many_redirects',
  /** A 401 to a request sent without credentials: the page needs them (docs/credentials.md). */
  'auth_required',
  /** A 401 or a 403 to a request sent with credentials: the site refused them (expired, or not for this page). */
  'credentials_refused',
  /** A request sent with credentials was redirected to the login page: the session expired, or does not reach it. */
  'login_redirect',
  /** The crawl's form login did not get past the login page: nothing was crawled. */
  'login_failed',
  /** The crawl's credentials could not be opened (the deployment's CREDENTIALS_KEY is unset or changed). */
  'credentials_unavailable',
  /** A sitemap whose body could not be read. */
  'sitemap_unreadable',
  /** A browser action of the page failed. */
  'action_failed',
  /** The page could not be rendered, so its actions were not done. */
  'render_failed',
  /**
   * A crawler-trap rule kept the URL from being fetched (docs/crawling.md, "Traps"): its reason names the rule and the
   * pattern.
   */
  'trap',
  /** The page answered 2xx but reads as its host's "not found" page (a soft 404): not stored, its links not followed. */
  'soft_404',
  /** The crawl was cancelled before the URL was done. */
  'cancelled',
  /** Every attempt or delivery was used up (the dead-letter queue). */
  'retries_exhausted',
  /** A row written before codes were stored, whose reason names none of the above (see migrations/0013). */
  'other',
] as const;

export type OutcomeCode = (typeof OUTCOME_CODES)[number];

/** The code of an HTTP status that is an error answer. */
export function httpStatusCode(status: number): OutcomeCode {
  if (status >= 500 && status < 600) return 'http_5xx';
  if (status === 408 || status === 429) return 'rate_limited';
  if (status >= 400 && status < 500) return 'http_4xx';
  return 'http_other';
}

const FAILURE_CODES: Record<FetchFailureKind, OutcomeCode> = {
  dns: 'dns',
  refused: 'connection_refused',
  reset: 'connection_reset',
  tls: 'tls',
  timeout: 'timeout',
  network: 'network',
};

/** The code of a fetch that got no HTTP answer (domain/fetch/failure). */
export const failureCode = (kind: FetchFailureKind): OutcomeCode => FAILURE_CODES[kind];

/** A code read back from storage; 'other' for anything not in the list. */
export function parseOutcomeCode(value: string | null | undefined): OutcomeCode {
  return OUTCOME_CODES.find((code) => code === value) ?? 'other';
}
