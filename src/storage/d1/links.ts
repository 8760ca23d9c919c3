import type { UsageMeter } from '../../domain/usage';

/**
 * The outgoing links of a page stored before links moved to R2 (migration 0006): one row each in D1's links table,
 * which is read for those pages only and no longer written.
 */
export async function legacyLinks(db: D1Database, crawlId: string, url: string, usage?: UsageMeter): Promise<string[]> {
  const result = await db.prepare('SELECT to_url FROM links WHERE crawl_id = ? AND from_url = ?').bind(crawlId, url).all<{ to_url: string }>();
  usage?.d1([result]);
  return result.results.map((r) => r.to_url);
}
