/**
 * A host's timeline: the slots its gate has booked ahead (granted, or reserved for URLs that come back later), each
 * booked by a crawl (its owner), so that a crawl that ends gives its own back (see docs/politeness.md). Bookings are
 * kept as runs: consecutive slots of one owner at one spacing, as a consumer's batch books them, so a host's timeline
 * is a few runs however many URLs it holds.
 */

/** `count` slots of `owner`, `spacing` apart from `start` (epoch ms); owner null: unknown (an older gate's state). */
export interface Run {
  owner: string | null;
  start: number;
  spacing: number;
  count: number;
}

/** When the run's last slot ends: the earliest start of what comes after it. */
export const endOf = (run: Run): number => run.start + run.spacing * run.count;

/** The runs not yet over at `now`. */
export function ahead(runs: readonly Run[], now: number): Run[] {
  return runs.filter((run) => endOf(run) > now);
}

/**
 * The earliest start at or after `from` for a slot of `spacing`: after the end of every run that starts before it,
 * and at least `spacing` before the next run's start (a gap left by a crawl that ended is used again).
 */
export function firstFree(runs: readonly Run[], from: number, spacing: number): number {
  let start = from;
  for (const run of runs) {
    if (endOf(run) <= start) continue;
    if (start + spacing <= run.start) return start;
    start = endOf(run);
  }
  return start;
}

/**
 * The timeline with one more slot of `owner` at `start` (where firstFree placed it), in order; joined to the run
 * before it when that run is the owner's, at the same spacing, and ends where the slot starts. A slot of no length
 * (spacing 0: only the cap on requests in flight applies) takes no place and is not kept.
 */
export function book(runs: readonly Run[], owner: string | null, start: number, spacing: number): Run[] {
  if (spacing <= 0) return [...runs];
  const at = runs.findIndex((run) => run.start > start);
  const before = at === -1 ? runs.length : at;
  const previous = runs[before - 1];
  if (previous && previous.owner === owner && previous.spacing === spacing && endOf(previous) === start)
    return runs.map((run, i) => (i === before - 1 ? { ...run, count: run.count + 1 } : run));
  return [...runs.slice(0, before), { owner, start, spacing, count: 1 }, ...runs.slice(before)];
}

/** The timeline without `owner`'s runs, and how many slots they held. */
export function withoutOwner(runs: readonly Run[], owner: string): { runs: Run[]; slots: number } {
  const kept = runs.filter((run) => run.owner !== owner);
  const slots = runs.filter((run) => run.owner === owner).reduce((sum, run) => sum + run.count, 0);
  return { runs: kept, slots };
}
