import { describe, expect, it } from 'vitest';
import { readSettings } from '../../src/settings';

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
