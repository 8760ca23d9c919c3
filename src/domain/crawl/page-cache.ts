import type { RenderMode } from '../render/rules';

/**
 * The page cache (docs/crawling.md, "Page cache"): a scrape or a crawl given `maxAge` takes a page that any crawl or
 * scrape of the deployment fetched at most `maxAge` seconds ago from its stored body, with no request to the site.
 */

/** The longest maxAge (30 days): scrapes' stored pages are deleted once older. */
export const MAX_CACHE_AGE_SECONDS = 30 * 24 * 3600;

/** A scrape's maxAge when it gives none: a page scraped again within five minutes is not fetched again. */
export const DEFAULT_SCRAPE_MAX_AGE_SECONDS = 300;

/** The crawl id scrapes store their pages under (crawl ids are UUIDs: no crawl has it). */
export const SCRAPE_CRAWL_ID = 'scrape';

/** The oldest fetch time (epoch ms) a page served from the cache may have, for `maxAgeSeconds` at `now`. */
export const freshSince = (now: number, maxAgeSeconds: number): number => now - maxAgeSeconds * 1000;

/**
 * Which stored body of a cached page a request may use, by how the request renders and how the page was stored:
 * 'body' (as stored: the rendered DOM of a rendered page), 'fetched' (a rendered page's HTML as fetched, for a request
 * that never renders), 'check' (an unrendered page, for a request that renders when a page needs it: used unless its
 * HTML needs rendering), or null: none fits, the page is fetched. A request that wants a browser of its own (a
 * screenshot, actions) never takes a page from the cache.
 */
export function cachedBodyUse(
  request: { render: RenderMode; wantsBrowser: boolean },
  stored: { rendered: boolean; hasFetched: boolean },
): 'body' | 'fetched' | 'check' | null {
  if (request.wantsBrowser) return null;
  switch (request.render) {
    case 'never':
      if (!stored.rendered) return 'body';
      return stored.hasFetched ? 'fetched' : null;
    case 'always':
      return stored.rendered ? 'body' : null;
    case 'auto':
      return stored.rendered ? 'body' : 'check';
  }
}
