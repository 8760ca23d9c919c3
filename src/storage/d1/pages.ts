import type { UsageMeter } from '../../domain/usage';
import type { StoredResponse } from '../../domain/warc';
import type { ExtractedPage, PageRecord } from '../../types';
import { chunkedIn, intervalStart, jsonRowsInsert } from './sql';

/** A page as the API lists it: its record's fields, fetch time as an ISO string, no storage internals. */
export interface PageView extends Pick<PageRecord, 'url' | 'status' | 'contentType' | 'title' | 'depth' | 'bytes'> {
  fetchedAt: string;
}

interface RawPageRow {
  url: string;
  status: number;
  content_type: string | null;
  title: string | null;
  depth: number;
  bytes: number;
  fetched_at: number;
}

/** Pages of a crawl in URL order (keyset pagination: stable while the crawl adds pages). */
export async function listPages(db: D1Database, crawlId: string, limit: number, afterUrl: string | null): Promise<PageView[]> {
  const { results } = await db
    .prepare(
      `SELECT url, status, content_type, title, depth, bytes, fetched_at FROM pages
       WHERE crawl_id = ? AND url > ? ORDER BY url LIMIT ?`,
    )
    .bind(crawlId, afterUrl ?? '', limit)
    .all<RawPageRow>();
  return results.map(toPageView);
}

const toPageView = (r: RawPageRow): PageView => ({
  url: r.url,
  status: r.status,
  contentType: r.content_type,
  title: r.title,
  depth: r.depth,
  bytes: r.bytes,
  fetchedAt: new Date(r.fetched_at).toISOString(),
});

/** Where a listing of the most recent pages stopped: the last row's fetch time and URL. */
export interface RecentCursor {
  t: number;
  u: string;
}

/** Pages of a crawl, most recently fetched first (keyset pagination on fetch time, then URL). */
export async function listRecentPages(
  db: D1Database,
  crawlId: string,
  limit: number,
  after: RecentCursor | null,
): Promise<(PageView & { cursor: RecentCursor })[]> {
  const { results } = await db
    .prepare(
      `SELECT url, status, content_type, title, depth, bytes, fetched_at FROM pages
       WHERE crawl_id = ? AND (? IS NULL OR (fetched_at, url) < (?, ?)) ORDER BY fetched_at DESC, url DESC LIMIT ?`,
    )
    .bind(crawlId, after?.t ?? null, after?.t ?? 0, after?.u ?? '', limit)
    .all<RawPageRow>();
  return results.map((r) => ({ ...toPageView(r), cursor: { t: r.fetched_at, u: r.url } }));
}

interface StoredBody {
  r2Key: string | null;
  /** The body's byte range in the object; null: the whole object. */
  bodyOffset: number | null;
  bodyLength: number | null;
  contentType: string | null;
}

/** A page's stored body and record, and what its record is reported with. */
export interface StoredPageRow extends StoredBody {
  url: string;
  status: number;
  fetchedAt: number;
  recordKey: string | null;
  recordOffset: number | null;
  recordLength: number | null;
  linksKey: string | null;
  linksOffset: number | null;
  linksLength: number | null;
}

export async function getStoredPage(db: D1Database, crawlId: string, url: string): Promise<StoredPageRow | null> {
  const row = await db
    .prepare(
      `SELECT url, status, fetched_at, r2_key, body_offset, body_length, content_type, record_key, record_offset, record_length,
       links_key, links_offset, links_length FROM pages WHERE crawl_id = ? AND url = ?`,
    )
    .bind(crawlId, url)
    .first<
      {
        url: string;
        status: number;
        fetched_at: number;
        r2_key: string | null;
        body_offset: number | null;
        body_length: number | null;
        content_type: string | null;
        record_key: string | null;
        record_offset: number | null;
        record_length: number | null;
      } & RawLinksColumns
    >();
  if (!row) return null;
  return {
    url: row.url,
    status: row.status,
    fetchedAt: row.fetched_at,
    r2Key: row.r2_key,
    bodyOffset: row.body_offset,
    bodyLength: row.body_length,
    contentType: row.content_type,
    recordKey: row.record_key,
    recordOffset: row.record_offset,
    recordLength: row.record_length,
    ...linksOf(row),
  };
}

type RawLinksColumns = { links_key: string | null; links_offset: number | null; links_length: number | null };

const linksOf = (r: RawLinksColumns) => ({ linksKey: r.links_key, linksOffset: r.links_offset, linksLength: r.links_length });

/** The columns extraction writes, as D1 returns them. */
type RawExtractedColumns = {
  content_hash: string | null;
  description: string | null;
  language: string | null;
  word_count: number | null;
  warnings: string | null;
  record_key: string | null;
  record_offset: number | null;
  record_length: number | null;
};

/** What a previous crawl fetched for a URL: the validators for a conditional GET, and its stored body. */
export interface PreviousVersion extends StoredBody {
  etag: string | null;
  lastModified: string | null;
  title: string | null;
  contentHash: string | null;
  /** Where the previous crawl stored the page's links: a 304 keeps them, as it keeps the body. */
  linksKey: string | null;
  linksOffset: number | null;
  linksLength: number | null;
  /** What the previous crawl extracted: a 304 keeps it, as it keeps the body. */
  extracted: Pick<PageRecord, 'description' | 'language' | 'wordCount' | 'warnings' | 'recordKey' | 'recordOffset' | 'recordLength'>;
}

export async function previousVersions(db: D1Database, crawlId: string, urls: readonly string[], meter?: UsageMeter): Promise<Map<string, PreviousVersion>> {
  const statements = chunkedIn(
    db,
    `SELECT url, etag, last_modified, r2_key, body_offset, body_length, content_type, title, content_hash, description, language, word_count, warnings,
      record_key, record_offset, record_length, links_key, links_offset, links_length FROM pages WHERE crawl_id = ? AND status IN (200, 304) AND url IN ({in})`,
    [crawlId],
    urls,
  );
  const out = new Map<string, PreviousVersion>();
  for (const statement of statements) {
    const result = await statement.all<
      {
        url: string;
        etag: string | null;
        last_modified: string | null;
        r2_key: string | null;
        body_offset: number | null;
        body_length: number | null;
        content_type: string | null;
        title: string | null;
      } & RawExtractedColumns &
        RawLinksColumns
    >();
    meter?.d1([result]);
    for (const r of result.results) {
      out.set(r.url, {
        etag: r.etag,
        lastModified: r.last_modified,
        r2Key: r.r2_key,
        bodyOffset: r.body_offset,
        bodyLength: r.body_length,
        contentType: r.content_type,
        title: r.title,
        contentHash: r.content_hash,
        ...linksOf(r),
        extracted: {
          description: r.description,
          language: r.language,
          wordCount: r.word_count,
          warnings: parseWarnings(r.warnings),
          recordKey: r.record_key,
          recordOffset: r.record_offset,
          recordLength: r.record_length,
        },
      });
    }
  }
  return out;
}

export interface ChangeCounts {
  new: number;
  changed: number;
  unchanged: number;
  /** Stored by the previous crawl, not stored (nor unchanged) by this one. */
  gone: number;
}

export async function changeCounts(db: D1Database, crawlId: string, previousCrawlId: string | null): Promise<ChangeCounts> {
  const [byChange, gone] = await db.batch<{ change: string | null; n: number }>([
    db.prepare('SELECT change, COUNT(*) AS n FROM pages WHERE crawl_id = ? AND change IS NOT NULL GROUP BY change').bind(crawlId),
    db
      .prepare(
        `SELECT 'gone' AS change, COUNT(*) AS n FROM pages p WHERE p.crawl_id = ? AND p.status IN (200, 304)
         AND NOT EXISTS (SELECT 1 FROM pages q WHERE q.crawl_id = ? AND q.url = p.url AND q.status IN (200, 304))`,
      )
      .bind(previousCrawlId ?? '', crawlId),
  ]);
  const counts: ChangeCounts = { new: 0, changed: 0, unchanged: 0, gone: gone?.results[0]?.n ?? 0 };
  for (const row of byChange?.results ?? []) if (row.change === 'new' || row.change === 'changed' || row.change === 'unchanged') counts[row.change] = row.n;
  return counts;
}

/** A page as exports write it: the listing's fields and the rest a user may want, none of the storage internals. */
export interface ExportRecord extends PageView {
  redirectTo: string | null;
  etag: string | null;
  lastModified: string | null;
  change: string | null;
  stored: boolean;
}

/** The export's columns, in order (CSV header and JSON key order). */
export const PAGE_RECORD_FIELDS = [
  'url',
  'status',
  'contentType',
  'title',
  'depth',
  'bytes',
  'fetchedAt',
  'redirectTo',
  'etag',
  'lastModified',
  'change',
  'stored',
] as const satisfies readonly (keyof ExportRecord)[];

/** A page row as exports read it: the export's fields, the extraction facts, and where the page's record is. */
export interface ExportRow extends ExportRecord {
  contentHash: string | null;
  description: string | null;
  language: string | null;
  wordCount: number | null;
  warnings: string[];
  record: { recordKey: string; recordOffset: number; recordLength: number } | null;
}

type RawExportRow = RawPageRow & {
  redirect_to: string | null;
  etag: string | null;
  last_modified: string | null;
  change: string | null;
  stored: number;
} & RawExtractedColumns;

const toExportRow = (r: RawExportRow): ExportRow => ({
  ...toPageView(r),
  redirectTo: r.redirect_to,
  etag: r.etag,
  lastModified: r.last_modified,
  change: r.change,
  stored: r.stored === 1,
  contentHash: r.content_hash,
  description: r.description,
  language: r.language,
  wordCount: r.word_count,
  warnings: parseWarnings(r.warnings),
  record:
    r.record_key !== null && r.record_offset !== null && r.record_length !== null
      ? { recordKey: r.record_key, recordOffset: r.record_offset, recordLength: r.record_length }
      : null,
});

/** Page rows in URL order after `afterUrl` (keyset, so an export is stable while the crawl goes on). */
export async function pageRecords(db: D1Database, crawlId: string, afterUrl: string, limit: number): Promise<ExportRow[]> {
  const { results } = await db
    .prepare(
      `SELECT url, status, content_type, title, depth, bytes, fetched_at, redirect_to, etag, last_modified, change, r2_key IS NOT NULL AS stored,
       content_hash, description, language, word_count, warnings, record_key, record_offset, record_length
       FROM pages WHERE crawl_id = ? AND url > ? ORDER BY url LIMIT ?`,
    )
    .bind(crawlId, afterUrl, limit)
    .all<RawExportRow>();
  return results.map(toExportRow);
}

/** A page with a stored body: what its WARC record says of it, and where the body is. */
export interface StoredPage extends Omit<StoredResponse, 'body'> {
  r2Key: string;
  bodyOffset: number | null;
  bodyLength: number | null;
}

export type StoredPageCursor = { key: string; offset: number; url: string };

/** Pages with a stored body in storage order (segment, then offset): each segment is read once. */
export async function storedPages(db: D1Database, crawlId: string, after: StoredPageCursor | null, limit: number): Promise<StoredPage[]> {
  const { results } = await db
    .prepare(
      `SELECT url, status, content_type, etag, last_modified, fetched_at, r2_key, body_offset, body_length FROM pages
       WHERE crawl_id = ? AND r2_key IS NOT NULL AND (r2_key, COALESCE(body_offset, 0), url) > (?, ?, ?)
       ORDER BY r2_key, COALESCE(body_offset, 0), url LIMIT ?`,
    )
    .bind(crawlId, after?.key ?? '', after?.offset ?? -1, after?.url ?? '', limit)
    .all<{
      url: string;
      status: number;
      content_type: string | null;
      etag: string | null;
      last_modified: string | null;
      fetched_at: number;
      r2_key: string;
      body_offset: number | null;
      body_length: number | null;
    }>();
  return results.map((r) => ({
    url: r.url,
    status: r.status,
    contentType: r.content_type,
    etag: r.etag,
    lastModified: r.last_modified,
    fetchedAt: r.fetched_at,
    r2Key: r.r2_key,
    bodyOffset: r.body_offset,
    bodyLength: r.body_length,
  }));
}

/** A page's warnings as stored: a JSON array, or NULL for none. */
const warningsColumn = (warnings: readonly string[] | undefined): string | null => (warnings && warnings.length > 0 ? JSON.stringify(warnings) : null);

/** A page's stored warnings (a JSON array of strings), read back; anything else is no warnings. */
function parseWarnings(json: string | null): string[] {
  if (json === null) return [];
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.filter((w): w is string => typeof w === 'string') : [];
  } catch {
    return [];
  }
}

const PAGE_COLUMNS = [
  'crawl_id',
  'url',
  'status',
  'content_type',
  'title',
  'depth',
  'bytes',
  'fetched_at',
  'r2_key',
  'body_offset',
  'body_length',
  'redirect_to',
  'etag',
  'last_modified',
  'change',
  'content_hash',
  'description',
  'language',
  'word_count',
  'warnings',
  'record_key',
  'record_offset',
  'record_length',
  'links_key',
  'links_offset',
  'links_length',
] as const;

function pageRow(crawlId: string, p: PageRecord): unknown[] {
  const warnings = warningsColumn(p.warnings);
  return [
    crawlId,
    p.url,
    p.status,
    p.contentType,
    p.title,
    p.depth,
    p.bytes,
    p.fetchedAt,
    p.r2Key,
    p.bodyOffset ?? null,
    p.bodyLength ?? null,
    p.redirectTo,
    p.etag ?? null,
    p.lastModified ?? null,
    p.change ?? null,
    p.contentHash ?? null,
    p.description ?? null,
    p.language ?? null,
    p.wordCount ?? null,
    warnings,
    p.recordKey ?? null,
    p.recordOffset ?? null,
    p.recordLength ?? null,
    p.linksKey ?? null,
    p.linksOffset ?? null,
    p.linksLength ?? null,
  ];
}

/** Upserts of page rows keyed by (crawl, url): a redelivered message rewrites its row instead of adding one. */
export function pageUpserts(db: D1Database, crawlId: string, pages: readonly PageRecord[]): D1PreparedStatement[] {
  const updates = PAGE_COLUMNS.filter((c) => c !== 'crawl_id' && c !== 'url').map((c) => `${c} = excluded.${c}`);
  return jsonRowsInsert(
    db,
    `INSERT INTO pages (${PAGE_COLUMNS.join(', ')})`,
    PAGE_COLUMNS.length,
    `ON CONFLICT (crawl_id, url) DO UPDATE SET ${updates.join(', ')}`,
    pages.map((p) => pageRow(crawlId, p)),
  );
}

// ---- aggregates for the stats endpoint and the dashboard ----

export interface CrawlActivity {
  /** First and last page fetched, epoch ms (null before the first). */
  firstAt: number | null;
  lastAt: number | null;
  /** Pages fetched at or after `since`. */
  recent: number;
}

export async function crawlActivity(db: D1Database, crawlId: string, since: number): Promise<CrawlActivity> {
  const row = await db
    .prepare('SELECT MIN(fetched_at) AS first_at, MAX(fetched_at) AS last_at, SUM(fetched_at >= ?) AS recent FROM pages WHERE crawl_id = ?')
    .bind(since, crawlId)
    .first<{ first_at: number | null; last_at: number | null; recent: number | null }>();
  return { firstAt: row?.first_at ?? null, lastAt: row?.last_at ?? null, recent: row?.recent ?? 0 };
}

/** Pages fetched per interval (interval start, epoch ms). */
export async function pageSeries(db: D1Database, crawlId: string, intervalSeconds: number): Promise<{ at: number; fetched: number }[]> {
  const step = intervalSeconds * 1000;
  const { results } = await db
    .prepare(`SELECT ${intervalStart('fetched_at')} AS at, COUNT(*) AS fetched FROM pages WHERE crawl_id = ? GROUP BY 1`)
    .bind(step, step, crawlId)
    .all<{ at: number; fetched: number }>();
  return results;
}

/** Pages by HTTP status. */
export async function statusBreakdown(db: D1Database, crawlId: string): Promise<{ status: number; count: number }[]> {
  const { results } = await db
    .prepare('SELECT status, COUNT(*) AS count FROM pages WHERE crawl_id = ? GROUP BY status ORDER BY status')
    .bind(crawlId)
    .all<{ status: number; count: number }>();
  return results;
}

// The authority of an absolute URL: what lies between "://" and the next "/".
const AUTHORITY = "substr(substr(url, instr(url, '://') + 3), 1, instr(substr(url, instr(url, '://') + 3) || '/', '/') - 1)";

/** Pages by host (with port), most first. */
export async function hostBreakdown(db: D1Database, crawlId: string, limit: number): Promise<{ host: string; pages: number }[]> {
  const { results } = await db
    .prepare(`SELECT ${AUTHORITY} AS host, COUNT(*) AS pages FROM pages WHERE crawl_id = ? GROUP BY host ORDER BY pages DESC, host LIMIT ?`)
    .bind(crawlId, limit)
    .all<{ host: string; pages: number }>();
  return results;
}

// ---- re-extraction ----

/** Where a stored HTML page's body is, for re-extraction. */
export interface StoredHtmlPage {
  url: string;
  contentType: string | null;
  r2Key: string;
  bodyOffset: number | null;
  bodyLength: number | null;
}

const HTML_PAGES = `crawl_id = ? AND r2_key IS NOT NULL AND status BETWEEN 200 AND 299
  AND (lower(content_type) LIKE 'text/html%' OR lower(content_type) LIKE 'application/xhtml+xml%')`;

/** Stored HTML pages of a crawl. */
export async function countHtmlPages(db: D1Database, crawlId: string): Promise<number> {
  return (await db.prepare(`SELECT COUNT(*) AS n FROM pages WHERE ${HTML_PAGES}`).bind(crawlId).first<{ n: number }>())?.n ?? 0;
}

/** Stored HTML pages after `afterUrl`, in URL order. */
export async function htmlPagesAfter(db: D1Database, crawlId: string, afterUrl: string, limit: number): Promise<StoredHtmlPage[]> {
  const { results } = await db
    .prepare(`SELECT url, content_type, r2_key, body_offset, body_length FROM pages WHERE ${HTML_PAGES} AND url > ? ORDER BY url LIMIT ?`)
    .bind(crawlId, afterUrl, limit)
    .all<{ url: string; content_type: string | null; r2_key: string; body_offset: number | null; body_length: number | null }>();
  return results.map((r) => ({ url: r.url, contentType: r.content_type, r2Key: r.r2_key, bodyOffset: r.body_offset, bodyLength: r.body_length }));
}

/** Points pages at their new records and sets what extraction says of them (title, description, hash, ...). */
export async function updateExtracted(db: D1Database, crawlId: string, pages: readonly ExtractedPage[], meter?: UsageMeter): Promise<void> {
  const statements = pages.map((p) =>
    db
      .prepare(
        `UPDATE pages SET title = ?, description = ?, language = ?, word_count = ?, content_hash = ?, warnings = ?, record_key = ?, record_offset = ?, record_length = ?
         WHERE crawl_id = ? AND url = ?`,
      )
      .bind(
        p.title,
        p.description ?? null,
        p.language ?? null,
        p.wordCount ?? null,
        p.contentHash ?? null,
        warningsColumn(p.warnings),
        p.recordKey ?? null,
        p.recordOffset ?? null,
        p.recordLength ?? null,
        crawlId,
        p.url,
      ),
  );
  if (statements.length === 0) return;
  const results = await db.batch(statements);
  meter?.d1(results);
}
