/** A page of a keyset listing: the crawl, the last URL read (empty: from the start), how many rows. */
export interface KeysetPage {
  crawlId: string;
  afterUrl: string;
  limit: number;
}

/** Rows of a crawl's pages matching `where`, in URL order after `afterUrl` (keyset: stable while the crawl goes on). */
export async function rowsAfter(
  db: D1Database,
  select: string,
  where: string,
  page: KeysetPage,
): Promise<Record<string, unknown>[]> {
  const sql = `SELECT ${select} FROM pages WHERE ${where} AND url > ? ORDER BY url LIMIT ?`;
  return (await db.prepare(sql).bind(page.crawlId, page.afterUrl, page.limit).all()).results;
}
