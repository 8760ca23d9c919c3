export type ErrorOutcome = 'failed' | 'skipped';

export interface ErrorView {
  url: string;
  outcome: ErrorOutcome;
  reason: string;
  attempts: number;
  httpStatus: number | null;
  at: string;
}

interface RawErrorRow {
  url: string;
  outcome: ErrorOutcome;
  reason: string;
  attempts: number;
  http_status: number | null;
  at: number;
}

/** URLs of a crawl that ended failed or skipped, in URL order (keyset pagination). */
export async function listErrors(db: D1Database, crawlId: string, limit: number, afterUrl: string | null, outcome: ErrorOutcome | null): Promise<ErrorView[]> {
  const { results } = await db
    .prepare(
      `SELECT url, outcome, reason, attempts, http_status, at FROM errors
       WHERE crawl_id = ? AND url > ? AND (? IS NULL OR outcome = ?) ORDER BY url LIMIT ?`,
    )
    .bind(crawlId, afterUrl ?? '', outcome, outcome, limit)
    .all<RawErrorRow>();
  return results.map((r) => ({ url: r.url, outcome: r.outcome, reason: r.reason, attempts: r.attempts, httpStatus: r.http_status, at: new Date(r.at).toISOString() }));
}

/** Forgets the failures of URLs that are being tried again. */
export async function deleteErrors(db: D1Database, crawlId: string, urls: readonly string[]): Promise<void> {
  const statements: D1PreparedStatement[] = [];
  for (let i = 0; i < urls.length; i += 99) {
    const chunk = urls.slice(i, i + 99);
    statements.push(db.prepare(`DELETE FROM errors WHERE crawl_id = ? AND url IN (${chunk.map(() => '?').join(', ')})`).bind(crawlId, ...chunk));
  }
  if (statements.length > 0) await db.batch(statements);
}
