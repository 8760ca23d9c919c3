import { parseOutcomeCode } from '../../domain/crawl/outcome-codes';
import { leavesLinksUnread, type Reach, type ReachCut, reachOf } from '../../domain/crawl/reach';
import { UrlState } from '../../domain/crawl/url-life';
import type { CrawlConfig, CrawlStatus } from '../../types';
import type { Ledger } from './ledger';
import type { SeenSet } from './seen-set';

/**
 * How far an ended crawl reached (domain/crawl/reach.ts), read from its seen-set: two statements, once per ending (the
 * coordinator keeps the answer). Rows read: the stored pages up to the first at maxDepth, and the failed and
 * skipped URLs once; nothing written.
 */
export function measureReach(
  ledger: Ledger,
  seen: SeenSet,
  config: Pick<CrawlConfig, 'maxPages' | 'maxDepth'>,
  discovered: number,
  status: CrawlStatus,
): Reach {
  if (status === 'running') return reachOf(['running']);
  const cuts: ReachCut[] = status === 'cancelled' ? ['cancelled'] : [];
  const { trapped, sitemaps } = ledger.counters;
  if (config.maxPages !== null && discovered - trapped - sitemaps >= config.maxPages) cuts.push('maxPages');
  if (ledger.counters.overHostBudget > 0) cuts.push('maxPagesPerHost');
  if (config.maxDepth !== null) {
    if (seen.reachedDepth(config.maxDepth)) cuts.push('maxDepth');
  }
  const codes = ledger
    .exec<{ code: string | null }>(
      'SELECT DISTINCT code FROM urls WHERE state IN (?, ?)',
      UrlState.Failed,
      UrlState.Skipped,
    )
    .map((row) => (row.code === null ? null : parseOutcomeCode(row.code)));
  if (codes.includes('trap')) cuts.push('traps');
  if (codes.some((code) => code !== 'trap' && leavesLinksUnread(code))) cuts.push('unread');
  return reachOf(cuts);
}
