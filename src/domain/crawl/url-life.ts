/**
 * The life of a URL in a crawl, in one place (docs/url-life.md tells it as a story).
 *
 * A URL is offered to the crawl's seen-set once (queued), handed to one queue message at a time by a lease (claim),
 * and each attempt ends in an outcome. `transition` is the whole protocol as one table: for each event, what the
 * crawl's coordinator records of the URL and what the consumer does with the queue message. The consumer and the
 * dead-letter consumer only carry transitions out. What the coordinator records (and when a URL sent back is due) is
 * said once, by `recordOf`: the coordinator applies it, and `transition` answers with it.
 */
import { backoffSeconds } from '../fetch/backoff';
import type { HostPace } from '../politeness/spread';
import type { OutcomeCode } from './outcome-codes';

/** A page to crawl, or a sitemap to read for pages. */
export type TaskKind = 'page' | 'sitemap';

/** A URL accepted into the frontier. */
export interface FrontierEntry {
  url: string;
  depth: number;
  /** Redirects followed to reach this URL. */
  hops: number;
  /** Absent means 'page'. */
  kind?: TaskKind;
  /**
   * When its message is due (epoch ms), if later than when it was accepted: the crawl spreads each host's URLs at the
   * host's pace (domain/politeness/spread.ts), and the message is sent delayed until then.
   */
  dueAt?: number;
}

/**
 * What became of one attempt at a claimed URL. `fetched`: an HTTP response was received. `links`: candidate URLs
 * found (links, a redirect target or sitemaps), already scope-checked. `retryDelaySeconds`: when the URL's next
 * attempt is due (a Retry-After, the host gate's next slot); none: the message waits the backoff of the attempt, and
 * the coordinator records the URL due at once (recordOf). `reason`: why, in words for people; `code`: why, as one of
 * OUTCOME_CODES (domain/crawl/outcome-codes.ts), given where the outcome is made, for machines to group by.
 * - stored, skipped, failed, duplicate: final. A duplicate's content is stored once, under the URL it names (`of`):
 *   the canonical it declares, or the page of the crawl that first had its content (domain/crawl/duplicates.ts).
 * - retry: a transient failure of the site (5xx, 429, a timeout); uses up an attempt, and fails for good at the last.
 * - throttled: the host could not take the URL in time (politeness); uses up no attempt. `reservation`: the slot the
 *   host gate reserved for it (epoch ms), which the coordinator keeps and hands back with the URL's next claim.
 * - released: handed back through no fault of the site (our storage failed, processing broke, the lease ran out
 *   before the fetch started, the crawl was cancelled); uses up no attempt.
 */
export type Outcome = (
  | { kind: 'stored'; url: string; fetched: boolean; links?: FrontierEntry[] }
  | { kind: 'skipped'; url: string; fetched: boolean; reason: string; code: OutcomeCode; links?: FrontierEntry[] }
  | { kind: 'failed'; url: string; fetched: boolean; reason: string; code: OutcomeCode; links?: FrontierEntry[] }
  | { kind: 'duplicate'; url: string; fetched: boolean; reason: DuplicateReason; of: string; links?: FrontierEntry[] }
  | { kind: 'retry'; url: string; fetched: boolean; reason?: string; code: OutcomeCode; retryDelaySeconds?: number }
  | {
      kind: 'throttled';
      url: string;
      fetched: boolean;
      reason?: string;
      retryDelaySeconds?: number;
      reservation?: number;
    }
  | { kind: 'released'; url: string; fetched: boolean; reason?: string; retryDelaySeconds?: number }
) & {
  /** How its host paced the request (a paced slot's): the crawl plans the host's next URLs from it. */
  pace?: HostPace;
};

/**
 * Why a page is a duplicate: it declares another URL of the crawl canonical, another page had its content first, or
 * (duplicates: "similar") another page had almost the same main text first.
 */
export type DuplicateReason = 'canonical' | 'content' | 'similar';

export type FinalKind = 'stored' | 'skipped' | 'failed' | 'duplicate';
type Requeued = Extract<Outcome, { kind: 'retry' | 'throttled' | 'released' }>;

/** The reason an outcome gives, if any. */
export function reasonOf(outcome: Outcome): string | null {
  return outcome.kind === 'stored' ? null : (outcome.reason ?? null);
}

/** The code of an outcome that ends its URL failed or skipped (null for any other). */
function codeOf(outcome: Outcome): OutcomeCode | null {
  return outcome.kind === 'failed' || outcome.kind === 'skipped' ? outcome.code : null;
}

export const isFinal = (outcome: Outcome): outcome is Extract<Outcome, { kind: FinalKind }> =>
  outcome.kind === 'stored' || outcome.kind === 'skipped' || outcome.kind === 'failed' || outcome.kind === 'duplicate';

/** A URL's state in the seen-set, as stored (the integers are the stored values; 1 is retired). */
export const UrlState = { Queued: 0, Stored: 2, Failed: 3, Skipped: 4, Duplicate: 5 } as const;
export type UrlState = (typeof UrlState)[keyof typeof UrlState];
export const FINAL_STATE: Record<FinalKind, UrlState> = {
  stored: UrlState.Stored,
  failed: UrlState.Failed,
  skipped: UrlState.Skipped,
  duplicate: UrlState.Duplicate,
};

/** What the consumer does with the queue message. `resend`: ack it and send the URL as a new, delayed message. */
export type MessageAction =
  | { do: 'ack' }
  | { do: 'retry'; delaySeconds: number }
  | { do: 'resend'; delaySeconds: number };

/** What the coordinator records of the URL: a final state, back to queued (due in `dueInSeconds`), or nothing. */
export type StateChange =
  | { to: 'final'; kind: FinalKind; reason: string | null; code: OutcomeCode | null }
  | { to: 'queued'; countsAttempt: boolean; dueInSeconds: number; reservedAt?: number }
  | { to: 'unchanged' };

/** Something that happened to a URL's message, from the consumer's side. */
export type UrlEvent =
  /**
   * An attempt at a claimed URL ended (the page layer's outcome; `attempt` counts this one), its message delivered
   * `deliveries` times, and the coordinator answered whether the crawl still runs.
   */
  | { on: 'outcome'; outcome: Outcome; attempt: number; deliveries: number; running: boolean }
  /** The coordinator would not hand the URL out: done already, leased to another message, or the crawl is over. */
  | { on: 'unclaimed' }
  /** The coordinator could not be reached to claim the URL, or to record its outcome; `deliveries` of the message. */
  | { on: 'coordinator-unreachable'; deliveries: number }
  /** The queue gave up on the message (max_retries deliveries): it is in the dead-letter queue. */
  | { on: 'dead-lettered' };

/** The limits the protocol works within: MAX_ATTEMPTS, and the frontier queues' max_retries (QUEUE_MAX_RETRIES). */
export interface Limits {
  maxAttempts: number;
  maxRetries: number;
}

export interface Transition {
  record: StateChange;
  message: MessageAction;
}

/** How long a retried message waits: what the outcome asked for (a Retry-After, already capped), or the backoff. */
const delayOf = (outcome: Requeued, attempt: number) => outcome.retryDelaySeconds ?? backoffSeconds(attempt);

/** Why a URL whose attempt would be tried again ends skipped once the crawl no longer runs. */
export const CANCELLED_REASON = 'cancelled';
export const CANCELLED_CODE: OutcomeCode = 'cancelled';

export const DEAD_LETTER_REASON = 'dead-lettered: retries exhausted';
export const DEAD_LETTER_CODE: OutcomeCode = 'retries_exhausted';

/**
 * The protocol, one row per case (test/unit/url-life.test.ts has a test per row):
 *
 * | event                      | condition               | coordinator records                | message           |
 * |----------------------------|-------------------------|------------------------------------|-------------------|
 * | outcome stored/skipped/failed/duplicate |             | final                              | ack               |
 * | outcome retry              | attempt < maxAttempts   | queued, attempt counted            | retry after delay |
 * | outcome retry              | attempt >= maxAttempts  | final failed (the retry's reason)  | ack               |
 * | outcome throttled          | a delivery to spare     | queued, no attempt, the slot kept  | retry at the slot |
 * | outcome throttled          | none to spare           | queued, no attempt, the slot kept  | resend at the slot|
 * | outcome released           |                         | queued, no attempt                 | retry after delay |
 * | outcome not final          | the crawl was cancelled | final skipped, cancelled           | ack               |
 * | unclaimed                  |                         | nothing                            | ack               |
 * | coordinator unreachable    |                         | nothing (the lease is the message's)| retry after backoff(deliveries) |
 * | dead-lettered              |                         | final failed, dead-lettered        | ack               |
 *
 * What the coordinator records of an outcome is recordOf's answer, whatever the row: a URL back to queued is due when
 * the outcome asked (a Retry-After, the host's slot), else at once; the message's delay is this table's.
 *
 * A message is delivered at most max_retries + 1 times, then dead-lettered. A retried attempt uses a delivery, which
 * is why maxAttempts must stay at most max_retries (see attemptsFitQueue). A throttled URL goes round once, delayed to
 * the slot its host reserved: retried (one queue operation, the next read) while its message can spare a delivery
 * for it beyond what the URL's attempts may still take, else sent as a new message (three: write, read, delete),
 * so waiting for a host never dead-letters a URL.
 */
export function transition(event: UrlEvent, limits: Limits): Transition {
  switch (event.on) {
    case 'unclaimed':
      return { record: { to: 'unchanged' }, message: { do: 'ack' } };
    case 'coordinator-unreachable':
      return { record: { to: 'unchanged' }, message: { do: 'retry', delaySeconds: backoffSeconds(event.deliveries) } };
    case 'dead-lettered':
      return {
        record: { to: 'final', kind: 'failed', reason: DEAD_LETTER_REASON, code: DEAD_LETTER_CODE },
        message: { do: 'ack' },
      };
    case 'outcome': {
      const record = recordOf(resolveOutcome(event.outcome, event.attempt, limits.maxAttempts), event.running);
      return { record, message: messageAfter(event.outcome, event.attempt, limits, event.deliveries, event.running) };
    }
  }
}

/** What the message of an attempt gets (what the coordinator records is recordOf's). */
function messageAfter(
  outcome: Outcome,
  attempt: number,
  { maxAttempts, maxRetries }: Limits,
  deliveries: number,
  running: boolean,
): MessageAction {
  if (isFinal(outcome) || !running) return { do: 'ack' };
  const delaySeconds = delayOf(outcome, attempt);
  switch (outcome.kind) {
    case 'retry':
      return attempt >= maxAttempts ? { do: 'ack' } : { do: 'retry', delaySeconds };
    case 'throttled': {
      // Retried while the message has a delivery to spare for it beyond what the URL's attempts may still take.
      const spare = deliveries + maxAttempts - attempt <= maxRetries;
      return { do: spare ? 'retry' : 'resend', delaySeconds };
    }
    case 'released':
      return { do: 'retry', delaySeconds };
  }
}

/**
 * The outcome the coordinator is told of an attempt: the page layer's, with a retry on the last attempt turned into
 * the failure it is (so the coordinator, D1's errors and the webhooks all see the same final word).
 */
export function resolveOutcome(outcome: Outcome, attempt: number, maxAttempts: number): Outcome {
  if (outcome.kind !== 'retry' || attempt < maxAttempts) return outcome;
  return {
    kind: 'failed',
    url: outcome.url,
    fetched: outcome.fetched,
    reason: outcome.reason ?? 'retries exhausted',
    code: outcome.code,
  };
}

/**
 * What the coordinator records of a reported outcome (already resolved): a final state, or back to queued; once the
 * crawl no longer runs, an attempt that would be tried again ends skipped ('cancelled'). The coordinator applies it
 * only to a URL that is still queued: an outcome for one already final (a late duplicate) changes nothing. The one
 * place that says when a URL sent back is due: `dueInSeconds` is what the outcome asked for (a Retry-After, the
 * host's slot), else 0, due at once (its message still waits the backoff: transition says so).
 */
export function recordOf(outcome: Outcome, running: boolean): Exclude<StateChange, { to: 'unchanged' }> {
  if (!running && !isFinal(outcome))
    return { to: 'final', kind: 'skipped', reason: CANCELLED_REASON, code: CANCELLED_CODE };
  if (isFinal(outcome)) return { to: 'final', kind: outcome.kind, reason: reasonOf(outcome), code: codeOf(outcome) };
  const reservedAt =
    outcome.kind === 'throttled' && outcome.reservation !== undefined ? { reservedAt: outcome.reservation } : {};
  return {
    to: 'queued',
    countsAttempt: outcome.kind === 'retry',
    dueInSeconds: outcome.retryDelaySeconds ?? 0,
    ...reservedAt,
  };
}

/**
 * The platform rule on attempts: a URL must fail by the coordinator's count (a recorded reason, its page row) before
 * the queue dead-letters its message. A message is delivered at most max_retries + 1 times, and each attempt that is
 * retried takes a delivery, so maxAttempts must be at most max_retries (one delivery to spare for an attempt that
 * breaks before it is counted). Checked against wrangler.toml by test/repo/wrangler-rules.test.ts.
 */
export function attemptsFitQueue(maxAttempts: number, maxRetries: number): boolean {
  return maxAttempts >= 1 && maxAttempts <= maxRetries;
}
