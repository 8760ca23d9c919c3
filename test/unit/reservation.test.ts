import { describe, expect, it } from 'vitest';
import {
  planSlot,
  RESERVE_HORIZON_MS,
  reservationDelayMs,
  type Timeline,
} from '../../src/domain/politeness/reservation';

const NOW = 1_000_000;
const idle: Timeline = { now: NOW, nextFree: 0, blockedUntil: 0, reservedCursor: 0, spacing: 1010, full: false };

describe('planSlot', () => {
  it('grants within the wait budget and moves the timeline on', () => {
    expect(planSlot(idle, { maxWaitMs: 10_000 })).toEqual({ kind: 'grant', start: NOW, advance: true });
    expect(planSlot({ ...idle, nextFree: NOW + 4000 }, { maxWaitMs: 10_000 })).toEqual({
      kind: 'grant',
      start: NOW + 4000,
      advance: true,
    });
  });

  it('reserves a slot at the end of the timeline when asked to, rather than answering wait', () => {
    const busy = { ...idle, nextFree: NOW + 60_000 };
    expect(planSlot(busy, { maxWaitMs: 10_000 })).toEqual({ kind: 'wait', retryInMs: 60_000 });
    expect(planSlot(busy, { maxWaitMs: 10_000, reserve: true })).toEqual({ kind: 'reserve', start: NOW + 60_000 });
    // Behind a back-off too; even when every slot is in flight (the reservation is for later).
    expect(planSlot({ ...busy, blockedUntil: NOW + 90_000, full: true }, { maxWaitMs: 10_000, reserve: true })).toEqual(
      {
        kind: 'reserve',
        start: NOW + 90_000,
      },
    );
  });

  it('hands out nothing beyond the horizon', () => {
    const far = { ...idle, nextFree: NOW + RESERVE_HORIZON_MS + 1 };
    expect(planSlot(far, { maxWaitMs: 10_000, reserve: true })).toEqual({
      kind: 'wait',
      retryInMs: RESERVE_HORIZON_MS,
    });
  });

  it('grants a presented reservation at its start without a new place on the timeline', () => {
    const busy = { ...idle, nextFree: NOW + 60_000 };
    expect(planSlot(busy, { maxWaitMs: 10_000, reserve: true, reservedAt: NOW + 3000 })).toEqual({
      kind: 'grant',
      start: NOW + 3000,
      advance: false,
    });
    // Early (its start beyond the budget): it keeps its place, rather than a second one at the end of the timeline.
    expect(planSlot(busy, { maxWaitMs: 10_000, reserve: true, reservedAt: NOW + 30_000 })).toEqual({
      kind: 'kept',
      start: NOW + 30_000,
    });
  });

  it('serves late reservations at once, spaced from each other, and within the budget only', () => {
    const busy = { ...idle, nextFree: NOW + 60_000 };
    expect(planSlot(busy, { maxWaitMs: 10_000, reservedAt: NOW - 50_000 })).toEqual({
      kind: 'grant',
      start: NOW,
      advance: false,
    });
    expect(planSlot({ ...busy, reservedCursor: NOW + 1010 }, { maxWaitMs: 10_000, reservedAt: NOW - 49_000 })).toEqual({
      kind: 'grant',
      start: NOW + 1010,
      advance: false,
    });
    expect(
      planSlot(
        { ...busy, reservedCursor: NOW + 20_000 },
        { maxWaitMs: 10_000, reserve: true, reservedAt: NOW - 49_000 },
      ),
    ).toEqual({
      kind: 'reserve',
      start: NOW + 60_000,
    });
  });

  it('keeps a presented reservation waiting, briefly, while the host is at its cap; and holds back-offs', () => {
    expect(planSlot({ ...idle, full: true }, { maxWaitMs: 10_000, reservedAt: NOW })).toEqual({
      kind: 'wait',
      retryInMs: 1000,
    });
    expect(planSlot({ ...idle, spacing: 0, full: true }, { maxWaitMs: 10_000 })).toEqual({
      kind: 'wait',
      retryInMs: 50,
    });
    expect(planSlot({ ...idle, blockedUntil: NOW + 2000 }, { maxWaitMs: 10_000, reservedAt: NOW })).toEqual({
      kind: 'grant',
      start: NOW + 2000,
      advance: false,
    });
  });
});

describe('reservationDelayMs', () => {
  it('delays by whole windows of 5 s, never past the reservation, at most 12 hours', () => {
    expect(reservationDelayMs(NOW + 12_300, NOW)).toBe(10_000);
    expect(reservationDelayMs(NOW + 14_999, NOW)).toBe(10_000);
    expect(reservationDelayMs(NOW + 15_000, NOW)).toBe(15_000);
    expect(reservationDelayMs(NOW + 4999, NOW)).toBe(0);
    expect(reservationDelayMs(NOW - 10, NOW)).toBe(0);
    expect(reservationDelayMs(NOW + 100 * 3_600_000, NOW)).toBe(43_200_000);
  });
});
