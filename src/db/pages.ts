export interface PageView {
  url: string;
  status: number;
  contentType: string | null;
  title: string | null;
  depth: number;
  bytes: number;
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
  return results.map((r) => ({
    url: r.url,
    status: r.status,
    contentType: r.content_type,
    title: r.title,
    depth: r.depth,
    bytes: r.bytes,
    fetchedAt: new Date(r.fetched_at).toISOString(),
  }));
}

export async function getPageBodyKey(db: D1Database, crawlId: string, url: string): Promise<{ r2Key: string | null; contentType: string | null } | null> {
  const row = await db
    .prepare('SELECT r2_key, content_type FROM pages WHERE crawl_id = ? AND url = ?')
    .bind(crawlId, url)
    .first<{ r2_key: string | null; content_type: string | null }>();
  return row ? { r2Key: row.r2_key, contentType: row.content_type } : null;
}
