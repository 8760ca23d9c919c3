import { MAX_CANONICAL_HOPS } from '../domain/crawl/duplicates';
import { normalizeUrl } from '../domain/url/normalize';
import { getStoredPage, type StoredPageRow } from '../storage/d1/stored-page';
import { badRequest, notFound } from './errors';

/**
 * A page of a crawl as its stored parts are read: `page` is the page asked for, or, for a duplicate, the page its
 * content is stored under (duplicateOf followed, a duplicate of a duplicate too), whose URL `duplicateOf` names;
 * `url` is the URL asked for, normalized.
 */
export interface KeptPage {
  url: string;
  page: StoredPageRow;
  duplicateOf: string | null;
}

/** One D1 row read, and one more per duplicate followed. */
export async function keptPage(db: D1Database, crawlId: string, raw: string): Promise<KeptPage> {
  const url = normalizeUrl(raw);
  if (url === null) throw badRequest('url must be an absolute http(s) URL');
  let page = await getStoredPage(db, crawlId, url);
  if (!page) throw notFound(`no page ${url} in this crawl`);
  const seen = new Set([url]);
  for (let hop = 0; page.duplicateOf !== null && hop <= MAX_CANONICAL_HOPS; hop++) {
    const of: string = page.duplicateOf;
    if (seen.has(of)) break;
    seen.add(of);
    const next = await getStoredPage(db, crawlId, of);
    if (!next) throw notFound(`${url} is a duplicate of ${of}, which is not a page of this crawl`);
    page = next;
  }
  return { url, page, duplicateOf: page.url === url ? null : page.url };
}

/** How an answer names the page its parts are from: "<url>", or "<url> (a duplicate of <kept>)". */
export const described = ({ url, duplicateOf }: KeptPage): string =>
  duplicateOf === null ? url : `${url} (a duplicate of ${duplicateOf})`;

/** The headers of bytes read for `kept`: the page they are from, and the duplicate's kept page. */
export const keptHeaders = (kept: KeptPage): Record<string, string> => ({
  'x-edgecrawl-url': kept.page.url,
  ...(kept.duplicateOf === null ? {} : { 'x-edgecrawl-duplicate-of': kept.duplicateOf }),
});
