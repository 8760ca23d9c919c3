import { diffLines } from '../output/line-diff';
import type { ChangeTracking } from './document';

/** A version of a page as changeTracking compares it: when it was read, its content's hash and its markdown. */
export interface PageVersion {
  fetchedAt: string;
  contentHash: string | null;
  markdown: string | null;
}

/**
 * Firecrawl's changeTracking of a page against its previous version (null: never read before): new, same or changed
 * by the hash of its content (its markdown where either has no hash), with the unified diff of the markdown in
 * git-diff mode.
 */
export function changeTrackingOf(
  previous: PageVersion | null,
  current: Omit<PageVersion, 'fetchedAt'>,
  modes: readonly string[],
): ChangeTracking {
  if (previous === null) return { previousScrapeAt: null, changeStatus: 'new', visibility: 'visible' };
  const same =
    previous.contentHash !== null && current.contentHash !== null
      ? previous.contentHash === current.contentHash
      : previous.markdown === current.markdown;
  const tracked: ChangeTracking = {
    previousScrapeAt: previous.fetchedAt,
    changeStatus: same ? 'same' : 'changed',
    visibility: 'visible',
  };
  if (!modes.includes('git-diff') || previous.markdown === null || current.markdown === null) return tracked;
  return { ...tracked, diff: { text: diffLines(previous.markdown, current.markdown).unified } };
}
