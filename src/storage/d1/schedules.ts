import { parseStoredConfig } from '../../crawl-config';
import type { CrawlConfig } from '../../types';

export interface ScheduleRow {
  id: string;
  cron: string | null;
  everySeconds: number | null;
  /** The crawl each run starts. */
  config: CrawlConfig;
  createdAt: number;
  nextRunAt: number;
  lastRunAt: number | null;
  lastCrawlId: string | null;
}

type RawScheduleRow = {
  id: string;
  cron: string | null;
  every_seconds: number | null;
  config: string;
  created_at: number;
  next_run_at: number;
  last_run_at: number | null;
  last_crawl_id: string | null;
};

const toRow = (r: RawScheduleRow): ScheduleRow => ({
  id: r.id,
  cron: r.cron,
  everySeconds: r.every_seconds,
  config: parseStoredConfig(r.config, `schedule ${r.id}`),
  createdAt: r.created_at,
  nextRunAt: r.next_run_at,
  lastRunAt: r.last_run_at,
  lastCrawlId: r.last_crawl_id,
});

export async function insertSchedule(
  db: D1Database,
  row: Omit<ScheduleRow, 'lastRunAt' | 'lastCrawlId'>,
): Promise<void> {
  await db
    .prepare(
      'INSERT INTO schedules (id, cron, every_seconds, config, created_at, next_run_at) VALUES (?, ?, ?, ?, ?, ?)',
    )
    .bind(row.id, row.cron, row.everySeconds, JSON.stringify(row.config), row.createdAt, row.nextRunAt)
    .run();
}

export async function listSchedules(db: D1Database, limit: number, afterId: string | null): Promise<ScheduleRow[]> {
  const { results } = await db
    .prepare('SELECT * FROM schedules WHERE id > ? ORDER BY id LIMIT ?')
    .bind(afterId ?? '', limit)
    .all<RawScheduleRow>();
  return results.map(toRow);
}

export async function getSchedule(db: D1Database, id: string): Promise<ScheduleRow | null> {
  const row = await db.prepare('SELECT * FROM schedules WHERE id = ?').bind(id).first<RawScheduleRow>();
  return row ? toRow(row) : null;
}

export async function deleteSchedule(db: D1Database, id: string): Promise<boolean> {
  const result = await db.prepare('DELETE FROM schedules WHERE id = ?').bind(id).run();
  return result.meta.changes > 0;
}

export async function dueSchedules(db: D1Database, now: number, limit: number): Promise<ScheduleRow[]> {
  const { results } = await db
    .prepare('SELECT * FROM schedules WHERE next_run_at <= ? ORDER BY next_run_at LIMIT ?')
    .bind(now, limit)
    .all<RawScheduleRow>();
  return results.map(toRow);
}

/** Takes a due run for this invocation: false when another invocation took it first. */
export async function claimRun(
  db: D1Database,
  schedule: ScheduleRow,
  nextRunAt: number,
  now: number,
): Promise<boolean> {
  const result = await db
    .prepare('UPDATE schedules SET next_run_at = ?, last_run_at = ? WHERE id = ? AND next_run_at = ?')
    .bind(nextRunAt, now, schedule.id, schedule.nextRunAt)
    .run();
  return result.meta.changes > 0;
}

export async function recordRun(db: D1Database, id: string, crawlId: string): Promise<void> {
  await db.prepare('UPDATE schedules SET last_crawl_id = ? WHERE id = ?').bind(crawlId, id).run();
}
