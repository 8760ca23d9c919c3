import { parseStoredConfig, parseStoredExtract } from '../../crawl-config';
import type { ExtractSpec } from '../../domain/extract/spec';
import type { UsageMeter } from '../../domain/usage';
import type { CrawlConfig, CrawlStatus } from '../../types';

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
}

const COLUMNS = 'id, status, config, created_at, finished_at, extract, extract_version, extraction_status, extraction_done, extraction_total';

function toRow(r: RawCrawlRow): CrawlRow {
  const config = parseStoredConfig(r.config, `crawl ${r.id}`);
  const extract = r.extract === null ? (config.extract ?? null) : parseStoredExtract(r.extract, `crawl ${r.id}`);
  const extraction =
    r.extraction_status === null ? null : { version: r.extract_version, status: r.extraction_status, done: r.extraction_done, total: r.extraction_total };
  return { id: r.id, status: r.status, config, createdAt: r.created_at, finishedAt: r.finished_at, extract, extraction };
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
    .prepare("INSERT INTO crawls (id, status, config, created_at, updated_at, schedule_id, previous_crawl_id) VALUES (?, 'running', ?, ?, ?, ?, ?)")
    .bind(id, JSON.stringify(config), now, now, scheduleId, typeof config.recrawlOf === 'string' ? config.recrawlOf : null)
    .run();
  meter?.d1([result]);
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
export async function advanceReextraction(db: D1Database, id: string, version: number, pages: number, finished: boolean): Promise<void> {
  await db
    .prepare(
      `UPDATE crawls SET extraction_done = CASE WHEN ?2 THEN extraction_total ELSE MIN(extraction_total, extraction_done + ?1) END,
       extraction_status = CASE WHEN ?2 THEN 'completed' ELSE extraction_status END
       WHERE id = ?3 AND extract_version = ?4`,
    )
    .bind(pages, finished ? 1 : 0, id, version)
    .run();
}
