import { z } from 'zod';
import {
  CHANGE_KINDS,
  type ChangeCounts,
  type ChangeKind,
  type Comparison,
  compareReaches,
  type Reach,
  type Reached,
  reachOf,
} from '../../domain/crawl/reach';
import type { CrawlConfig } from '../../types';
import { type CrawlRow, getCrawl } from './crawls';

/**
 * A recrawl's pages by kind (domain/crawl/reach.ts), from D1: this crawl's page rows (their `change`, set when they were
 * fetched: new when the previous crawl stored no version of them) and the previous crawl's, with both crawls' errors
 * rows (URLs that ended failed or skipped). Whether an absence means gone (or new) is the comparison's to say.
 */

/** A recrawl compared with the crawl before it (null: a schedule's first run), and what that lets it conclude. */
export interface ChangeQuery extends Comparison {
  crawlId: string;
  previousCrawlId: string | null;
}

/**
 * Statuses that say the site no longer has a page at that URL: not found, gone, moved for good; and so does a page
 * that answered 200 as the host's "not found" page (its errors row's code `soft_404`: it has no page row).
 */
const GONE_STATUSES = '404, 410, 301, 308';

/**
 * Every page of the comparison with its kind (url, title, kind): this crawl's recorded pages (`new` split by what
 * the previous crawl knew of the URL), then the previous crawl's stored pages this crawl has no stored version of.
 * `where` narrows both parts by URL (?5). Parameters: ?1 crawl, ?2 previous crawl, ?3 unseenNew, ?4 unlinkedGone.
 */
function kindsSql(where: '> ?5' | '= ?5' | ''): string {
  const url = (table: string) => (where === '' ? '' : ` AND ${table}.url ${where}`);
  return `SELECT q.url AS url, q.title AS title, CASE
      WHEN q.change <> 'new' THEN q.change
      WHEN r.status IN (200, 304, ${GONE_STATUSES}) OR f.code = 'soft_404' OR (r.url IS NULL AND f.url IS NULL AND ?3)
        THEN 'new'
      ELSE 'unreachedBefore' END AS kind
    FROM pages q
    LEFT JOIN pages r ON q.change = 'new' AND r.crawl_id = ?2 AND r.url = q.url
    LEFT JOIN errors f ON q.change = 'new' AND f.crawl_id = ?2 AND f.url = q.url
    WHERE q.crawl_id = ?1 AND q.change IS NOT NULL${url('q')}
  UNION ALL
  SELECT p.url AS url, p.title AS title, CASE
      WHEN q.status IN (${GONE_STATUSES}) OR e.code = 'soft_404' OR (q.url IS NULL AND e.url IS NULL AND ?4) THEN 'gone'
      ELSE 'unreached' END AS kind
    FROM pages p
    LEFT JOIN pages q ON q.crawl_id = ?1 AND q.url = p.url
    LEFT JOIN errors e ON e.crawl_id = ?1 AND e.url = p.url
    WHERE p.crawl_id = ?2 AND p.status IN (200, 304) AND p.duplicate_of IS NULL
      AND (q.url IS NULL OR q.status NOT IN (200, 304))${url('p')}`;
}

const bindings = (q: ChangeQuery) => [q.crawlId, q.previousCrawlId ?? '', q.unseenNew ? 1 : 0, q.unlinkedGone ? 1 : 0];

const countRowSchema = z.object({ kind: z.enum(CHANGE_KINDS), n: z.number().int() });

/** How many pages of each kind: one query (it reads both crawls' page rows). */
export async function changeCounts(db: D1Database, query: ChangeQuery): Promise<ChangeCounts> {
  const { results } = await db
    .prepare(`SELECT kind, COUNT(*) AS n FROM (${kindsSql('')}) GROUP BY kind`)
    .bind(...bindings(query))
    .all();
  const counts: ChangeCounts = {
    new: 0,
    changed: 0,
    unchanged: 0,
    gone: 0,
    unreached: 0,
    unreachedBefore: 0,
    provisional: query.provisional,
  };
  for (const row of results) {
    const { kind, n } = countRowSchema.parse(row);
    counts[kind] = n;
  }
  return counts;
}

const changedRowSchema = z.object({ url: z.string(), kind: z.enum(CHANGE_KINDS), title: z.string().nullable() });
type ChangedPage = z.output<typeof changedRowSchema>;

/** Pages of the given kinds in URL order after `afterUrl`. */
export async function listChanges(
  db: D1Database,
  query: ChangeQuery & { kinds: readonly ChangeKind[]; afterUrl: string; limit: number },
): Promise<ChangedPage[]> {
  if (query.kinds.length === 0) return [];
  const kinds = query.kinds.map((k) => `'${k}'`).join(', ');
  const { results } = await db
    .prepare(`SELECT url, kind, title FROM (${kindsSql('> ?5')}) WHERE kind IN (${kinds}) ORDER BY url LIMIT ?6`)
    .bind(...bindings(query), query.afterUrl, query.limit)
    .all();
  return results.map((row) => changedRowSchema.parse(row));
}

/** One page's kind; null when it is none (in neither crawl, failed in both, a duplicate now...). */
export async function changeKindOf(db: D1Database, query: ChangeQuery, url: string): Promise<ChangeKind | null> {
  const row = await db
    .prepare(`SELECT url, kind, title FROM (${kindsSql('= ?5')}) LIMIT 1`)
    .bind(...bindings(query), url)
    .first();
  return row ? changedRowSchema.parse(row).kind : null;
}

/** How far a crawl reached, as D1 knows it: its status, and the reach its object wrote when it ended. */
export function reachOfRow(row: Pick<CrawlRow, 'status' | 'summary'>): Reach {
  if (row.status === 'running') return reachOf(['running']);
  return row.summary?.reach ?? reachOf(['unmeasured']);
}

const reached = (config: CrawlConfig, reach: Reach): Reached => ({ reach, rules: config });

/**
 * A recrawl's comparison with the crawl before it, from that crawl's row (read even while it is being purged: its
 * pages are the comparison's until they are gone). A previous crawl that is no more lets nothing be concluded by
 * absence. Null for a crawl that is not a recrawl. `reachOfPrevious`: how far the previous crawl reached (by default
 * as its row says).
 */
export async function changeQueryOf(
  db: D1Database,
  crawl: { id: string; config: CrawlConfig; reach: Reach },
  reachOfPrevious: (row: CrawlRow) => Reach | Promise<Reach> = reachOfRow,
): Promise<ChangeQuery | null> {
  const { recrawlOf } = crawl.config;
  if (recrawlOf === undefined) return null;
  const now = reached(crawl.config, crawl.reach);
  if (recrawlOf === true) return { crawlId: crawl.id, previousCrawlId: null, ...compareReaches(now, null) };
  const previous = await getCrawl(db, recrawlOf, { purging: true });
  const before = previous
    ? reached(previous.config, await reachOfPrevious(previous))
    : reached(crawl.config, reachOf(['unmeasured']));
  return { crawlId: crawl.id, previousCrawlId: recrawlOf, ...compareReaches(now, before) };
}
