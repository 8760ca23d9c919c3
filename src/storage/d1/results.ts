import type { Processed } from '../../page/process';

/** D1 binds at most 100 parameters per statement. */
const MAX_PARAMS = 100;

function multiRowInsert(db: D1Database, head: string, tail: string, columns: number, rows: unknown[][]): D1PreparedStatement[] {
  const perStatement = Math.floor(MAX_PARAMS / columns);
  const placeholders = `(${Array(columns).fill('?').join(', ')})`;
  const statements: D1PreparedStatement[] = [];
  for (let i = 0; i < rows.length; i += perStatement) {
    const chunk = rows.slice(i, i + perStatement);
    statements.push(db.prepare(`${head} VALUES ${chunk.map(() => placeholders).join(', ')} ${tail}`).bind(...chunk.flat()));
  }
  return statements;
}

/**
 * Writes the D1 side of a consumer batch in one round trip: page rows, their links, and the reasons
 * of URLs that ended failed or skipped. Every write is an upsert keyed by (crawl, url), so a
 * redelivered message rewrites the same rows instead of adding new ones.
 */
export async function writeResults(db: D1Database, crawlId: string, results: readonly Processed[]): Promise<void> {
  const pages: unknown[][] = [];
  const links: unknown[][] = [];
  const errors: unknown[][] = [];
  const now = Date.now();
  for (const r of results) {
    const p = r.page;
    if (p) pages.push([crawlId, p.url, p.status, p.contentType, p.title, p.depth, p.bytes, p.fetchedAt, p.r2Key, p.bodyOffset ?? null, p.bodyLength ?? null, p.redirectTo, p.etag ?? null, p.lastModified ?? null, p.change ?? null]);
    for (const to of r.links ?? []) links.push([crawlId, r.outcome.url, to]);
    const { kind, reason } = r.outcome;
    if (kind === 'failed' || kind === 'skipped') {
      errors.push([crawlId, r.outcome.url, kind, reason ?? kind, r.attempts, p?.status ?? null, now]);
    }
  }
  const statements = [
    ...multiRowInsert(
      db,
      'INSERT INTO pages (crawl_id, url, status, content_type, title, depth, bytes, fetched_at, r2_key, body_offset, body_length, redirect_to, etag, last_modified, change)',
      `ON CONFLICT (crawl_id, url) DO UPDATE SET status = excluded.status, content_type = excluded.content_type,
       title = excluded.title, depth = excluded.depth, bytes = excluded.bytes, fetched_at = excluded.fetched_at,
       r2_key = excluded.r2_key, body_offset = excluded.body_offset, body_length = excluded.body_length, redirect_to = excluded.redirect_to, etag = excluded.etag,
       last_modified = excluded.last_modified, change = excluded.change`,
      15,
      pages,
    ),
    ...multiRowInsert(db, 'INSERT INTO links (crawl_id, from_url, to_url)', 'ON CONFLICT DO NOTHING', 3, links),
    ...multiRowInsert(
      db,
      'INSERT INTO errors (crawl_id, url, outcome, reason, attempts, http_status, at)',
      `ON CONFLICT (crawl_id, url) DO UPDATE SET outcome = excluded.outcome, reason = excluded.reason,
       attempts = excluded.attempts, http_status = excluded.http_status, at = excluded.at`,
      7,
      errors,
    ),
  ];
  if (statements.length > 0) await db.batch(statements);
}
