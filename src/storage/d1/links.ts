import { multiRowInsert } from './sql';

/** Inserts of a page's outgoing links (one row each, deduplicated by the primary key). */
export function linkInserts(db: D1Database, crawlId: string, links: readonly { from: string; to: string }[]): D1PreparedStatement[] {
  return multiRowInsert(
    db,
    'INSERT INTO links (crawl_id, from_url, to_url)',
    'ON CONFLICT DO NOTHING',
    3,
    links.map((l) => [crawlId, l.from, l.to]),
  );
}

/** The outgoing links a crawl recorded for a page. */
export async function previousLinks(db: D1Database, crawlId: string, url: string): Promise<string[]> {
  const { results } = await db.prepare('SELECT to_url FROM links WHERE crawl_id = ? AND from_url = ?').bind(crawlId, url).all<{ to_url: string }>();
  return results.map((r) => r.to_url);
}
