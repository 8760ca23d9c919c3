import { compileFilters } from './patterns';
import { compileScope } from './scope';
import type { CrawlConfig } from '../types';

/** Decides whether a discovered URL at a given depth belongs to the crawl. */
export type LinkPolicy = (url: string, depth: number) => boolean;

/** Sitemap URLs (from robots.txt, /sitemap.xml or an index) need only be in scope: patterns and depth are for pages. */
export function compileSitemapPolicy(config: CrawlConfig): (url: string) => boolean {
  return compileScope(config.scope, config.seeds);
}

export function compileLinkPolicy(config: CrawlConfig): LinkPolicy {
  const inScope = compileScope(config.scope, config.seeds);
  const passes = compileFilters(config.include, config.exclude);
  return (url, depth) => (config.maxDepth === null || depth <= config.maxDepth) && inScope(url) && passes(url);
}
