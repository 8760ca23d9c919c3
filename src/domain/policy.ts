import { compileFilters } from './patterns';
import { compileScope } from './scope';
import type { CrawlConfig } from '../crawl/types';

/** Decides whether a discovered URL at a given depth belongs to the crawl. */
export type LinkPolicy = (url: string, depth: number) => boolean;

export function compileLinkPolicy(config: CrawlConfig): LinkPolicy {
  const inScope = compileScope(config.scope, config.seeds);
  const passes = compileFilters(config.include, config.exclude);
  return (url, depth) => (config.maxDepth === null || depth <= config.maxDepth) && inScope(url) && passes(url);
}
