import type { Span } from '../../types';
import { columnsOf, readPage } from './page-rows';
import { type DuplicateFilter, LISTED, type PageView, toPageView } from './page-views';

/** A status filter: one exact code, or a class (2 for 2xx). */
export type StatusFilter = { code: number } | { class: number };

export const PAGE_OUTCOMES = ['stored', 'duplicate', 'failed', 'skipped'] as const;
type PageOutcome = (typeof PAGE_OUTCOMES)[number];

export const PAGE_CHANGES = ['new', 'changed', 'unchanged'] as const;
type PageChange = (typeof PAGE_CHANGES)[number];

/** What a filtered listing keeps of a crawl's page rows: every given filter holds (each list: any of its values). */
export interface PageFilters {
  /** Words each in the title, description or URL (ASCII case-insensitive). */
  q?: readonly string[];
  status?: readonly StatusFilter[];
  /** Lower-case MIME prefixes ('text/html', 'image/'). */
  contentType?: readonly string[];
  change?: readonly PageChange[];
  rendered?: boolean;
  outcome?: readonly PageOutcome[];
  duplicates?: DuplicateFilter;
}

/** A condition and its bound values, in order. */
interface Condition {
  sql: string;
  binds: (string | number)[];
}

/**
 * Words and prefixes are matched with instr() and substr() on lower(), not LIKE: D1 refuses LIKE patterns longer than
 * 50 bytes ("LIKE or GLOB pattern too complex"), and a whole URL is longer. lower() folds ASCII only, so does this.
 */
const asciiLower = (text: string) => text.replace(/[A-Z]/g, (ch) => ch.toLowerCase());

const anyOf = (parts: Condition[]): Condition => ({
  sql: `(${parts.map((p) => p.sql).join(' OR ')})`,
  binds: parts.flatMap((p) => p.binds),
});

const statusCondition = (s: StatusFilter): Condition =>
  'code' in s
    ? { sql: 'status = ?', binds: [s.code] }
    : { sql: 'status BETWEEN ? AND ?', binds: [s.class * 100, s.class * 100 + 99] };

/** The SQL of each outcome (constants): stored and duplicate from the row, failed and skipped from the errors table. */
const OUTCOME_SQL: Record<PageOutcome, string> = {
  stored: '(r2_key IS NOT NULL AND duplicate_of IS NULL)',
  duplicate: 'duplicate_of IS NOT NULL',
  failed: "EXISTS (SELECT 1 FROM errors e WHERE e.crawl_id = w.crawl_id AND e.url = w.url AND e.outcome = 'failed')",
  skipped: "EXISTS (SELECT 1 FROM errors e WHERE e.crawl_id = w.crawl_id AND e.url = w.url AND e.outcome = 'skipped')",
};

const DUPLICATES_SQL: Record<DuplicateFilter, string | null> = {
  include: null,
  exclude: 'duplicate_of IS NULL',
  only: 'duplicate_of IS NOT NULL',
};

/** The conditions of `filters` on a row `w` of pages (nothing of the request is in the SQL but placeholders). */
export function filterConditions(filters: PageFilters): Condition[] {
  const out: Condition[] = [];
  for (const word of filters.q ?? []) {
    const lower = asciiLower(word);
    out.push({
      sql: '(instr(lower(title), ?) > 0 OR instr(lower(description), ?) > 0 OR instr(lower(url), ?) > 0)',
      binds: [lower, lower, lower],
    });
  }
  if (filters.status?.length) out.push(anyOf(filters.status.map(statusCondition)));
  if (filters.contentType?.length)
    out.push(
      anyOf(
        filters.contentType.map((p) => ({
          sql: 'substr(lower(content_type), 1, ?) = ?',
          binds: [p.length, asciiLower(p)],
        })),
      ),
    );
  if (filters.change?.length)
    out.push({ sql: `change IN (${filters.change.map(() => '?').join(', ')})`, binds: [...filters.change] });
  if (filters.rendered !== undefined)
    out.push({ sql: filters.rendered ? 'rendered IS NOT NULL' : 'rendered IS NULL', binds: [] });
  if (filters.outcome?.length) out.push(anyOf(filters.outcome.map((o) => ({ sql: OUTCOME_SQL[o], binds: [] }))));
  const duplicates = DUPLICATES_SQL[filters.duplicates ?? 'include'];
  if (duplicates) out.push({ sql: duplicates, binds: [] });
  return out;
}

/** True when `filters` asks for more than the duplicate filter (which a plain listing applies itself). */
export const isFiltered = (filters: PageFilters): boolean =>
  filterConditions({ ...filters, duplicates: 'include' }).length > 0;

/** Rows of a crawl a filtered listing reads at most per request, in URL order: a filter that matches little stays bounded. */
const FILTER_WINDOW = 5000;

/** A window of a filtered listing: the rows that matched, and where the window ended. */
export interface FilteredWindow<T> {
  pages: T[];
  /** The last URL of a full window (continue after it), null when the window reached the crawl's last page. */
  windowEnd: string | null;
  /** Rows the window read. */
  searched: number;
}

/**
 * The SQL of a filtered window: of the next `window` rows after a URL (bound: crawl, after, window), those every
 * condition holds for, in URL order, at most a limit (bound last), selecting `select`.
 */
function windowSql(select: string, conditions: Condition[]): string {
  const where = conditions.length > 0 ? `WHERE ${conditions.map((c) => c.sql).join(' AND ')}` : '';
  return `SELECT ${select} FROM (
    SELECT * FROM pages WHERE crawl_id = ? AND url > ? ORDER BY url LIMIT ?
  ) AS w ${where} ORDER BY url LIMIT ?`;
}

/** Runs a filtered window (and, in the same batch, finds where the window ends and how many rows it read). */
async function runWindow(
  db: D1Database,
  query: { crawlId: string; afterUrl: string | null; limit: number; window: number; select: string },
  filters: PageFilters,
  also?: string,
): Promise<{ rows: Record<string, unknown>[]; windowEnd: string | null; searched: number }> {
  const conditions = [...filterConditions(filters), ...(also ? [{ sql: also, binds: [] }] : [])];
  const after = query.afterUrl ?? '';
  const [found, end] = await db.batch<Record<string, unknown>>([
    db
      .prepare(windowSql(query.select, conditions))
      .bind(query.crawlId, after, query.window, ...conditions.flatMap((c) => c.binds), query.limit),
    db
      .prepare(
        'SELECT COUNT(*) AS n, MAX(url) AS last FROM (SELECT url FROM pages WHERE crawl_id = ? AND url > ? ORDER BY url LIMIT ?)',
      )
      .bind(query.crawlId, after, query.window),
  ]);
  const n = end?.results[0]?.n;
  const last = end?.results[0]?.last;
  const searched = typeof n === 'number' ? n : 0;
  return {
    rows: found?.results ?? [],
    windowEnd: searched === query.window && typeof last === 'string' ? last : null,
    searched,
  };
}

/** Pages of a crawl after `afterUrl` in URL order that `filters` keep, among the next FILTER_WINDOW rows only. */
export async function filterPages(
  db: D1Database,
  crawlId: string,
  filters: PageFilters,
  limit: number,
  afterUrl: string | null,
): Promise<FilteredWindow<PageView>> {
  const { rows, windowEnd, searched } = await runWindow(
    db,
    { crawlId, afterUrl, limit, window: FILTER_WINDOW, select: columnsOf(LISTED) },
    filters,
  );
  return { pages: rows.map((row) => toPageView(readPage(row, LISTED))), windowEnd, searched };
}

/** A page a text search reads the record of. */
export type TextCandidate = PageView & { recordAt: Span };

/**
 * Pages with an extraction record after `afterUrl` that `filters` keep, at most `limit` of them among the next
 * FILTER_WINDOW rows: the candidates of a text search, whose records it then reads.
 */
export async function textCandidates(
  db: D1Database,
  crawlId: string,
  filters: PageFilters,
  limit: number,
  afterUrl: string | null,
): Promise<FilteredWindow<TextCandidate>> {
  const fields = [...LISTED, 'recordAt'] as const;
  const { rows, windowEnd, searched } = await runWindow(
    db,
    { crawlId, afterUrl, limit, window: FILTER_WINDOW, select: columnsOf(fields) },
    filters,
    'record_key IS NOT NULL',
  );
  const pages = rows.flatMap((row) => {
    const page = readPage(row, fields);
    return page.recordAt ? [{ ...toPageView(page), recordAt: page.recordAt }] : [];
  });
  return { pages, windowEnd, searched };
}
