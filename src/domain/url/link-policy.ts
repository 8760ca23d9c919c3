import { compileFilters } from './patterns';
import { compileScope, type Scope } from './scope';
import { stripSessionParams } from './session-params';

/** What a crawl's link policy is made of (a crawl config has it). */
export interface PolicyRules {
  seeds: string[];
  scope: Scope;
  include: string[];
  exclude: string[];
  maxDepth: number | null;
}

/** Decides whether a discovered URL at a given depth belongs to the crawl. */
export type LinkPolicy = (url: string, depth: number) => boolean;

/** Sitemap URLs (from robots.txt, /sitemap.xml or an index) need only be in scope: patterns and depth are for pages. */
export function compileSitemapPolicy<C extends PolicyRules>(config: C): (url: string) => boolean {
  return compileScope(config.scope, config.seeds);
}

export function compileLinkPolicy<C extends PolicyRules>(config: C): LinkPolicy {
  const inScope = compileScope(config.scope, config.seeds);
  const passes = compileFilters(config.include, config.exclude);
  return (url, depth) => (config.maxDepth === null || depth <= config.maxDepth) && inScope(url) && passes(url);
}

/** The URL without its query string (and fragment). */
function withoutQuery(url: string): string {
  const cut = url.search(/[?#]/);
  return cut === -1 ? url : url.slice(0, cut);
}

/**
 * What a crawl does to every URL it finds before it is checked and offered: its query cut off with ignoreQuery (URLs
 * that differ only by it are one page), else session ids and tracking parameters stripped (session-params.ts), unless
 * the crawl turned its sessionParams trap rule off.
 */
export function compileUrlCleaner(config: {
  traps: { sessionParams: boolean };
  ignoreQuery?: boolean;
}): (url: string) => string {
  if (config.ignoreQuery) return withoutQuery;
  return config.traps.sessionParams ? stripSessionParams : (url) => url;
}
