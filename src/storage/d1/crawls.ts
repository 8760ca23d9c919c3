import { z } from 'zod';
import { parseStoredConfig, parseStoredExtract } from '../../crawl-config';
import { REACH_CUTS } from '../../domain/crawl/reach';
import type { UsageMeter } from '../../domain/crawl/usage';
import type { ExtractSpec } from '../../domain/extract/spec-schema';
import type { CrawlConfig, CrawlStatus, CrawlSummary } from '../../types';

/** A re-extraction of a crawl's stored bodies with a new spec: its version and progress. */
interface Extraction {
  version: number;
  status: 'running' | 'completed';
  done: number;
  total: number;
}

export interface CrawlRow {
  id: string;
  status: CrawlStatus;
  config: CrawlConfig;
  createdAt: number;
  finishedAt: number | null;
  /** The spec records follow now: the last re-extraction's, or the crawl's own. */
  extract: ExtractSpec | null;
  extraction: Extraction | null;
  scheduleId: string | null;
  /** When its data was asked to be purged (it is listed nowhere from then on), or null. */
  purgeRequestedAt: number | null;
  /** What it came to when its status last changed (null before that, or when the stored JSON is not one). */
  summary: CrawlSummary | null;
}

interface RawCrawlRow {
  id: string;
  status: CrawlStatus;
  config: string;
  created_at: number;
  finished_at: number | null;
  extract: string | null;
  extract_version: number;
  extraction_status: Extraction['status'] | null;
  extraction_done: number;
  extraction_total: number;
  schedule_id: string | null;
  purge_requested_at: number | null;
  summary: string | null;
}

const count = z.number().int().nonnegative();
const summarySchema = z.object({
  counts: z.object({
    discovered: count,
    fetched: count,
    stored: count,
    failed: count,
    skipped: count,
    duplicates: count,
  }),
  pending: count,
  usd: z.number().nonnegative(),
  reach: z.object({ complete: z.boolean(), cuts: z.array(z.enum(REACH_CUTS)) }).optional(),
  changes: z
    .object({
      new: count,
      changed: count,
      unchanged: count,
      gone: count,
      unreached: count,
      unreachedBefore: count,
      provisional: z.boolean(),
    })
    .optional(),
});

/** The stored summary, validated; null when absent or not one (the list then asks the crawl's Durable Object). */
function parseSummary(raw: string | null): CrawlSummary | null {
  if (raw === null) return null;
  try {
    const parsed = summarySchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

const COLUMNS =
  'id, status, config, created_at, finished_at, extract, extract_version, extraction_status, extraction_done, extraction_total, schedule_id, purge_requested_at, summary';

function toRow(r: RawCrawlRow): CrawlRow {
  const config = parseStoredConfig(r.config, `crawl ${r.id}`);
  const extract = r.extract === null ? (config.extract ?? null) : parseStoredExtract(r.extract, `crawl ${r.id}`);
  const extraction =
    r.extraction_status === null
      ? null
      : { version: r.extract_version, status: r.extraction_status, done: r.extraction_done, total: r.extraction_total };
  return {
    id: r.id,
    status: r.status,
    config,
    createdAt: r.created_at,
    finishedAt: r.finished_at,
    extract,
    extraction,
    scheduleId: r.schedule_id,
    purgeRequestedAt: r.purge_requested_at,
    summary: parseSummary(r.summary),
  };
}

export async function insertCrawl(
  db: D1Database,
  id: string,
  config: CrawlConfig,
  now: number,
  scheduleId: string | null = null,
  meter?: UsageMeter,
): Promise<void> {
  const result = await db
    .prepare(
      "INSERT INTO crawls (id, status, config, created_at, updated_at, schedule_id, previous_crawl_id, credentialed) VALUES (?, 'running', ?, ?, ?, ?, ?, ?)",
    )
    .bind(
      id,
      JSON.stringify(config),
      now,
      now,
      scheduleId,
      typeof config.recrawlOf === 'string' ? config.recrawlOf : null,
      config.credentials === null ? 0 : 1,
    )
    .run();
  meter?.d1([result]);
}

export async function deleteCrawl(db: D1Database, id: string): Promise<void> {
  await db.prepare('DELETE FROM crawls WHERE id = ?').bind(id).run();
}

/** A crawl, or null when there is none (or its data is being purged: it answers 404 from the purge request on). */
export async function getCrawl(
  db: D1Database,
  id: string,
  { purging = false }: { purging?: boolean } = {},
): Promise<CrawlRow | null> {
  const row = await db
    .prepare(`SELECT ${COLUMNS} FROM crawls WHERE id = ? AND (? OR purge_requested_at IS NULL)`)
    .bind(id, purging ? 1 : 0)
    .first<RawCrawlRow>();
  return row ? toRow(row) : null;
}

/**
 * Mirrors the status the crawl's Durable Object holds (it is the source of truth), with what the crawl came to. A
 * crawl that ends with a `retentionDays` expires that long after (the cron trigger purges it then).
 */
export async function setCrawlStatus(
  db: D1Database,
  id: string,
  status: CrawlStatus,
  now: number,
  summary: CrawlSummary,
): Promise<void> {
  const finishedAt = status === 'running' ? null : now;
  await db
    .prepare(
      `UPDATE crawls SET status = ?1, updated_at = ?2, finished_at = ?3, summary = ?5,
       expires_at = ?3 + CAST(json_extract(config, '$.retentionDays') AS INTEGER) * 86400000 WHERE id = ?4`,
    )
    .bind(status, now, finishedAt, id, JSON.stringify(summary))
    .run();
}

/** Asks for a crawl's data to be purged (from now on it is listed nowhere); false when there is no such crawl. */
export async function requestPurge(db: D1Database, id: string, now: number): Promise<boolean> {
  const result = await db
    .prepare(
      `UPDATE crawls SET purge_requested_at = COALESCE(purge_requested_at, ?), ${FORGET_CREDENTIALS} WHERE id = ?`,
    )
    .bind(now, id)
    .run();
  return result.meta.changes > 0;
}

/**
 * A crawl marked for purging forgets its credentials at once (its sealed secrets), though its row stays until the
 * purge settles: what it was let in with never outlives the request to delete it. `credentialed` stays, so the page
 * cache still never offers its pages.
 */
const FORGET_CREDENTIALS = "config = json_set(config, '$.credentials', json('null'))";

/** Marks crawls whose retention ended by `now` for purging; returns how many. */
export async function expireCrawls(db: D1Database, now: number): Promise<number> {
  const result = await db
    .prepare(
      `UPDATE crawls SET purge_requested_at = ?1, ${FORGET_CREDENTIALS} WHERE expires_at <= ?1 AND purge_requested_at IS NULL`,
    )
    .bind(now)
    .run();
  return result.meta.changes;
}

/** Crawls whose purge is under way, oldest request first. */
export async function purgingCrawls(db: D1Database, limit: number): Promise<CrawlRow[]> {
  const { results } = await db
    .prepare(`SELECT ${COLUMNS} FROM crawls WHERE purge_requested_at IS NOT NULL ORDER BY purge_requested_at LIMIT ?`)
    .bind(limit)
    .all<RawCrawlRow>();
  return results.map(toRow);
}

/** Newest first; the cursor is the (created_at, id) of the last row seen. */
export async function listCrawls(
  db: D1Database,
  limit: number,
  after: { createdAt: number; id: string } | null,
): Promise<CrawlRow[]> {
  const { results } = await db
    .prepare(
      `SELECT ${COLUMNS} FROM crawls WHERE purge_requested_at IS NULL AND (? IS NULL OR (created_at, id) < (?, ?)) ORDER BY created_at DESC, id DESC LIMIT ?`,
    )
    .bind(after?.createdAt ?? null, after?.createdAt ?? 0, after?.id ?? '', limit)
    .all<RawCrawlRow>();
  return results.map(toRow);
}

/** Crawls running now, newest first (Firecrawl's GET /crawl/active). */
export async function runningCrawls(db: D1Database, limit: number): Promise<CrawlRow[]> {
  const { results } = await db
    .prepare(
      `SELECT ${COLUMNS} FROM crawls WHERE status = 'running' AND purge_requested_at IS NULL ORDER BY created_at DESC, id DESC LIMIT ?`,
    )
    .bind(limit)
    .all<RawCrawlRow>();
  return results.map(toRow);
}

/**
 * The newest crawl that started from `seed` (its first seed) and has ended, not being purged: what a Firecrawl crawl
 * with changeTracking compares its pages with. Null: none.
 */
export async function lastEndedCrawlFrom(db: D1Database, seed: string): Promise<string | null> {
  const row = await db
    .prepare(
      `SELECT id FROM crawls WHERE status != 'running' AND purge_requested_at IS NULL
       AND json_extract(config, '$.seeds[0]') = ? ORDER BY created_at DESC, id DESC LIMIT 1`,
    )
    .bind(seed)
    .first<{ id: string }>();
  return row?.id ?? null;
}

/** Starts a re-extraction with `spec`: a new version, none done of `total`. Returns the version. */
export async function startReextraction(db: D1Database, id: string, spec: ExtractSpec, total: number): Promise<number> {
  const row = await db
    .prepare(
      `UPDATE crawls SET extract = ?, extract_version = extract_version + 1, extraction_status = ?, extraction_done = 0, extraction_total = ?
       WHERE id = ? RETURNING extract_version`,
    )
    .bind(JSON.stringify(spec), total === 0 ? 'completed' : 'running', total, id)
    .first<{ extract_version: number }>();
  return row?.extract_version ?? 0;
}

/** Counts `pages` more re-extracted for `version` (ignored if a newer one started); `finished` completes it. */
export async function advanceReextraction(
  db: D1Database,
  id: string,
  version: number,
  pages: number,
  finished: boolean,
): Promise<void> {
  await db
    .prepare(
      `UPDATE crawls SET extraction_done = CASE WHEN ?2 THEN extraction_total ELSE MIN(extraction_total, extraction_done + ?1) END,
       extraction_status = CASE WHEN ?2 THEN 'completed' ELSE extraction_status END
       WHERE id = ?3 AND extract_version = ?4`,
    )
    .bind(pages, finished ? 1 : 0, id, version)
    .run();
}
