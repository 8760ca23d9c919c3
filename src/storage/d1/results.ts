import type { UsageMeter } from '../../domain/crawl/usage';
import type { Processed } from '../../types';
import { type ErrorRecord, errorUpserts } from './errors';
import { pageUpserts } from './page-upserts';

/**
 * Writes the D1 side of a chunk of results in one round trip: page rows (their links are in R2, see writeSegments)
 * and the reasons of URLs that ended failed or skipped, a statement or two each. Every write is an upsert keyed by
 * (crawl, url), so a redelivered message rewrites the same rows instead of adding new ones.
 */
export async function writeResults(
  db: D1Database,
  crawlId: string,
  results: readonly Processed[],
  meter?: UsageMeter,
): Promise<void> {
  const pages = results.flatMap((r) => (r.page ? [r.page] : []));
  const errors = results.flatMap((r): ErrorRecord[] => {
    const { outcome } = r;
    if (outcome.kind !== 'failed' && outcome.kind !== 'skipped') return [];
    return [
      {
        url: outcome.url,
        outcome: outcome.kind,
        reason: outcome.reason,
        code: outcome.code,
        attempts: r.attempts,
        httpStatus: r.page?.status ?? r.httpStatus ?? null,
      },
    ];
  });
  const statements = [...pageUpserts(db, crawlId, pages), ...errorUpserts(db, crawlId, errors, Date.now())];
  if (statements.length === 0) return;
  const written = await db.batch(statements);
  meter?.d1(written);
}
