import type { PageRecord } from '../../types';
import { PAGE_FIELDS, pageColumns, valuesOf } from './page-rows';
import { jsonRowsInsert } from './sql';

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
