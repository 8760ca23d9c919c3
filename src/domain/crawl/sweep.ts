/**
 * Which lost work a crawl's coordinator re-sends when its alarm fires. A queue's messages can vanish (a Worker killed
 * mid-batch, a failed send, a local queue that did not survive a restart), and the coordinator's leases vanish with
 * it. Re-sending is safe: the seen-set hands each URL to one message, and a duplicate message is acked unfetched.
 */

/** A coordinator that wakes up (a new instance of a running crawl) and hears from no consumer this long has lost its messages. */
export const WAKE_QUIET_MS = 8_000;
/** Backstop: a URL queued this long past when it was due is re-sent, even while the crawl is busy. */
export const REQUEUE_AFTER_MS = 60 * 60_000;
/** The backstop scans the whole seen-set (there is no index, to keep writes cheap), at most this often. */
export const BACKSTOP_EVERY_MS = 10 * 60_000;

export interface SweepClock {
  now: number;
  /** When this instance of the coordinator was made. */
  wokeAt: number;
  /** The last claim or completion this instance served (0: none yet). */
  activeAt: number;
  /** URLs queued (not final). */
  pending: number;
  /** The instance is re-sending what a restart lost, and has not reached the end of it yet. */
  recovering: boolean;
  /** When the backstop last scanned (0: never, in this instance). */
  backstopAt: number;
}

export interface SweepPlan {
  /** Re-send queued URLs, not under a live lease, that were due at or before this time (null: none). */
  dueBefore: number | null;
  why: 'wake' | 'stall' | 'backstop' | null;
  /** The instance is (still, or now) recovering from a restart. */
  recovering: boolean;
  /** This sweep is the backstop's scan. */
  backstop: boolean;
}

/**
 * - wake: a new instance heard from no consumer for WAKE_QUIET_MS: every URL due before it woke is re-sent (in
 *   pages, one per alarm, until none is left), since nothing says any of their messages still exist;
 * - stall: no claim or completion for stallAfterMs while URLs are pending: the URLs due before the stall;
 * - backstop: URLs due more than REQUEUE_AFTER_MS ago, checked every BACKSTOP_EVERY_MS.
 * Expired leases are handled apart (their URLs are re-sent at once).
 */
export function sweepPlan(clock: SweepClock, stallAfterMs: number): SweepPlan {
  const { now, wokeAt, activeAt, pending } = clock;
  const quietSinceWake = activeAt < wokeAt && now - wokeAt >= WAKE_QUIET_MS;
  const recovering = pending > 0 && (clock.recovering || quietSinceWake);
  const stalled = pending > 0 && now - Math.max(activeAt, wokeAt) >= stallAfterMs;
  const backstop = now - clock.backstopAt >= BACKSTOP_EVERY_MS;
  const candidates: [SweepPlan['why'], number][] = [];
  if (recovering) candidates.push(['wake', wokeAt]);
  if (stalled) candidates.push(['stall', now - stallAfterMs]);
  if (backstop) candidates.push(['backstop', now - REQUEUE_AFTER_MS]);
  const latest = candidates.reduce<[SweepPlan['why'], number] | null>(
    (best, c) => (best === null || c[1] > best[1] ? c : best),
    null,
  );
  return { dueBefore: latest?.[1] ?? null, why: latest?.[0] ?? null, recovering, backstop };
}

/**
 * When the next sweep is due after one that ran at `clock.now`: in a second when a restart's recovery has more, else
 * after the sweep interval; but no later than the end of a new instance's quiet period while no consumer has been
 * heard from, so that its wake check is not put off by a sweep that came early (an alarm set before the restart).
 */
export function nextSweepAt(
  clock: Pick<SweepClock, 'now' | 'wokeAt' | 'activeAt'>,
  more: boolean,
  intervalMs: number,
): number {
  const next = clock.now + (more ? 1000 : intervalMs);
  const wakeCheck = clock.wokeAt + WAKE_QUIET_MS;
  return clock.activeAt < clock.wokeAt && wakeCheck > clock.now ? Math.min(next, wakeCheck) : next;
}
