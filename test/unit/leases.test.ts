import { describe, expect, it } from 'vitest';
import { Leases, leaseMs } from '../../src/domain/crawl/leases';

describe('leases (domain/crawl/leases.ts)', () => {
  it('hands a URL to one message until its lease expires; the same message gets it back', () => {
    const leases = new Leases();
    expect(leases.grant('u', 'm1', 0, 0, 100)).toBe(1);
    expect(leases.grant('u', 'm2', 0, 50, 150)).toBeNull();
    expect(leases.grant('u', null, 0, 50, 150)).toBeNull();
    // A redelivery of m1 (its consumer died, or it was retried): the next attempt.
    expect(leases.grant('u', 'm1', 0, 60, 160)).toBe(2);
    // Expired: anyone may claim it, and the lost attempt counts.
    expect(leases.grant('u', 'm3', 0, 200, 300)).toBe(3);
    expect(leases.grant('u', 'm4', 5, 300, 400)).toBe(6);
  });

  it('expires and releases', () => {
    const leases = new Leases();
    leases.grant('a', 'm', 0, 0, 100);
    leases.grant('b', 'm', 0, 0, 200);
    expect(leases.live(150)).toEqual(['b']);
    expect(leases.expire(150)).toEqual(['a']);
    expect(leases.holds('b', 150)).toBe(true);
    expect(leases.release('b')?.attempts).toBe(1);
    expect(leases.size).toBe(0);
  });

  it('lasts the host wait, the rounds of connections the claimed pages need, and a margin', () => {
    expect(leaseMs(12, { hostMaxWaitMs: 10_000, fetchTimeoutMs: 15_000, connections: 6 })).toBe(
      10_000 + 2 * 15_000 + 60_000,
    );
    expect(leaseMs(1, { hostMaxWaitMs: 0, fetchTimeoutMs: 1000, connections: 6 })).toBe(1000 + 60_000);
  });
});
