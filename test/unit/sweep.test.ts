import { describe, expect, it } from 'vitest';
import {
  BACKSTOP_EVERY_MS,
  nextSweepAt,
  REQUEUE_AFTER_MS,
  type SweepClock,
  type SweepPlan,
  sweepPlan,
  WAKE_QUIET_MS,
} from '../../src/domain/crawl/sweep';

const STALL = 120_000;
const woke = 1_000_000;
const clock = (c: Partial<SweepClock>): SweepClock => ({
  now: woke,
  wokeAt: woke,
  activeAt: 0,
  pending: 10,
  recovering: false,
  backstopAt: woke,
  ...c,
});

const rows: [string, SweepClock, Partial<SweepPlan>][] = [
  ['just woke: nothing yet', clock({ now: woke + 1000 }), { dueBefore: null, recovering: false }],
  [
    'woke and no consumer heard from: everything due before the wake',
    clock({ now: woke + WAKE_QUIET_MS }),
    { dueBefore: woke, why: 'wake', recovering: true },
  ],
  [
    'woke and a consumer was heard from: the queue is alive',
    clock({ now: woke + WAKE_QUIET_MS, activeAt: woke + 10 }),
    { dueBefore: null, recovering: false },
  ],
  [
    'still recovering a restart',
    clock({ now: woke + 60_000, activeAt: woke + 50_000, recovering: true }),
    { dueBefore: woke, why: 'wake', recovering: true },
  ],
  [
    'nothing pending: nothing to recover',
    clock({ now: woke + WAKE_QUIET_MS, pending: 0 }),
    { dueBefore: null, recovering: false },
  ],
  [
    'stalled: what was due before the stall',
    clock({ now: woke + 500_000, activeAt: woke + 100_000 }),
    { dueBefore: woke + 500_000 - STALL, why: 'stall' },
  ],
  ['busy: nothing', clock({ now: woke + 500_000, activeAt: woke + 499_000 }), { dueBefore: null }],
  [
    'the backstop, every so often: what is an hour overdue',
    clock({ now: woke + BACKSTOP_EVERY_MS, activeAt: woke + BACKSTOP_EVERY_MS - 1 }),
    { dueBefore: woke + BACKSTOP_EVERY_MS - REQUEUE_AFTER_MS, why: 'backstop', backstop: true },
  ],
];

describe('the sweep plan (domain/crawl/sweep.ts)', () => {
  it.each(rows)('%s', (_name, c, expected) => {
    expect(sweepPlan(c, STALL)).toMatchObject(expected);
  });
});

describe('nextSweepAt', () => {
  it("comes no later than a new instance's wake check while no consumer is heard from", () => {
    // An alarm set before the restart fired 2 s after the wake: the next sweep is the wake check, not 30 s on.
    expect(nextSweepAt({ now: woke + 2000, wokeAt: woke, activeAt: 0 }, false, 30_000)).toBe(woke + WAKE_QUIET_MS);
    expect(nextSweepAt({ now: woke + 2000, wokeAt: woke, activeAt: woke + 1000 }, false, 30_000)).toBe(woke + 32_000);
    expect(nextSweepAt({ now: woke + WAKE_QUIET_MS, wokeAt: woke, activeAt: 0 }, false, 30_000)).toBe(
      woke + WAKE_QUIET_MS + 30_000,
    );
    expect(nextSweepAt({ now: woke + 2000, wokeAt: woke, activeAt: 0 }, true, 30_000)).toBe(woke + 3000);
  });
});
