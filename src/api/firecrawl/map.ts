import { Hono } from 'hono';
import { z } from 'zod';
import { ignoredWarning, joinWarnings } from '../../domain/firecrawl/ignored';
import type { FirecrawlVersion } from '../../domain/firecrawl/scrape-options';
import { mapSite } from '../../jobs/map';
import { badRequest } from '../errors';
import { MAX_BODY_BYTES, mapSchema } from '../schemas';
import { assertRequestAllowed, describeIssues, jsonInput, limitBody } from '../validate';
import { withTimeout } from './timeout';

const mapRequestSchema = z.looseObject({
  url: z.string().max(8192),
  search: z.string().max(200).optional(),
  sitemap: z.enum(['include', 'skip', 'only']).optional(),
  ignoreSitemap: z.boolean().optional(),
  sitemapOnly: z.boolean().optional(),
  includeSubdomains: z.boolean().optional(),
  ignoreQueryParameters: z.boolean().optional(),
  limit: z.number().int().min(1).max(100_000).optional(),
  timeout: z.number().int().min(1).optional(),
});
type MapRequest = z.output<typeof mapRequestSchema>;
const MAP_KEYS = new Set(Object.keys(mapRequestSchema.shape));

/** Firecrawl's map request as edgecrawl's (checked by its schema). */
function edgecrawlMap(request: MapRequest) {
  const sitemap = request.sitemap ?? (request.sitemapOnly ? 'only' : request.ignoreSitemap ? 'skip' : 'include');
  const parsed = mapSchema.safeParse({
    url: request.url,
    limit: request.limit ?? 5000,
    ...(request.search ? { search: request.search } : {}),
    scope: request.includeSubdomains === false ? 'same-host' : 'same-domain',
    sitemaps: sitemap !== 'skip',
    links: sitemap !== 'only',
  });
  if (!parsed.success) throw badRequest(`invalid request: ${describeIssues(parsed.error)}`);
  return parsed.data;
}

/** URLs once each by their URL without its query (Firecrawl's ignoreQueryParameters, its default). */
function withoutQueries<T extends { url: string }>(entries: T[]): T[] {
  const seen = new Set<string>();
  return entries.filter(({ url }) => {
    const key = url.replace(/[?#].*$/, '');
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** POST /map: the site's URLs (/v2: `{url, title?}` objects; /v1: strings). */
export const mapRoute = (version: FirecrawlVersion) =>
  new Hono<{ Bindings: Env }>().post('/', limitBody(MAX_BODY_BYTES), jsonInput(mapRequestSchema), async (c) => {
    const request = c.req.valid('json');
    const map = edgecrawlMap(request);
    assertRequestAllowed(c.env, { seeds: [map.url], webhook: null });
    const result = await withTimeout(mapSite(c.env, map), request.timeout ?? null);
    const found = request.ignoreQueryParameters === false ? result.urls : withoutQueries(result.urls);
    const links =
      version === 1
        ? found.map((u) => u.url)
        : found.map((u) => ({ url: u.url, ...(u.title ? { title: u.title } : {}) }));
    const warning = joinWarnings([...result.warnings, ignoredWarning(request, MAP_KEYS)]);
    return c.json({ success: true as const, links, ...(warning ? { warning } : {}) });
  });
