import { describe, expect, it } from 'vitest';
import { failureCode, httpStatusCode, OUTCOME_CODES, parseOutcomeCode } from '../../src/domain/crawl/outcome-codes';
import { type Outcome, recordOf, resolveOutcome, transition } from '../../src/domain/crawl/url-life';
import { classifyResponse } from '../../src/domain/fetch/classify';
import { classifyFetchError, type FetchFailureKind } from '../../src/domain/fetch/failure';

const KINDS: FetchFailureKind[] = ['dns', 'refused', 'timeout', 'reset', 'tls', 'network'];

describe('outcome codes (domain/crawl/outcome-codes.ts)', () => {
  it('are one list of distinct snake_case names', () => {
    expect(new Set(OUTCOME_CODES).size).toBe(OUTCOME_CODES.length);
    for (const code of OUTCOME_CODES) expect(code).toMatch(/^[a-z0-9]+(_[a-z0-9]+)*$/);
  });

  it('name an HTTP error answer by its class', () => {
    expect([400, 404, 410, 425, 451].map(httpStatusCode)).toEqual(Array(5).fill('http_4xx'));
    // 408 and 429 ask to come back later: a URL that ends on them was not answered about.
    expect([408, 429].map(httpStatusCode)).toEqual(['rate_limited', 'rate_limited']);
    expect([500, 503, 520, 599].map(httpStatusCode)).toEqual(Array(4).fill('http_5xx'));
    expect([304, 100, 600].map(httpStatusCode)).toEqual(Array(3).fill('http_other'));
  });

  it('name every fetch failure kind, each its own code', () => {
    const codes = KINDS.map(failureCode);
    expect(new Set(codes).size).toBe(KINDS.length);
    for (const code of codes) expect(OUTCOME_CODES).toContain(code);
    expect(codes).toEqual(['dns', 'connection_refused', 'timeout', 'connection_reset', 'tls', 'network']);
  });

  it('are given with the decision, not read from its words', () => {
    expect(classifyResponse(404, new Headers())).toMatchObject({ kind: 'fail', code: 'http_4xx' });
    expect(classifyResponse(503, new Headers())).toMatchObject({ kind: 'retry', code: 'http_5xx' });
    expect(classifyResponse(429, new Headers())).toMatchObject({ kind: 'retry', code: 'rate_limited' });
    expect(classifyResponse(301, new Headers())).toMatchObject({ kind: 'fail', code: 'redirect_without_location' });
    // A failure's code follows its kind, whatever its message says.
    const failure = classifyFetchError('Network connection lost.', { aborted: false, host: 'a.test', connects: true });
    expect(failure.kind).toBe('reset');
    expect(failureCode(failure.kind)).toBe('connection_reset');
  });

  it('stay what they were made when the message is reworded', () => {
    const url = 'https://a.test/';
    const made: Outcome = { kind: 'retry', url, fetched: true, reason: 'http 503', code: 'http_5xx' };
    const reworded: Outcome = { ...made, reason: 'the server said 503 Service Unavailable, again' };
    // The last attempt's retry becomes the failure with the code it was made with.
    expect(resolveOutcome(made, 4, 4)).toMatchObject({ kind: 'failed', code: 'http_5xx' });
    expect(resolveOutcome(reworded, 4, 4)).toMatchObject({ kind: 'failed', code: 'http_5xx' });
  });

  it('read back from storage: a known code is itself, anything else is other', () => {
    for (const code of OUTCOME_CODES) expect(parseOutcomeCode(code)).toBe(code);
    expect(parseOutcomeCode(null)).toBe('other');
    expect(parseOutcomeCode(undefined)).toBe('other');
    expect(parseOutcomeCode('http 404')).toBe('other');
  });
});

describe('when a URL sent back is due: one function (recordOf), which transition answers with', () => {
  const limits = { maxAttempts: 4, maxRetries: 10 };
  const url = 'https://a.test/';
  it.each<[string, Outcome, number]>([
    ['a retry with no delay asked for', { kind: 'retry', url, fetched: false, reason: 'timeout', code: 'timeout' }, 2],
    ['a released URL with no delay asked for', { kind: 'released', url, fetched: false, reason: 'storage error' }, 1],
    ['a throttled URL', { kind: 'throttled', url, fetched: false, retryDelaySeconds: 9 }, 1],
    ['a retry with a Retry-After', { kind: 'retry', url, fetched: true, code: 'http_4xx', retryDelaySeconds: 30 }, 1],
  ])('%s', (_name, outcome, attempt) => {
    const { record } = transition({ on: 'outcome', outcome, attempt, deliveries: attempt, running: true }, limits);
    expect(record).toEqual(recordOf(outcome, true));
    const asked = 'retryDelaySeconds' in outcome ? outcome.retryDelaySeconds : undefined;
    expect(record).toMatchObject({ to: 'queued', dueInSeconds: asked ?? 0 });
  });
});
