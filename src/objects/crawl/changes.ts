import { log } from '../../log';
import { changeCounts, changeQueryOf } from '../../storage/d1/changes';
import type { CrawlConfig, CrawlSummary } from '../../types';

/**
 * An ended recrawl's summary with its change counts (one D1 query, reading both crawls' page rows once per ending), so
 * that the crawl list shows them without counting again. A running crawl's, or one that is not a recrawl, as it is;
 * so is a summary whose counts could not be read (the list then counts them live).
 */
export async function withChanges(
  db: D1Database,
  crawlId: string,
  config: CrawlConfig,
  summary: CrawlSummary,
): Promise<CrawlSummary> {
  if (summary.reach === undefined || config.recrawlOf === undefined) return summary;
  try {
    const query = await changeQueryOf(db, { id: crawlId, config, reach: summary.reach });
    return query ? { ...summary, changes: await changeCounts(db, query) } : summary;
  } catch (error) {
    log('warn', 'change counts not read when the crawl ended; the list counts them live', {
      crawlId,
      error: String(error),
    });
    return summary;
  }
}
