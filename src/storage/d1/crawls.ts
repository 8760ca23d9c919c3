import { parseStoredConfig } from '../../crawl-config';
import type { CrawlConfig, CrawlStatus } from '../../types';

export interface CrawlRow {
  id: string;
  status: CrawlStatus;
  config: CrawlConfig;
  createdAt: number;
  finishedAt: number | null;
}

interface RawCrawlRow {
  id: string;
  status: CrawlStatus;
  config: string;
  created_at: number;
  finished_at: number | null;
}

const COLUMNS = 'id, status, config, created_at, finished_at';

const toRow = (r: RawCrawlRow): CrawlRow => ({
  id: r.id,
  status: r.status,
  config: parseStoredConfig(r.config, `crawl ${r.id}`),
  createdAt: r.created_at,
  finishedAt: r.finished_at,
});

export async function insertCrawl(db: D1Database, id: string, config: CrawlConfig, now: number, scheduleId: string | null = null): Promise<void> {
  await db
    .prepare("INSERT INTO crawls (id, status, config, created_at, updated_at, schedule_id, previous_crawl_id) VALUES (?, 'running', ?, ?, ?, ?, ?)")
    .bind(id, JSON.stringify(config), now, now, scheduleId, typeof config.recrawlOf === 'string' ? config.recrawlOf : null)
    .run();
}

export async function deleteCrawl(db: D1Database, id: string): Promise<void> {
  await db.prepare('DELETE FROM crawls WHERE id = ?').bind(id).run();
}

export async function getCrawl(db: D1Database, id: string): Promise<CrawlRow | null> {
  const row = await db.prepare(`SELECT ${COLUMNS} FROM crawls WHERE id = ?`).bind(id).first<RawCrawlRow>();
  return row ? toRow(row) : null;
}

/** Mirrors the status the crawl's Durable Object holds (it is the source of truth). */
export async function setCrawlStatus(db: D1Database, id: string, status: CrawlStatus, now: number): Promise<void> {
  await db
    .prepare('UPDATE crawls SET status = ?, updated_at = ?, finished_at = ? WHERE id = ?')
    .bind(status, now, status === 'running' ? null : now, id)
    .run();
}

/** Newest first; the cursor is the (created_at, id) of the last row seen. */
export async function listCrawls(db: D1Database, limit: number, after: { createdAt: number; id: string } | null): Promise<CrawlRow[]> {
  const { results } = await db
    .prepare(`SELECT ${COLUMNS} FROM crawls WHERE ? IS NULL OR (created_at, id) < (?, ?) ORDER BY created_at DESC, id DESC LIMIT ?`)
    .bind(after?.createdAt ?? null, after?.createdAt ?? 0, after?.id ?? '', limit)
    .all<RawCrawlRow>();
  return results.map(toRow);
}
