import { describe, expect, it } from 'vitest';
import { readSettings } from '../../src/settings';

describe('settings', () => {
  it('reads vars with defaults and bounds', () => {
    const base = {
      ALLOW_PRIVATE_NETWORKS: 'TRUE',
      USER_AGENT: ' bot/1 ',
      FETCH_TIMEOUT_MS: 'abc',
      MAX_BODY_BYTES: '1',
      MAX_ATTEMPTS: '3',
    } as unknown as Env;
    expect(readSettings(base)).toEqual({
      allowPrivateNetworks: true,
      userAgent: 'bot/1',
      fetchTimeoutMs: 15_000,
      maxBodyBytes: 1024,
      maxAttempts: 3,
      queueMaxRetries: 10,
      fetchConcurrency: 50,
      connectionsPerInvocation: 6,
      emulatedConnectionLimit: 0,
      hostMinIntervalMs: 1000,
      hostMaxConcurrency: 2,
      hostMaxWaitMs: 10_000,
      hostMaxDelayMs: 120_000,
      sweepIntervalMs: 30_000,
      stallAfterMs: 120_000,
      browserMax: 10,
      browserLaunchesPerMinute: 30,
      browserKeepAliveMs: 60_000,
      browserIdleCloseMs: 15_000,
      renderTabs: 4,
      renderTimeoutMs: 20_000,
      renderMaxWaitMs: 10_000,
      subrequestBudget: 9000,
      memoryBudgetBytes: 32 * 1024 * 1024,
    });
    expect(readSettings({ ...base, ALLOW_PRIVATE_NETWORKS: 'false' }).allowPrivateNetworks).toBe(false);
    expect(readSettings({ ...base, FETCH_CONCURRENCY: '0' }).fetchConcurrency).toBe(1);
    expect(readSettings({ ...base, FETCH_CONCURRENCY: '20' }).fetchConcurrency).toBe(20);
    // Never below Workers Free's 50 subrequests an invocation.
    expect(readSettings({ ...base, SUBREQUEST_BUDGET: '10' }).subrequestBudget).toBe(50);
    // Never more connections waiting for headers than the platform gives an invocation.
    expect(readSettings({ ...base, CONNECTIONS_PER_INVOCATION: '50' }).connectionsPerInvocation).toBe(6);
    expect(readSettings({ ...base, CONNECTIONS_PER_INVOCATION: '4' }).connectionsPerInvocation).toBe(4);
    expect(readSettings({ ...base, EMULATE_CONNECTION_LIMIT: '6' }).emulatedConnectionLimit).toBe(6);
    expect(readSettings({ ...base, ALLOW_PRIVATE_NETWORKS: ' 127.0.0.1, LocalHost ,' }).allowPrivateNetworks).toEqual([
      '127.0.0.1',
      'localhost',
    ]);
  });
});
