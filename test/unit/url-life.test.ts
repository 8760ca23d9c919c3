import { describe, expect, it } from 'vitest';
import {
  attemptsFitQueue,
  DEAD_LETTER_REASON,
  type Outcome,
  recordOf,
  resolveOutcome,
  type Transition,
  transition,
  type UrlEvent,
} from '../../src/domain/crawl/url-life';
import { backoffSeconds } from '../../src/domain/fetch/backoff';

const MAX = 4;
const LIMITS = { maxAttempts: MAX, maxRetries: 10 };
const url = 'https://example.com/';
const links = [{ url: 'https://example.com/a', depth: 1, hops: 0 }];
/** An outcome before it names its URL. */
type Bare = Outcome extends infer O ? (O extends Outcome ? Omit<O, 'url'> : never) : never;
const outcome = (o: Bare): Outcome => ({ url, ...o });
const at = (o: Bare, attempt: number, running = true, deliveries = attempt): UrlEvent => ({
  on: 'outcome',
  outcome: outcome(o),
  attempt,
  deliveries,
  running,
});

/** One row per line of the protocol table in src/domain/crawl/url-life.ts. */
const rows: [string, UrlEvent, Transition][] = [
  [
    'stored: final, acked',
    at({ kind: 'stored', fetched: true, links }, 1),
    { record: { to: 'final', kind: 'stored', reason: null, code: null }, message: { do: 'ack' } },
  ],
  [
    'skipped: final with its reason, acked',
    at({ kind: 'skipped', fetched: false, reason: 'blocked by robots.txt', code: 'robots_disallowed' }, 1),
    {
      record: { to: 'final', kind: 'skipped', reason: 'blocked by robots.txt', code: 'robots_disallowed' },
      message: { do: 'ack' },
    },
  ],
  [
    'failed: final with its reason, acked',
    at({ kind: 'failed', fetched: true, reason: 'http 404', code: 'http_4xx' }, 1),
    { record: { to: 'final', kind: 'failed', reason: 'http 404', code: 'http_4xx' }, message: { do: 'ack' } },
  ],
  [
    'duplicate: final with its reason (canonical or content), acked',
    at({ kind: 'duplicate', fetched: true, reason: 'canonical', of: `${url}?ref=canonical`, links }, 1),
    { record: { to: 'final', kind: 'duplicate', reason: 'canonical', code: null }, message: { do: 'ack' } },
  ],
  [
    'retry before the last attempt: queued, the attempt counted, the message retried after the delay asked for',
    at({ kind: 'retry', fetched: true, reason: 'http 503', code: 'http_5xx', retryDelaySeconds: 30 }, 2),
    { record: { to: 'queued', countsAttempt: true, dueInSeconds: 30 }, message: { do: 'retry', delaySeconds: 30 } },
  ],
  [
    'retry on the last attempt: failed for good with the retry reason, acked',
    at({ kind: 'retry', fetched: true, reason: 'http 503', code: 'http_5xx' }, MAX),
    { record: { to: 'final', kind: 'failed', reason: 'http 503', code: 'http_5xx' }, message: { do: 'ack' } },
  ],
  [
    'throttled, a delivery to spare: queued without using an attempt, its slot kept, the message retried to the slot',
    at(
      { kind: 'throttled', fetched: false, reason: 'waiting for the host', retryDelaySeconds: 12, reservation: 5000 },
      1,
      true,
      1,
    ),
    {
      record: { to: 'queued', countsAttempt: false, dueInSeconds: 12, reservedAt: 5000 },
      message: { do: 'retry', delaySeconds: 12 },
    },
  ],
  [
    'throttled, no delivery to spare: resent as a new message delayed to the slot (waiting never dead-letters a URL)',
    at({ kind: 'throttled', fetched: false, reason: 'waiting for the host', retryDelaySeconds: 12 }, 1, true, 8),
    { record: { to: 'queued', countsAttempt: false, dueInSeconds: 12 }, message: { do: 'resend', delaySeconds: 12 } },
  ],
  [
    'released (our fault): queued without using an attempt, the message retried',
    at({ kind: 'released', fetched: false, reason: 'storage error', retryDelaySeconds: 5 }, MAX),
    { record: { to: 'queued', countsAttempt: false, dueInSeconds: 5 }, message: { do: 'retry', delaySeconds: 5 } },
  ],
  [
    'not final once the crawl was cancelled: skipped, cancelled, acked',
    at({ kind: 'retry', fetched: true, reason: 'http 503', code: 'http_5xx' }, 1, false),
    { record: { to: 'final', kind: 'skipped', reason: 'cancelled', code: 'cancelled' }, message: { do: 'ack' } },
  ],
  [
    'final once the crawl was cancelled: recorded as it finished',
    at({ kind: 'stored', fetched: true }, 1, false),
    { record: { to: 'final', kind: 'stored', reason: null, code: null }, message: { do: 'ack' } },
  ],
  ['unclaimed: nothing recorded, acked', { on: 'unclaimed' }, { record: { to: 'unchanged' }, message: { do: 'ack' } }],
  [
    'dead-lettered: failed for good, acked',
    { on: 'dead-lettered' },
    {
      record: { to: 'final', kind: 'failed', reason: DEAD_LETTER_REASON, code: 'retries_exhausted' },
      message: { do: 'ack' },
    },
  ],
];

describe('the life of a URL (domain/crawl/url-life.ts)', () => {
  it.each(rows)('%s', (_name, event, expected) => {
    expect(transition(event, LIMITS)).toEqual(expected);
  });

  it('coordinator unreachable: nothing recorded, the message retried after the backoff of its deliveries', () => {
    const { record, message } = transition({ on: 'coordinator-unreachable', deliveries: 3 }, LIMITS);
    expect(record).toEqual({ to: 'unchanged' });
    expect(message.do).toBe('retry');
    // backoff(3): a ceiling of 8 s with full jitter over its upper half.
    if (message.do === 'retry')
      expect(message.delaySeconds).toBeGreaterThanOrEqual(4), expect(message.delaySeconds).toBeLessThanOrEqual(8);
  });

  it('a retry with no delay asked for waits the backoff of its attempt', () => {
    const { message } = transition(
      at({ kind: 'retry', fetched: false, reason: 'timeout', code: 'timeout' }, 3),
      LIMITS,
    );
    expect(message.do === 'retry' && message.delaySeconds).toBeGreaterThanOrEqual(backoffSeconds(3, 2, 300, () => 0));
    expect(message.do === 'retry' && message.delaySeconds).toBeLessThanOrEqual(backoffSeconds(3, 2, 300, () => 1));
  });

  it('records what the coordinator records (recordOf, the one answer): a last retry after a cancel is its failure', () => {
    const last = at({ kind: 'retry', fetched: true, reason: 'http 503', code: 'http_5xx' }, MAX, false);
    const { record, message } = transition(last, LIMITS);
    expect(record).toEqual({ to: 'final', kind: 'failed', reason: 'http 503', code: 'http_5xx' });
    expect(message).toEqual({ do: 'ack' });
    if (last.on === 'outcome') expect(record).toEqual(recordOf(resolveOutcome(last.outcome, MAX, MAX), false));
  });

  it('resolves a retry on the last attempt into the failure the coordinator, D1 and webhooks see', () => {
    expect(
      resolveOutcome(outcome({ kind: 'retry', fetched: true, reason: 'http 500', code: 'http_5xx' }), MAX, MAX),
    ).toEqual(outcome({ kind: 'failed', fetched: true, reason: 'http 500', code: 'http_5xx' }));
    const early = outcome({ kind: 'retry', fetched: true, reason: 'http 500', code: 'http_5xx' });
    expect(resolveOutcome(early, 1, MAX)).toBe(early);
  });

  it.each([
    [
      'stored',
      outcome({ kind: 'stored', fetched: true }),
      true,
      { to: 'final', kind: 'stored', reason: null, code: null },
    ],
    [
      'retry counts an attempt',
      outcome({ kind: 'retry', fetched: true, code: 'http_5xx', retryDelaySeconds: 7 }),
      true,
      { to: 'queued', countsAttempt: true, dueInSeconds: 7 },
    ],
    [
      'throttled does not',
      outcome({ kind: 'throttled', fetched: false, retryDelaySeconds: 9 }),
      true,
      { to: 'queued', countsAttempt: false, dueInSeconds: 9 },
    ],
    [
      'released does not',
      outcome({ kind: 'released', fetched: false }),
      true,
      { to: 'queued', countsAttempt: false, dueInSeconds: 0 },
    ],
    [
      'a retry after a cancel ends skipped',
      outcome({ kind: 'retry', fetched: true, code: 'http_5xx' }),
      false,
      { to: 'final', kind: 'skipped', reason: 'cancelled', code: 'cancelled' },
    ],
  ] as const)('the coordinator records %s', (_name, reported, running, expected) => {
    expect(recordOf(reported, running)).toEqual(expected);
  });

  it.each([
    [4, 5, true],
    [5, 5, true],
    [6, 5, false],
    [0, 5, false],
  ])('maxAttempts %i with max_retries %i fits the queue: %s', (attempts, retries, fits) => {
    expect(attemptsFitQueue(attempts, retries)).toBe(fits);
  });
});
