/** Time series of a crawl's activity: fixed intervals, empty ones filled with zeros. */

/** Interval lengths a series may use, seconds: round numbers a reader can take in. */
const NICE_SECONDS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 21600, 43200, 86400];

/** The most points a series has. */
export const MAX_POINTS = 1000;

/** The shortest round interval that covers `spanMs` in at most `points` intervals. */
export function chooseInterval(spanMs: number, points = 60): number {
  const seconds = Math.max(0, spanMs) / 1000 / Math.max(1, points);
  return NICE_SECONDS.find((s) => s >= seconds) ?? Math.ceil(seconds / 86400) * 86400;
}

export interface Bucket {
  /** Start of the interval, epoch ms (a multiple of the interval). */
  at: number;
  fetched: number;
  failed: number;
}

/**
 * Buckets from `fromMs` to `toMs` (inclusive) every `intervalSeconds`, with the counts given per bucket start;
 * intervals with nothing are zeros, so a chart's x axis is time, not row order.
 */
export function fillSeries(
  counts: readonly { at: number; fetched?: number; failed?: number }[],
  fromMs: number,
  toMs: number,
  intervalSeconds: number,
): Bucket[] {
  const step = intervalSeconds * 1000;
  const byAt = new Map<number, Bucket>();
  for (const c of counts) {
    const bucket = byAt.get(c.at) ?? { at: c.at, fetched: 0, failed: 0 };
    bucket.fetched += c.fetched ?? 0;
    bucket.failed += c.failed ?? 0;
    byAt.set(c.at, bucket);
  }
  const first = Math.floor(fromMs / step) * step;
  const last = Math.floor(toMs / step) * step;
  const out: Bucket[] = [];
  for (let at = first; at <= last && out.length < MAX_POINTS; at += step)
    out.push(byAt.get(at) ?? { at, fetched: 0, failed: 0 });
  return out;
}
