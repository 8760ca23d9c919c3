import { describe, expect, it } from 'vitest';
import { classifyResponse, parseRetryAfter } from '../../src/domain/fetch/classify';

const h = (init: Record<string, string> = {}) => new Headers(init);

describe('classifyResponse (error taxonomy)', () => {
  it('2xx is ok; 3xx with Location is a redirect; without, a failure', () => {
    expect(classifyResponse(200, h())).toEqual({ kind: 'ok' });
    expect(classifyResponse(204, h())).toEqual({ kind: 'ok' });
    expect(classifyResponse(301, h({ location: '/x' }))).toEqual({ kind: 'redirect', location: '/x' });
    expect(classifyResponse(308, h({ location: 'y' }))).toEqual({ kind: 'redirect', location: 'y' });
    expect(classifyResponse(302, h())).toEqual({
      kind: 'fail',
      reason: 'http 302 without Location',
      code: 'redirect_without_location',
    });
  });
  it('408, 429 and 5xx are retryable, with Retry-After when given', () => {
    for (const status of [408, 429, 500, 502, 503, 504]) expect(classifyResponse(status, h()).kind).toBe('retry');
    expect(classifyResponse(503, h())).toEqual({ kind: 'retry', reason: 'http 503', code: 'http_5xx' });
    expect(classifyResponse(429, h({ 'retry-after': '7' }))).toEqual({
      kind: 'retry',
      reason: 'http 429',
      code: 'rate_limited',
      retryAfterSeconds: 7,
    });
  });
  it('other 4xx are permanent', () => {
    for (const status of [400, 401, 403, 404, 410, 451])
      expect(classifyResponse(status, h())).toEqual({ kind: 'fail', reason: `http ${status}`, code: 'http_4xx' });
  });
  it('parses Retry-After as seconds or an HTTP date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30);
    expect(parseRetryAfter('Wed, 31 Dec 2025 00:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});
