import { discoverLinks } from '../domain/discover';
import { decodeBody, isHtml } from '../domain/html';
import { normalizeUrl } from '../domain/normalize';
import { isGzip, parseSitemap } from '../domain/sitemap';
import type { FrontierEntry, PageRecord, Processed } from '../types';
import { gunzipCapped } from './fetcher';
import { finish, type Job } from './process';

/** Outgoing links recorded in D1 per page (all of them are still considered for crawling). */
const MAX_LINKS_RECORDED = 1000;

/**
 * A 2xx response to store, with the links it offers: a sitemap's locations (more sitemaps for an index), an
 * HTML page's links and title; other content types are stored without links.
 */
export async function readLinks(job: Job, page: PageRecord, body: Uint8Array): Promise<Processed> {
  const { claim, deps } = job;
  let links: string[] = [];
  let candidates: FrontierEntry[] = [];
  if (claim.kind === 'sitemap') {
    let xml: Uint8Array;
    try {
      xml = isGzip(body) ? await gunzipCapped(body, deps.settings.maxBodyBytes) : body;
    } catch (error) {
      return finish(job, { kind: 'failed', fetched: true, reason: `sitemap: ${error instanceof Error ? error.message : String(error)}` }, { page, body });
    }
    const sitemap = parseSitemap(decodeBody(xml, page.contentType));
    links = sitemap.locs.map((loc) => normalizeUrl(loc)).filter((url): url is string => url !== null);
    candidates =
      sitemap.kind === 'index'
        ? links.filter((url) => deps.sitemapInScope(url)).map((url) => ({ url, depth: claim.depth, hops: 0, kind: 'sitemap' as const }))
        : links.filter((url) => deps.policy(url, claim.depth + 1)).map((url) => ({ url, depth: claim.depth + 1, hops: 0 }));
  } else if (isHtml(page.contentType)) {
    const parsed = await discoverLinks(body, page.contentType, job.task.url);
    page.title = parsed.title;
    links = parsed.links;
    const depth = claim.depth + 1;
    candidates = links.filter((url) => deps.policy(url, depth)).map((url) => ({ url, depth, hops: 0 }));
  }
  return finish(job, { kind: 'stored', fetched: true, links: candidates }, { page, links: links.slice(0, MAX_LINKS_RECORDED), body });
}
