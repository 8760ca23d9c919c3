/**
 * Reservations on a host's pacing timeline (see docs/politeness.md). A URL that cannot get a slot within the
 * consumer's wait budget is given one further on the timeline instead, and goes back to the queue once, delayed
 * until about then; when it comes back it presents the reservation (its start, epoch ms) and is let through.
 */

/** How far ahead a host's timeline is handed out: past it, a URL waits this long unreserved. */
export const RESERVE_HORIZON_MS = 60 * 60_000;
/** Queues delay a message by at most 12 hours. */
const MAX_QUEUE_DELAY_MS = 43_200_000;

/** What the gate knows when it places a request. */
export interface Timeline {
  now: number;
  /** When the next slot on the timeline is free for this request (its first gap, at or after now and any back-off). */
  nextFree: number;
  blockedUntil: number;
  /** Not before this: the previous presented reservation's start plus its spacing (late ones are spaced apart). */
  reservedCursor: number;
  spacing: number;
  /** The host's (and the crawl's) cap on requests in flight has been reached. */
  full: boolean;
}

export interface Placement {
  maxWaitMs: number;
  /** The start of a slot reserved earlier, presented by the URL that holds it. */
  reservedAt?: number;
  /** Beyond the wait budget, reserve a slot rather than answer 'wait'. */
  reserve?: boolean;
}

export type SlotPlan =
  /** A slot starting at `start`; `advance`: it takes a new place on the timeline (nextFree moves past it). */
  | { kind: 'grant'; start: number; advance: boolean }
  /** A place on the timeline at `start`, to be presented then (nextFree moves past it). */
  | { kind: 'reserve'; start: number }
  /** A presented reservation that is still ahead, beyond the budget (it came early): it keeps its place, at `start`. */
  | { kind: 'kept'; start: number }
  | { kind: 'wait'; retryInMs: number };

/** How long to wait when every slot is in flight: an interval, between 50 ms and 1 s. */
function capRetryMs(spacing: number): number {
  return Math.min(Math.max(spacing, 50), 1000);
}

/**
 * Where a request goes on the host's timeline. A presented reservation whose start (no earlier than the host's
 * back-off and the previous presented one) is within the wait budget is granted without taking a new place: its
 * place was taken when it was reserved; one that came early (its own start beyond the budget) keeps that place.
 * Anything else is placed in the timeline's first free slot: granted within the budget, else reserved there (up to
 * RESERVE_HORIZON_MS ahead), else told to wait. A full host answers 'wait' (the cap frees up in moments, not in
 * intervals), unless the request would be reserved anyway.
 */
export function planSlot(t: Timeline, p: Placement): SlotPlan {
  if (p.reservedAt !== undefined) {
    if (p.reservedAt - t.now > p.maxWaitMs) return { kind: 'kept', start: p.reservedAt };
    const start = Math.max(t.now, p.reservedAt, t.blockedUntil, t.reservedCursor);
    if (start - t.now <= p.maxWaitMs) {
      return t.full
        ? { kind: 'wait', retryInMs: Math.max(start - t.now, capRetryMs(t.spacing)) }
        : { kind: 'grant', start, advance: false };
    }
  }
  const start = Math.max(t.now, t.nextFree, t.blockedUntil);
  const waitMs = start - t.now;
  if (waitMs > p.maxWaitMs && p.reserve) {
    return waitMs > RESERVE_HORIZON_MS ? { kind: 'wait', retryInMs: RESERVE_HORIZON_MS } : { kind: 'reserve', start };
  }
  if (t.full) return { kind: 'wait', retryInMs: Math.max(waitMs, capRetryMs(t.spacing)) };
  if (waitMs > p.maxWaitMs) return { kind: 'wait', retryInMs: waitMs };
  return { kind: 'grant', start, advance: true };
}

/**
 * Messages of URLs holding a reservation are delayed by whole windows of this length, so that those reserved close
 * together are due at the same moment (they travel in one message, see queues/frontier.ts), arriving at most this
 * long before their slots: keep it at most half of HOST_MAX_WAIT_MS (10 s by default), or early arrivals are
 * reserved again.
 */
const RESERVATION_WINDOW_MS = 5000;

/** How long the message of a URL holding a reservation is delayed, sent at `now`: at most 12 hours (Queues' limit). */
export function reservationDelayMs(reservedAt: number, now: number): number {
  const windows = Math.floor((reservedAt - now) / RESERVATION_WINDOW_MS);
  return Math.min(MAX_QUEUE_DELAY_MS, Math.max(0, windows * RESERVATION_WINDOW_MS));
}
