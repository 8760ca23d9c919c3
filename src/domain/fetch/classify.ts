import { httpStatusCode, type OutcomeCode } from '../crawl/outcome-codes';

/**
 * The error taxonomy of a fetch, after Crawlee's: what a response or a network error means
 * for the URL. Pure: the consumer turns decisions into acks, retries and outcomes.
 */
export type FetchDecision =
  | { kind: 'ok' }
  | { kind: 'redirect'; location: string }
  /** Transient: try again later, using up an attempt. */
  | { kind: 'retry'; reason: string; code: OutcomeCode; retryAfterSeconds?: number }
  /** Permanent: trying again will not help. */
  | { kind: 'fail'; reason: string; code: OutcomeCode };

const RETRYABLE_STATUS = new Set([408, 425, 429, 500, 502, 503, 504, 520, 521, 522, 523, 524]);

/** Parses Retry-After (delta-seconds or HTTP date) into whole seconds from `now`. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

export function classifyResponse(status: number, headers: Headers): FetchDecision {
  if (status >= 200 && status < 300) return { kind: 'ok' };
  if (status >= 300 && status < 400 && status !== 304) {
    const location = headers.get('location');
    return location
      ? { kind: 'redirect', location }
      : { kind: 'fail', reason: `http ${status} without Location`, code: 'redirect_without_location' };
  }
  const code = httpStatusCode(status);
  if (RETRYABLE_STATUS.has(status)) {
    const retryAfterSeconds = parseRetryAfter(headers.get('retry-after'));
    return retryAfterSeconds === undefined
      ? { kind: 'retry', reason: `http ${status}`, code }
      : { kind: 'retry', reason: `http ${status}`, code, retryAfterSeconds };
  }
  return { kind: 'fail', reason: `http ${status}`, code };
}
