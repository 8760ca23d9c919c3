/** Rows deleted per statement: a large crawl's rows go in many short statements, not one that runs for minutes. */
const DELETE_STEP = 5000;

/**
 * Deletes up to `steps` slices of a crawl's page and error rows, then its Firecrawl job's row (if it is one). Returns
 * true once none is left. The crawl's own row is not touched (see deleteCrawlRow).
 */
export async function deleteCrawlRows(db: D1Database, crawlId: string, steps: number): Promise<boolean> {
  let left = steps;
  for (const table of ['pages', 'errors'] as const) {
    for (;;) {
      if (left-- <= 0) return false;
      const result = await db
        .prepare(
          `DELETE FROM ${table} WHERE crawl_id = ?1 AND url IN (SELECT url FROM ${table} WHERE crawl_id = ?1 LIMIT ?2)`,
        )
        .bind(crawlId, DELETE_STEP)
        .run();
      if (result.meta.changes < DELETE_STEP) break;
    }
  }
  await db.prepare('DELETE FROM firecrawl_jobs WHERE crawl_id = ?').bind(crawlId).run();
  return true;
}

/** Whether a recrawl of the crawl is running: it reads the crawl's pages, bodies and links while it goes. */
export async function recrawlRunning(db: D1Database, crawlId: string): Promise<boolean> {
  const row = await db
    .prepare(
      "SELECT 1 AS running FROM crawls WHERE previous_crawl_id = ? AND status = 'running' AND purge_requested_at IS NULL LIMIT 1",
    )
    .bind(crawlId)
    .first<{ running: number }>();
  return row !== null;
}

export async function deleteCrawlRow(db: D1Database, crawlId: string): Promise<void> {
  await db.prepare('DELETE FROM crawls WHERE id = ?').bind(crawlId).run();
}

/**
 * R2 objects of other crawls that live crawls of the schedule (other than `crawlId`) still point at: a page unchanged
 * since an earlier crawl keeps that crawl's body, record and links.
 */
export async function keysReferencedBySchedule(
  db: D1Database,
  scheduleId: string,
  crawlId: string,
): Promise<Set<string>> {
  const { results } = await db
    .prepare(
      `WITH live AS (SELECT id FROM crawls WHERE schedule_id = ?1 AND id <> ?2 AND purge_requested_at IS NULL),
       unchanged AS (SELECT crawl_id, r2_key, record_key, links_key FROM pages WHERE crawl_id IN (SELECT id FROM live) AND change = 'unchanged')
       SELECT r2_key AS k FROM unchanged WHERE r2_key NOT LIKE 'crawls/' || crawl_id || '/%'
       UNION SELECT record_key FROM unchanged WHERE record_key NOT LIKE 'crawls/' || crawl_id || '/%'
       UNION SELECT links_key FROM unchanged WHERE links_key NOT LIKE 'crawls/' || crawl_id || '/%'`,
    )
    .bind(scheduleId, crawlId)
    .all<{ k: string | null }>();
  return new Set(results.flatMap((r) => (r.k === null ? [] : [r.k])));
}

/** Objects kept for a schedule after their crawl was purged (see keysReferencedBySchedule). */
export async function retainedObjects(db: D1Database, scheduleId: string): Promise<string[]> {
  const { results } = await db
    .prepare('SELECT key FROM retained_objects WHERE schedule_id = ?')
    .bind(scheduleId)
    .all<{ key: string }>();
  return results.map((r) => r.key);
}

export async function setRetained(
  db: D1Database,
  scheduleId: string,
  add: readonly string[],
  remove: readonly string[],
): Promise<void> {
  const statements = [
    ...add.map((key) =>
      db.prepare('INSERT OR IGNORE INTO retained_objects (key, schedule_id) VALUES (?, ?)').bind(key, scheduleId),
    ),
    ...remove.map((key) => db.prepare('DELETE FROM retained_objects WHERE key = ?').bind(key)),
  ];
  for (let i = 0; i < statements.length; i += 100) await db.batch(statements.slice(i, i + 100));
}
