import type { UsageMeter } from '../../domain/crawl/usage';
import { assignmentsOf, columnsOf, readPage, valuesOf } from './page-rows';
import { chunkedIn } from './sql';

// The model step's pages (formats json and summary): read by URL, then pointed at the records it rewrote.

const MODEL_PAGE = ['url', 'title', 'contentType', 'bodyAt', 'recordAt', 'warnings'] as const;

/** What the model step reads of a page's row: its record (the markdown it reads), its body (learned selectors). */
export type ModelPage = ReturnType<typeof readModelPage>;

const readModelPage = (row: Parameters<typeof readPage>[0]) => readPage(row, MODEL_PAGE);

/** The rows of `urls` in the crawl, by URL (a URL without a row is missing). */
export async function modelPages(
  db: D1Database,
  crawlId: string,
  urls: readonly string[],
  meter?: UsageMeter,
): Promise<Map<string, ModelPage>> {
  const statements = chunkedIn(
    db,
    `SELECT ${columnsOf(MODEL_PAGE)} FROM pages WHERE crawl_id = ? AND url IN ({in})`,
    [crawlId],
    [...new Set(urls)],
  );
  if (statements.length === 0) return new Map();
  const results = await db.batch<Record<string, unknown>>(statements);
  meter?.d1(results);
  return new Map(results.flatMap((r) => r.results.map(readModelPage)).map((page) => [page.url, page]));
}

const MODELLED = ['recordAt', 'warnings'] as const;

/** Points pages at the records the model step wrote, with their warnings. */
export async function setModelled(
  db: D1Database,
  crawlId: string,
  pages: readonly Pick<ModelPage, 'url' | 'recordAt' | 'warnings'>[],
  meter?: UsageMeter,
): Promise<void> {
  if (pages.length === 0) return;
  const sql = `UPDATE pages SET ${assignmentsOf(MODELLED)} WHERE crawl_id = ? AND url = ?`;
  const results = await db.batch(pages.map((p) => db.prepare(sql).bind(...valuesOf(p, MODELLED), crawlId, p.url)));
  meter?.d1(results);
}
