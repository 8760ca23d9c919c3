import { type PageField, pageColumns } from './page-rows';

/**
 * Page rows read with their kept page's parts: a duplicate (docs/crawling.md, "Duplicates") has no body, record or
 * screenshot of its own, and a per-URL answer gives it those of the page its content is stored under, in the same
 * query (a self-join on the primary key: one row read more per duplicate, none per other page). `p` is the page asked
 * for, `k` the page it is a duplicate of, `k2` that page's own kept page when `k` is a duplicate too (a page
 * declaring a canonical that is itself a duplicate: canonical chains, MAX_CANONICAL_HOPS).
 *
 * Two hops, not more: the kept page of most duplicates is one hop away (a content duplicate always names a stored
 * page), a canonical chain of two is what a site with both a canonical and a moved page makes, and each further hop is
 * one more join in every read of the crawl's documents for chains that are rare. A duplicate three hops or more from
 * its content has no parts here (it is left out of what needs them); GET /content?url= (src/api/kept-page.ts) still
 * follows it to the end.
 */
export const WITH_KEPT = `pages p
  LEFT JOIN pages k ON k.crawl_id = p.crawl_id AND k.url = p.duplicate_of
  LEFT JOIN pages k2 ON k2.crawl_id = k.crawl_id AND k2.url = k.duplicate_of`;

/** A column of the page whose content `p` is: its own, or its kept page's (NULL: none within two hops). */
const keptColumn = (column: string): string =>
  `CASE WHEN p.duplicate_of IS NULL THEN p.${column} WHEN k.duplicate_of IS NULL THEN k.${column} ` +
  `WHEN k2.duplicate_of IS NULL THEN k2.${column} END`;

/** The columns of `fields` of `p` itself, named as the pages table names them (readPage reads them). */
export const ownColumns = (fields: readonly PageField[]): string =>
  pageColumns(fields)
    .map((c) => `p.${c} AS ${c}`)
    .join(', ');

/** The columns of `fields` of the page whose content `p` is, named as the pages table names them. */
export const keptColumns = (fields: readonly PageField[]): string =>
  pageColumns(fields)
    .map((c) => `${keptColumn(c)} AS ${c}`)
    .join(', ');

/** The SQL value of whether `p` has a body to read: its own, or its kept page's. */
export const HAS_KEPT_BODY = `${keptColumn('r2_key')} IS NOT NULL`;
