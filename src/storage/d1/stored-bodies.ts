import type { Span } from '../../types';
import { columnsOf, type PageField, type PageOf, readPage } from './page-rows';

// Pages with a stored body, in storage order: what WARC exports write.

/** A view of pages with a stored body: the query asks for r2_key IS NOT NULL, and a row without one is left out. */
export type WithBody<K extends PageField> = PageOf<K> & { bodyAt: Span };

export function withBody<K extends PageField>(page: PageOf<K | 'bodyAt'>): WithBody<K>[] {
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
