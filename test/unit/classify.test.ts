import { describe, expect, it } from 'vitest';
import { backoffSeconds } from '../../src/domain/backoff';
import { classifyResponse, parseRetryAfter } from '../../src/domain/classify';
import { decodeCursor, encodeCursor } from '../../src/domain/cursor';
import { safeEqual } from '../../src/api/auth';
import { readSettings } from '../../src/settings';
import { readCapped, BodyTooLargeError } from '../../src/page/fetcher';

const h = (init: Record<string, string> = {}) => new Headers(init);

describe('classifyResponse (error taxonomy)', () => {
  it('2xx is ok; 3xx with Location is a redirect; without, a failure', () => {
    expect(classifyResponse(200, h())).toEqual({ kind: 'ok' });
    expect(classifyResponse(204, h())).toEqual({ kind: 'ok' });
    expect(classifyResponse(301, h({ location: '/x' }))).toEqual({ kind: 'redirect', location: '/x' });
    expect(classifyResponse(308, h({ location: 'y' }))).toEqual({ kind: 'redirect', location: 'y' });
    expect(classifyResponse(302, h())).toEqual({ kind: 'fail', reason: 'http 302 without Location' });
  });
  it('408, 429 and 5xx are retryable, with Retry-After when given', () => {
    for (const status of [408, 429, 500, 502, 503, 504]) expect(classifyResponse(status, h()).kind).toBe('retry');
    expect(classifyResponse(429, h({ 'retry-after': '7' }))).toEqual({ kind: 'retry', reason: 'http 429', retryAfterSeconds: 7 });
  });
  it('other 4xx are permanent', () => {
    for (const status of [400, 401, 403, 404, 410, 451]) expect(classifyResponse(status, h())).toEqual({ kind: 'fail', reason: `http ${status}` });
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

describe('backoffSeconds', () => {
  it('grows exponentially with jitter between half and the whole ceiling, capped', () => {
    expect(backoffSeconds(1, 2, 300, () => 0)).toBe(1);
    expect(backoffSeconds(1, 2, 300, () => 1)).toBe(2);
    expect(backoffSeconds(4, 2, 300, () => 0)).toBe(8);
    expect(backoffSeconds(4, 2, 300, () => 1)).toBe(16);
    expect(backoffSeconds(30, 2, 300, () => 1)).toBe(300);
    expect(backoffSeconds(0, 2, 300, () => 0)).toBe(1);
  });
});

describe('cursors', () => {
  it('round-trip values and reject garbage', () => {
    for (const value of ['http://e.com/ä?x=1', { c: 5, i: 'id' }, 0]) expect(decodeCursor(encodeCursor(value))).toEqual(value);
    expect(decodeCursor('!!!')).toBeUndefined();
    expect(decodeCursor('bm9wZQ')).toBeUndefined(); // "nope" is not JSON
    expect(decodeCursor('')).toBeUndefined();
  });
});

describe('safeEqual', () => {
  it('compares secrets of any length', async () => {
    expect(await safeEqual('abc', 'abc')).toBe(true);
    expect(await safeEqual('abc', 'abd')).toBe(false);
    expect(await safeEqual('abc', 'abcd')).toBe(false);
  });
});

describe('settings', () => {
  it('reads vars with defaults and bounds', () => {
    const base = { ALLOW_PRIVATE_NETWORKS: 'TRUE', USER_AGENT: ' bot/1 ', FETCH_TIMEOUT_MS: 'abc', MAX_BODY_BYTES: '1', MAX_ATTEMPTS: '3' } as unknown as Env;
    expect(readSettings(base)).toEqual({
      allowPrivateNetworks: true,
      userAgent: 'bot/1',
      fetchTimeoutMs: 15_000,
      maxBodyBytes: 1024,
      maxAttempts: 3,
      fetchConcurrency: 50,
      hostMinIntervalMs: 1000,
      hostMaxConcurrency: 2,
      hostMaxWaitMs: 10_000,
      hostMaxDelayMs: 120_000,
      sweepIntervalMs: 30_000,
      stallAfterMs: 120_000,
    });
    expect(readSettings({ ...base, ALLOW_PRIVATE_NETWORKS: 'false' }).allowPrivateNetworks).toBe(false);
    expect(readSettings({ ...base, FETCH_CONCURRENCY: '0' }).fetchConcurrency).toBe(1);
    expect(readSettings({ ...base, FETCH_CONCURRENCY: '20' }).fetchConcurrency).toBe(20);
    expect(readSettings({ ...base, ALLOW_PRIVATE_NETWORKS: ' 127.0.0.1, LocalHost ,' }).allowPrivateNetworks).toEqual(['127.0.0.1', 'localhost']);
  });
});

describe('readCapped', () => {
  const stream = (chunks: number[]) =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (const size of chunks) controller.enqueue(new Uint8Array(size).fill(7));
        controller.close();
      },
    });
  it('joins chunks up to the cap', async () => {
    const out = await readCapped(stream([3, 4, 5]), 12);
    expect(out.byteLength).toBe(12);
    expect(out.every((b) => b === 7)).toBe(true);
  });
  it('fails as soon as the stream grows past the cap', async () => {
    await expect(readCapped(stream([8, 8]), 12)).rejects.toBeInstanceOf(BodyTooLargeError);
  });
  it('an absent body is empty', async () => {
    expect((await readCapped(null, 10)).byteLength).toBe(0);
  });
});
