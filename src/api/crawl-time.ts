import type { CrawlSnapshot } from '../types';

/**
 * When a crawl ended (ms since the epoch), or null while it runs: its Durable Object's time (the source of truth),
 * else D1's row (a crawl that ended before the object kept it), never a time for a crawl that runs.
 */
export function endedAt(
  snapshot: Pick<CrawlSnapshot, 'status' | 'finishedAt'>,
  rowFinishedAt: number | null,
): number | null {
  if (snapshot.status === 'running') return null;
  return snapshot.finishedAt ?? rowFinishedAt;
}

export const isoOrNull = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());
