/**
 * The account's model calls spaced evenly (objects/model-gate.ts keeps the state): a call starts at least
 * 60,000 / perMinute ms after the one before, so no minute holds more than perMinute of them, whichever invocations
 * make them. Workers AI limits the requests per minute of an account (300 for text generation by default); the
 * queue's max_concurrency times MODEL_CONCURRENCY only bounds the calls in flight, not how fast they come.
 */

/** A call's slot: `go` at startAt (epoch ms), booked; `later`: none within the caller's wait, the next free one then. */
export type ModelSlot = { kind: 'go'; startAt: number } | { kind: 'later'; startAt: number };

/** The spacing of calls for `perMinute` of them a minute: rounded up, so a minute never holds one more. */
export const spacingMs = (perMinute: number): number => Math.ceil(60_000 / perMinute);

/** The next call's slot, and when the one after may start (unchanged when nothing was booked). */
export function modelSlot(
  nextFree: number,
  now: number,
  perMinute: number,
  maxWaitMs: number,
): { slot: ModelSlot; nextFree: number } {
  const startAt = Math.max(now, nextFree);
  if (startAt - now > maxWaitMs) return { slot: { kind: 'later', startAt }, nextFree };
  return { slot: { kind: 'go', startAt }, nextFree: startAt + spacingMs(perMinute) };
}
