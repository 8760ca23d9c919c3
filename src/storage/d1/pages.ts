import type { UsageMeter } from '../../domain/crawl/usage';
import type { ExtractedPage, PageRecord, Span } from '../../types';
import {
  assignmentsOf,
  columnsOf,
  PAGE_FIELDS,
  type PageField,
  type PageOf,
  pageColumns,
  readPage,
  valuesOf,
} from './page-rows';
import { chunkedIn, jsonRowsInsert, perInterval } from './sql';

// Each view below is a Pick of the page record (PageOf), selects the columns of its fields and no more, and reads
// its rows through readPage.

/** The fields a listing shows. */
export const LISTED = [
  'url',
  'status',
  'contentType',
  'title',
  'depth',
  'bytes',
  'fetchedAt',
  'rendered',
  'cachedFrom',
  'duplicateOf',
  'duplicateReason',
  'wordCount',
] as const;

/** Which pages a listing shows: all, all but the duplicates, or the duplicates alone. */
export const DUPLICATE_FILTERS = ['include', 'exclude', 'only'] as const;
export type DuplicateFilter = (typeof DUPLICATE_FILTERS)[number];

/** The SQL condition of a duplicate filter (a constant: nothing of the request is in it). */
const duplicatesWhere = (filter: DuplicateFilter = 'include'): string =>
  filter === 'exclude' ? ' AND duplicate_of IS NULL' : filter === 'only' ? ' AND duplicate_of IS NOT NULL' : '';

/** A page as the API lists it: its record's fields, fetch time as an ISO string, no storage internals. */
export interface PageView extends Omit<PageOf<(typeof LISTED)[number]>, 'fetchedAt'> {
  fetchedAt: string;
}

export const toPageView = (p: PageOf<(typeof LISTED)[number]>): PageView => ({
  url: p.url,
  status: p.status,
  contentType: p.contentType,
  title: p.title,
  depth: p.depth,
  bytes: p.bytes,
  fetchedAt: new Date(p.fetchedAt).toISOString(),
  rendered: p.rendered,
  cachedFrom: p.cachedFrom,
  duplicateOf: p.duplicateOf,
  duplicateReason: p.duplicateReason,
  wordCount: p.wordCount,
});

/** Pages of a crawl in URL order (keyset pagination: stable while the crawl adds pages). */
export async function listPages(
  db: D1Database,
  crawlId: string,
  limit: number,
  afterUrl: string | null,
  duplicates?: DuplicateFilter,
): Promise<PageView[]> {
  const where = `crawl_id = ? AND url > ?${duplicatesWhere(duplicates)}`;
  const { results } = await db
    .prepare(`SELECT ${columnsOf(LISTED)} FROM pages WHERE ${where} ORDER BY url LIMIT ?`)
    .bind(crawlId, afterUrl ?? '', limit)
    .all();
  return results.map((row) => toPageView(readPage(row, LISTED)));
}

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
  duplicates?: DuplicateFilter,
): Promise<(PageView & { cursor: RecentCursor })[]> {
  const { results } = await db
    .prepare(
      `SELECT ${columnsOf(LISTED)} FROM pages
       WHERE crawl_id = ? AND (? IS NULL OR (fetched_at, url) < (?, ?))${duplicatesWhere(duplicates)}
       ORDER BY fetched_at DESC, url DESC LIMIT ?`,
    )
    .bind(crawlId, after?.t ?? null, after?.t ?? 0, after?.u ?? '', limit)
    .all();
  return results.map((row) => {
    const page = readPage(row, LISTED);
    return { ...toPageView(page), cursor: { t: page.fetchedAt, u: page.url } };
  });
}

const STORED = [
  'url',
  'status',
  'fetchedAt',
  'contentType',
  'bodyAt',
  'recordAt',
  'linksAt',
  'rendered',
  'fetchedBodyAt',
  'screenshotAt',
  'exchangeAt',
  'cachedFrom',
  'duplicateOf',
] as const;

/** A page's stored body, record and links, what its record is reported with, and the page a duplicate's are under. */
export type StoredPageRow = PageOf<(typeof STORED)[number]>;

export async function getStoredPage(db: D1Database, crawlId: string, url: string): Promise<StoredPageRow | null> {
  const row = await db
    .prepare(`SELECT ${columnsOf(STORED)} FROM pages WHERE crawl_id = ? AND url = ?`)
    .bind(crawlId, url)
    .first();
  return row ? readPage(row, STORED) : null;
}

const ONE = [...LISTED, 'change', 'recordAt', 'linksAt', 'screenshotAt', 'fetchedBodyAt'] as const;

/**
 * One page as listed, with its change and which of its parts are stored (record, links, screenshot, the HTML as
 * fetched when it was rendered); null when the crawl has no such page.
 */
export async function getPageView(db: D1Database, crawlId: string, url: string) {
  const row = await db
    .prepare(`SELECT ${columnsOf(ONE)} FROM pages WHERE crawl_id = ? AND url = ?`)
    .bind(crawlId, url)
    .first();
  if (!row) return null;
  const page = readPage(row, ONE);
  return { ...toPageView(page), change: page.change, stored: storedParts(page) };
}

/** Which parts of a page are stored (a duplicate's are its kept page's: pass that page's row). */
export function storedParts(page: PageOf<'recordAt' | 'linksAt' | 'screenshotAt' | 'fetchedBodyAt'>) {
  return {
    record: page.recordAt !== null,
    links: page.linksAt !== null,
    screenshot: page.screenshotAt !== null,
    fetchedHtml: page.fetchedBodyAt !== null,
  };
}

const SUMMARY = ['url', 'title', 'description'] as const;

/** A page's title and description, as extraction recorded them; null when the crawl has no such page. */
export async function pageSummary(
  db: D1Database,
  crawlId: string,
  url: string,
): Promise<PageOf<(typeof SUMMARY)[number]> | null> {
  const row = await db
    .prepare(`SELECT ${columnsOf(SUMMARY)} FROM pages WHERE crawl_id = ? AND url = ?`)
    .bind(crawlId, url)
    .first();
  return row ? readPage(row, SUMMARY) : null;
}

/** What a 304 keeps of the previous crawl's page besides its body and links: what that crawl extracted. */
const KEPT_EXTRACTION = ['description', 'language', 'wordCount', 'warnings', 'recordAt', 'rendered'] as const;
const VALIDATORS_AND_STORAGE = [
  'url',
  'etag',
  'lastModified',
  'bodyAt',
  'contentType',
  'title',
  'contentHash',
  'linksAt',
] as const;
const PREVIOUS = [...VALIDATORS_AND_STORAGE, ...KEPT_EXTRACTION] as const;

/**
 * What a previous crawl fetched for a URL: the validators for a conditional GET, and where it stored the body and
 * links (a 304 keeps them) and what it extracted (kept too).
 */
export interface PreviousVersion extends PageOf<(typeof VALIDATORS_AND_STORAGE)[number]> {
  extracted: PageOf<(typeof KEPT_EXTRACTION)[number]>;
}

function toPreviousVersion(row: Record<string, unknown>): PreviousVersion {
  const { description, language, wordCount, warnings, recordAt, rendered, ...page } = readPage(row, PREVIOUS);
  return { ...page, extracted: { description, language, wordCount, warnings, recordAt, rendered } };
}

export async function previousVersions(
  db: D1Database,
  crawlId: string,
  urls: readonly string[],
  meter?: UsageMeter,
): Promise<Map<string, PreviousVersion>> {
  const statements = chunkedIn(
    db,
    `SELECT ${columnsOf(PREVIOUS)} FROM pages
     WHERE crawl_id = ? AND status IN (200, 304) AND duplicate_of IS NULL AND url IN ({in})`,
    [crawlId],
    urls,
  );
  const out = new Map<string, PreviousVersion>();
  for (const statement of statements) {
    const result = await statement.all();
    meter?.d1([result]);
    for (const row of result.results) {
      const previous = toPreviousVersion(row);
      out.set(previous.url, previous);
    }
  }
  return out;
}

const RECORDED = ['url', 'depth', 'bodyAt', 'linksAt'] as const;

/** A page a crawl stored: where its links are, to follow them. */
export type RecordedPage = PageOf<(typeof RECORDED)[number]>;

/**
 * Of `urls`, the pages the crawl stored (a body in R2): what a consumer recorded before the crawl's coordinator heard
 * of it (the consumer died in between).
 */
export async function recordedPages(
  db: D1Database,
  crawlId: string,
  urls: readonly string[],
  meter?: UsageMeter,
): Promise<RecordedPage[]> {
  const statements = chunkedIn(
    db,
    `SELECT ${columnsOf(RECORDED)} FROM pages WHERE crawl_id = ? AND r2_key IS NOT NULL AND url IN ({in})`,
    [crawlId],
    urls,
  );
  const out: RecordedPage[] = [];
  for (const statement of statements) {
    const result = await statement.all();
    meter?.d1([result]);
    out.push(...result.results.map((row) => readPage(row, RECORDED)));
  }
  return out;
}

/** A page as exports write it: the listing's fields and the rest a user may want, none of the storage internals. */
export interface ExportRecord extends PageView, PageOf<'redirectTo' | 'etag' | 'lastModified' | 'change'> {
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
  'rendered',
  'redirectTo',
  'etag',
  'lastModified',
  'change',
  'cachedFrom',
  'duplicateOf',
  'duplicateReason',
  'stored',
] as const satisfies readonly (keyof ExportRecord)[];

/** What exports read of a page besides its record's fields: the extraction facts, and where the extraction record is. */
const EXTRACTION = ['contentHash', 'description', 'language', 'wordCount', 'warnings', 'recordAt'] as const;
// wordCount is a listed field already: selected once.
const EXPORTED = [
  ...LISTED,
  ...(['redirectTo', 'etag', 'lastModified', 'change', 'bodyAt', 'contentHash', 'description'] as const),
  ...(['language', 'warnings', 'recordAt'] as const),
] as const;

/** A page row as exports read it: the export's fields, the extraction facts, and where the page's record is. */
export type ExportRow = ExportRecord & PageOf<(typeof EXTRACTION)[number]>;

function toExportRow(row: Record<string, unknown>): ExportRow {
  const p = readPage(row, EXPORTED);
  return {
    ...toPageView(p),
    redirectTo: p.redirectTo,
    etag: p.etag,
    lastModified: p.lastModified,
    change: p.change,
    stored: p.bodyAt !== null,
    contentHash: p.contentHash,
    description: p.description,
    language: p.language,
    wordCount: p.wordCount,
    warnings: p.warnings,
    recordAt: p.recordAt,
  };
}

/** Rows of a crawl's pages matching `where`, in URL order after `afterUrl` (keyset: stable while the crawl goes on). */
async function rowsAfter(
  db: D1Database,
  select: string,
  where: string,
  page: KeysetPage,
): Promise<Record<string, unknown>[]> {
  const sql = `SELECT ${select} FROM pages WHERE ${where} AND url > ? ORDER BY url LIMIT ?`;
  return (await db.prepare(sql).bind(page.crawlId, page.afterUrl, page.limit).all()).results;
}

/** A page of a keyset listing: the crawl, the last URL read (empty: from the start), how many rows. */
export interface KeysetPage {
  crawlId: string;
  afterUrl: string;
  limit: number;
}

/** Page rows in URL order after `afterUrl` (keyset, so an export is stable while the crawl goes on). */
export async function pageRecords(db: D1Database, page: KeysetPage): Promise<ExportRow[]> {
  return (await rowsAfter(db, columnsOf(EXPORTED), 'crawl_id = ?', page)).map(toExportRow);
}

/** A page llms.txt lists, as SQL: stored (a body in R2), and HTML or PDF. */
const LISTED_IN_LLMS = "r2_key IS NOT NULL AND (content_type LIKE '%html%' OR content_type LIKE '%pdf%')";

/** The URLs of the pages llms.txt lists, in URL order after `afterUrl` (nothing else of them: a planning pass). */
export async function llmsUrls(db: D1Database, page: KeysetPage): Promise<string[]> {
  const rows = await rowsAfter(db, 'url', `crawl_id = ? AND ${LISTED_IN_LLMS}`, page);
  return rows.map((row) => readPage(row, ['url']).url);
}

/** Whether the crawl has a page llms-full.txt can write: listed, with an extraction record (the first found). */
export async function hasLlmsRecord(db: D1Database, crawlId: string): Promise<boolean> {
  const sql = `SELECT 1 AS found FROM pages WHERE crawl_id = ? AND ${LISTED_IN_LLMS} AND record_key IS NOT NULL LIMIT 1`;
  return (await db.prepare(sql).bind(crawlId).first()) !== null;
}

/** Page rows in URL order after `afterUrl` within any of `ranges` (inclusive), for the pages llms.txt lists. */
export async function llmsRecordsIn(
  db: D1Database,
  page: KeysetPage,
  ranges: readonly { from: string; to: string }[],
): Promise<ExportRow[]> {
  if (ranges.length === 0) return [];
  const within = ranges.map(() => 'url BETWEEN ? AND ?').join(' OR ');
  const sql = `SELECT ${columnsOf(EXPORTED)} FROM pages WHERE crawl_id = ? AND ${LISTED_IN_LLMS} AND url > ?
    AND (${within}) ORDER BY url LIMIT ?`;
  const bounds = ranges.flatMap((r) => [r.from, r.to]);
  const { results } = await db
    .prepare(sql)
    .bind(page.crawlId, page.afterUrl, ...bounds, page.limit)
    .all();
  return results.map(toExportRow);
}

/** A view of pages with a stored body: the query asks for r2_key IS NOT NULL, and a row without one is left out. */
type WithBody<K extends PageField> = PageOf<K> & { bodyAt: Span };

function withBody<K extends PageField>(page: PageOf<K | 'bodyAt'>): WithBody<K>[] {
  const { bodyAt } = page;
  return bodyAt ? [{ ...page, bodyAt }] : [];
}

const WARC = [
  ...(['url', 'status', 'contentType', 'etag', 'lastModified', 'fetchedAt', 'bodyAt'] as const),
  ...(['rendered', 'fetchedBodyAt', 'exchangeAt'] as const),
] as const;

/** A page with a stored body: what its WARC record says of it, and where the body is. */
export type StoredPage = WithBody<(typeof WARC)[number]>;

export type StoredPageCursor = { key: string; offset: number; url: string };

/** Pages with a stored body in storage order (segment, then offset): each segment is read once. */
export async function storedPages(
  db: D1Database,
  crawlId: string,
  after: StoredPageCursor | null,
  limit: number,
): Promise<StoredPage[]> {
  const { results } = await db
    .prepare(
      `SELECT ${columnsOf(WARC)} FROM pages
       WHERE crawl_id = ? AND r2_key IS NOT NULL AND (r2_key, COALESCE(body_offset, 0), url) > (?, ?, ?)
       ORDER BY r2_key, COALESCE(body_offset, 0), url LIMIT ?`,
    )
    .bind(crawlId, after?.key ?? '', after?.offset ?? -1, after?.url ?? '', limit)
    .all();
  return results.flatMap((row) => withBody(readPage(row, WARC)));
}

/** Upserts of page rows keyed by (crawl, url): a redelivered message rewrites its row instead of adding one. */
export function pageUpserts(db: D1Database, crawlId: string, pages: readonly PageRecord[]): D1PreparedStatement[] {
  const columns = ['crawl_id', ...pageColumns(PAGE_FIELDS)];
  const updates = pageColumns(PAGE_FIELDS.filter((f) => f !== 'url')).map((c) => `${c} = excluded.${c}`);
  return jsonRowsInsert(
    db,
    `INSERT INTO pages (${columns.join(', ')})`,
    columns.length,
    `ON CONFLICT (crawl_id, url) DO UPDATE SET ${updates.join(', ')}`,
    pages.map((p) => [crawlId, ...valuesOf(p, PAGE_FIELDS)]),
  );
}

// ---- aggregates for the stats endpoint and the dashboard ----

export interface CrawlActivity {
  /** First and last page fetched from the site, epoch ms (null before the first). */
  firstAt: number | null;
  lastAt: number | null;
  /** Pages fetched at or after `since`. */
  recent: number;
  /** Pages stored from the page cache (maxAge), not fetched: left out of the times and rates. */
  cached: number;
}

export async function crawlActivity(db: D1Database, crawlId: string, since: number): Promise<CrawlActivity> {
  const fetched = (value: string) => `CASE WHEN cached_from IS NULL THEN ${value} END`;
  const row = await db
    .prepare(
      `SELECT MIN(${fetched('fetched_at')}) AS first_at, MAX(${fetched('fetched_at')}) AS last_at,
       SUM(${fetched('fetched_at >= ?')}) AS recent, SUM(cached_from IS NOT NULL) AS cached FROM pages WHERE crawl_id = ?`,
    )
    .bind(since, crawlId)
    .first<{ first_at: number | null; last_at: number | null; recent: number | null; cached: number | null }>();
  return {
    firstAt: row?.first_at ?? null,
    lastAt: row?.last_at ?? null,
    recent: row?.recent ?? 0,
    cached: row?.cached ?? 0,
  };
}

/** Pages fetched from the site per interval (interval start, epoch ms); those from the page cache are not. */
export async function pageSeries(
  db: D1Database,
  crawlId: string,
  seconds: number,
): Promise<{ at: number; fetched: number }[]> {
  const counted = await perInterval(
    db,
    { column: 'fetched_at', from: 'pages WHERE crawl_id = ? AND cached_from IS NULL' },
    crawlId,
    seconds,
  );
  return counted.map(({ at, n }) => ({ at, fetched: n }));
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
const AUTHORITY =
  "substr(substr(url, instr(url, '://') + 3), 1, instr(substr(url, instr(url, '://') + 3) || '/', '/') - 1)";
// The host name of an authority `a` (as hostKey in domain/url/normalize.ts): no user info, no port, "[…]" kept whole.
const HOST_NAME = `lower(CASE WHEN h LIKE '[%' THEN substr(h, 1, instr(h, ']')) WHEN instr(h, ':') > 0
  THEN substr(h, 1, instr(h, ':') - 1) ELSE h END)`;

/**
 * Pages by host name, most first: one row per host name whatever its ports and schemes, named as the host gate
 * (one per host name) and GET /v1/crawls/:id/hosts name it.
 */
export async function hostBreakdown(
  db: D1Database,
  crawlId: string,
  limit: number,
): Promise<{ host: string; pages: number }[]> {
  const { results } = await db
    .prepare(
      `SELECT ${HOST_NAME} AS host, COUNT(*) AS pages
       FROM (SELECT substr(a, instr(a, '@') + 1) AS h FROM (SELECT ${AUTHORITY} AS a FROM pages WHERE crawl_id = ?))
       GROUP BY host ORDER BY pages DESC, host LIMIT ?`,
    )
    .bind(crawlId, limit)
    .all<{ host: string; pages: number }>();
  return results;
}

// ---- re-extraction ----

const HTML = ['url', 'contentType', 'bodyAt'] as const;

/** Where a stored HTML page's body is, for re-extraction. */
export type StoredHtmlPage = WithBody<(typeof HTML)[number]>;

const HTML_PAGES = `crawl_id = ? AND r2_key IS NOT NULL AND status BETWEEN 200 AND 299
  AND (lower(content_type) LIKE 'text/html%' OR lower(content_type) LIKE 'application/xhtml+xml%')`;

/** Stored HTML pages of a crawl. */
/** Whether the crawl has any page row (a response it recorded: stored, a duplicate, or a 4xx/5xx). */
export async function hasPages(db: D1Database, crawlId: string): Promise<boolean> {
  return (await db.prepare('SELECT 1 AS one FROM pages WHERE crawl_id = ? LIMIT 1').bind(crawlId).first()) !== null;
}

export async function countHtmlPages(db: D1Database, crawlId: string): Promise<number> {
  return (
    (await db.prepare(`SELECT COUNT(*) AS n FROM pages WHERE ${HTML_PAGES}`).bind(crawlId).first<{ n: number }>())?.n ??
    0
  );
}

/** Stored HTML pages after `afterUrl`, in URL order. */
export async function htmlPagesAfter(db: D1Database, page: KeysetPage): Promise<StoredHtmlPage[]> {
  return (await rowsAfter(db, columnsOf(HTML), HTML_PAGES, page)).flatMap((row) => withBody(readPage(row, HTML)));
}

/** What extraction sets on a page's row. */
const EXTRACTED = ['title', 'description', 'language', 'wordCount', 'contentHash', 'warnings', 'recordAt'] as const;

/** Points pages at their new records and sets what extraction says of them (title, description, hash, ...). */
export async function updateExtracted(
  db: D1Database,
  crawlId: string,
  pages: readonly ExtractedPage[],
  meter?: UsageMeter,
): Promise<void> {
  const sql = `UPDATE pages SET ${assignmentsOf(EXTRACTED)} WHERE crawl_id = ? AND url = ?`;
  const statements = pages.map((p) => db.prepare(sql).bind(...valuesOf(p, EXTRACTED), crawlId, p.url));
  if (statements.length === 0) return;
  const results = await db.batch(statements);
  meter?.d1(results);
}
