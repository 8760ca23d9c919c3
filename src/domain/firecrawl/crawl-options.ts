import { z } from 'zod';
import { pathOf } from '../url/patterns';
import type { FirecrawlFormats } from './formats';
import { givesCredentials, type HeaderCredentials } from './headers';
import { ignoredWarning } from './ignored';
import {
  type FirecrawlVersion,
  SCRAPE_KEYS,
  scrapeOptionsSchema,
  type Translated,
  translateScrape,
} from './scrape-options';
import {
  type FirecrawlEventName,
  type FirecrawlWebhookInput,
  firecrawlEventsOf,
  webhookInputSchema,
  webhookOf,
} from './webhook-options';

/** Firecrawl's crawl request (/v2, and /v1's older names), the keys edgecrawl reads; the rest are named as ignored. */
export const crawlRequestSchema = z.looseObject({
  url: z.string().max(8192),
  limit: z.number().int().min(1).optional(),
  maxDiscoveryDepth: z.number().int().min(0).optional(),
  maxDepth: z.number().int().min(0).optional(),
  includePaths: z.array(z.string().max(1000)).max(100).optional(),
  excludePaths: z.array(z.string().max(1000)).max(100).optional(),
  regexOnFullURL: z.boolean().optional(),
  crawlEntireDomain: z.boolean().optional(),
  allowBackwardLinks: z.boolean().optional(),
  allowExternalLinks: z.boolean().optional(),
  allowSubdomains: z.boolean().optional(),
  sitemap: z.enum(['include', 'skip', 'only']).optional(),
  ignoreSitemap: z.boolean().optional(),
  ignoreQueryParameters: z.boolean().optional(),
  deduplicateSimilarURLs: z.boolean().optional(),
  delay: z.number().min(0).max(60).optional(),
  maxConcurrency: z.number().int().min(1).optional(),
  webhook: webhookInputSchema.optional(),
  scrapeOptions: scrapeOptionsSchema.optional(),
});
export type CrawlRequestInput = z.output<typeof crawlRequestSchema>;

const CRAWL_KEYS = new Set(Object.keys(crawlRequestSchema.shape));
/** Firecrawl's default page limit of a crawl. */
const DEFAULT_LIMIT = 10_000;

/** A crawl as edgecrawl takes it (checked by its own schema), with what Firecrawl's documents carry. */
export interface CrawlTranslation {
  settings: Record<string, unknown>;
  formats: FirecrawlFormats;
  warnings: string[];
  /** Firecrawl's webhook events asked for (null: all), kept with the job (its ending: crawl.completed or crawl.failed). */
  events: FirecrawlEventName[] | null;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** includePaths and excludePaths as edgecrawl patterns: against the path, or the whole URL with regexOnFullURL. */
function pathPatterns(request: CrawlRequestInput): { include: string[]; exclude: string[] } {
  const kind = request.regexOnFullURL ? 're:' : 'path:';
  const include = (request.includePaths ?? []).map((p) => kind + p);
  const exclude = (request.excludePaths ?? []).map((p) => kind + p);
  // Without crawlEntireDomain (v1: allowBackwardLinks), only paths under the start URL's are followed (a file's:
  // under its folder's).
  const entire = request.crawlEntireDomain ?? request.allowBackwardLinks ?? false;
  const path = pathOf(request.url);
  const start = /\/[^/]*\.[^/]*$/.test(path) ? path.replace(/[^/]*$/, '') : path;
  if (!entire && start !== '/') exclude.push(`path:^(?!${escapeRegExp(start)})`);
  // v1's maxDepth counts the path's segments below the start URL's.
  if (request.maxDepth !== undefined) {
    const segments = start.split('/').filter((s) => s !== '').length + request.maxDepth;
    exclude.push(`path:^(?:/[^/]+){${segments + 1},}`);
  }
  return { include, exclude };
}

function scopeOf(request: CrawlRequestInput): 'any' | 'same-domain' | 'same-host' {
  if (request.allowExternalLinks) return 'any';
  return request.allowSubdomains ? 'same-domain' : 'same-host';
}

/**
 * What a crawl that leaves its start host is told of its headers: edgecrawl sends them to that host alone (Firecrawl
 * to every page), so that a link or a redirect elsewhere never gets them.
 */
function credentialsWarning(credentials: HeaderCredentials, scope: string, url: string): string | null {
  if (scope === 'same-host' || !givesCredentials(credentials)) return null;
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return null;
  }
  return `headers are sent to ${host} only, not to the other hosts the crawl reaches`;
}

/** Settings of the crawl other than its scope and extraction: pacing, sitemaps, duplicates, query strings. */
function crawlSettings(request: CrawlRequestInput, hostFloorMs: number, warnings: string[]) {
  const sitemap = request.sitemap ?? (request.ignoreSitemap ? 'skip' : 'include');
  const delayMs = request.delay === undefined ? null : Math.round(request.delay * 1000);
  if (delayMs !== null && delayMs < hostFloorMs)
    warnings.push(`delay raised to ${hostFloorMs / 1000} s, this deployment's least gap between requests to a host`);
  return {
    sitemaps: sitemap !== 'skip',
    // "only": the start page and the pages its sitemaps list, no page's links followed.
    links: sitemap !== 'only',
    // URLs that differ only by their query are one: each is crawled once, without it.
    ignoreQuery: request.ignoreQueryParameters === true,
    hostIntervalMs: delayMs === null ? null : Math.max(delayMs, hostFloorMs),
    hostConcurrency: request.maxConcurrency === undefined ? null : Math.min(request.maxConcurrency, 256),
    duplicates: request.deduplicateSimilarURLs === false ? 'keep' : 'similar',
  };
}

/** A Firecrawl crawl request as an edgecrawl crawl. `hostFloorMs`: the deployment's least gap between requests. */
export function translateCrawl(
  request: CrawlRequestInput,
  version: FirecrawlVersion,
  hostFloorMs: number,
): Translated<CrawlTranslation> {
  const scrape = translateScrape(request.scrapeOptions ?? {}, version);
  if (!scrape.ok) return scrape;
  const { extract, render, waitFor, actions, maxAge } = scrape.value.scrape;
  if (actions.length > 0) return { ok: false, message: 'scrapeOptions.actions: a crawl does no actions (scrape does)' };
  const warnings = [...scrape.value.warnings];
  const ignored = ignoredWarning(request, CRAWL_KEYS);
  if (ignored) warnings.push(ignored);
  const { credentials } = scrape.value;
  const scope = scopeOf(request);
  const elsewhere = credentialsWarning(credentials, scope, request.url);
  if (elsewhere) warnings.push(elsewhere);
  const { include, exclude } = pathPatterns(request);
  const webhook = request.webhook === undefined ? null : webhookOf(request.webhook);
  const maxDepth = request.maxDiscoveryDepth ?? null;
  const settings = {
    seeds: [request.url],
    scope,
    include,
    exclude,
    maxDepth,
    maxPages: request.limit ?? DEFAULT_LIMIT,
    ...crawlSettings(request, hostFloorMs, warnings),
    webhook,
    extract,
    render,
    waitFor,
    maxAge: maxAge === 0 ? null : maxAge,
    ...credentials,
  };
  const events = firecrawlEventsOf(request.webhook);
  return { ok: true, value: { settings, formats: scrape.value.formats, warnings, events } };
}

/** Firecrawl's batch scrape: the URLs as the seeds of a crawl that follows no link. */
export function translateBatch(
  request: { urls: string[]; webhook?: FirecrawlWebhookInput; maxConcurrency?: number } & Record<string, unknown>,
  version: FirecrawlVersion,
): Translated<CrawlTranslation> {
  const options = scrapeOptionsSchema.safeParse(request);
  if (!options.success) return { ok: false, message: options.error.issues[0]?.message ?? 'invalid scrape options' };
  const handled = new Set([...SCRAPE_KEYS, 'webhook', 'maxConcurrency', 'ignoreInvalidURLs', 'appendToId']);
  const scrape = translateScrape(options.data, version, handled);
  if (!scrape.ok) return scrape;
  const { extract, render, waitFor, actions, maxAge } = scrape.value.scrape;
  if (actions.length > 0) return { ok: false, message: 'actions: a batch scrape does no actions (scrape does)' };
  const settings = {
    seeds: request.urls,
    scope: 'any',
    maxDepth: 0,
    maxPages: request.urls.length,
    hostConcurrency: request.maxConcurrency === undefined ? null : Math.min(request.maxConcurrency, 256),
    webhook: request.webhook === undefined ? null : webhookOf(request.webhook),
    extract,
    render,
    waitFor,
    maxAge: maxAge === 0 ? null : maxAge,
    ...scrape.value.credentials,
  };
  const { formats, warnings } = scrape.value;
  return { ok: true, value: { settings, formats, warnings, events: firecrawlEventsOf(request.webhook) } };
}
