import { type Context, Hono, type MiddlewareHandler } from 'hono';
import type { FirecrawlVersion } from '../../domain/firecrawl/scrape-options';
import { bearerAuth } from '../auth';
import { batchRoutes } from './batch';
import { crawlRoutes } from './crawl';
import { notSupported, renderFirecrawlError } from './errors';
import { mapRoute } from './map';
import { FIRECRAWL_PREFIX } from './prefix';
import { scrapeRoute } from './scrape';

declare module 'hono' {
  interface ContextVariableMap {
    /** Answered by Firecrawl's API (its answers are not edgecrawl's documented ones). */
    firecrawl?: true;
  }
}

/** One version's routes: scrape, crawl, batch scrape, map. */
const versionRoutes = (version: FirecrawlVersion) =>
  new Hono<{ Bindings: Env }>()
    .route('/scrape', scrapeRoute(version))
    .route('/crawl', crawlRoutes(version))
    .route('/batch/scrape', batchRoutes(version))
    .route('/map', mapRoute(version));

/** Firecrawl's endpoints edgecrawl has no counterpart of: a 404 that says so (its clients show `error`). */
const unsupported = (c: Context) => {
  throw notSupported(`${c.req.method} ${c.req.path}`);
};

/**
 * Search, which edgecrawl has not, answered as firecrawl-mcp can show it: 200 `{success: false, error}`. Its
 * firecrawl_search turns any other status into an MCP error about its output schema (the error's fields are not the
 * schema's), so the message would not reach the user; the SDKs throw `error` on `success: false` all the same.
 */
const searchUnsupported = (c: Context) =>
  c.json({ success: false as const, error: notSupported(`${c.req.method} ${c.req.path}`).message });

/**
 * Firecrawl's API (docs/firecrawl.md): /v2, and /v1 as older integrations call it, answering as Firecrawl does
 * (`{success, ...}`; errors `{success: false, error}`), on edgecrawl's own jobs. /v1 is behind edgecrawl's bearer
 * token already (app.ts); /v2 gets the same token here. The same routes under FIRECRAWL_PREFIX (/firecrawl/v1,
 * /firecrawl/v2) are Firecrawl's whatever the body: no path there is edgecrawl's.
 */
export function firecrawlApp() {
  const token = bearerAuth((env) => env.API_TOKEN);
  const app = new Hono<{ Bindings: Env }>()
    .use('*', async (c, next) => {
      c.set('firecrawl', true);
      await next();
    })
    .use('/v2/*', token)
    .use(`${FIRECRAWL_PREFIX}/*`, token)
    .route('/v2', versionRoutes(2))
    .route('/v1', versionRoutes(1))
    .route(`${FIRECRAWL_PREFIX}/v2`, versionRoutes(2))
    .route(`${FIRECRAWL_PREFIX}/v1`, versionRoutes(1))
    .post('/v2/search', searchUnsupported)
    .post('/v1/search', searchUnsupported)
    .post(`${FIRECRAWL_PREFIX}/v2/search`, searchUnsupported)
    .post(`${FIRECRAWL_PREFIX}/v1/search`, searchUnsupported)
    .all('/v2/*', unsupported)
    .all(`${FIRECRAWL_PREFIX}/*`, unsupported)
    .all(FIRECRAWL_PREFIX, unsupported)
    .all('/v1/:what{search|extract|deep-research|llmstxt|team}/*', unsupported)
    .all('/v1/:what{search|extract|deep-research|llmstxt}', unsupported);
  app.onError(renderFirecrawlError);
  return app;
}

/**
 * Keys only Firecrawl's bodies of POST /v1/scrape and /v1/map have (its SDKs always send `origin`). Not `headers`:
 * edgecrawl's scrape takes it too (a request's credentials).
 */
const CALLER = ['origin', 'integration'];
const FIRECRAWL_KEYS: Record<string, ReadonlySet<string>> = {
  '/v1/scrape': new Set([
    ...CALLER,
    ...['onlyMainContent', 'includeTags', 'excludeTags', 'timeout', 'mobile', 'parsePDF', 'parsers'],
    ...['jsonOptions', 'changeTrackingOptions', 'skipTlsVerification', 'removeBase64Images', 'blockAds', 'proxy'],
    ...['location', 'geolocation', 'storeInCache', 'fastMode', 'zeroDataRetention'],
  ]),
  '/v1/map': new Set([
    ...CALLER,
    ...['ignoreSitemap', 'sitemapOnly', 'sitemap', 'includeSubdomains', 'ignoreQueryParameters', 'timeout'],
    ...['location', 'useIndex'],
  ]),
};

/**
 * Whether a body of POST /v1/scrape or /v1/map is Firecrawl's: a key only Firecrawl's has, or a format only it has.
 * Any other body is edgecrawl's (and an unknown key in it edgecrawl's 400).
 */
function isFirecrawlBody(path: string, body: unknown): boolean {
  const keys = FIRECRAWL_KEYS[path];
  if (!keys || !body || typeof body !== 'object' || Array.isArray(body)) return false;
  const formats = 'formats' in body && Array.isArray(body.formats) ? body.formats : [];
  const firecrawlFormat = formats.some(
    (f) => typeof f !== 'string' || ['rawHtml', 'extract', 'changeTracking'].includes(f),
  );
  return firecrawlFormat || Object.keys(body).some((key) => keys.has(key));
}

/**
 * POST /v1/scrape and /v1/map are edgecrawl's own and Firecrawl's v1 alike: a body with a key only Firecrawl's has
 * goes to Firecrawl's route (docs/firecrawl.md); the rest to edgecrawl's.
 */
export function divertFirecrawl(firecrawl: ReturnType<typeof firecrawlApp>): MiddlewareHandler<{ Bindings: Env }> {
  return async (c, next) => {
    if (c.req.method !== 'POST') return next();
    // Read from a clone: edgecrawl's route reads the body itself (its size limit, then its schema).
    const text = await c.req.raw.clone().text();
    let body: unknown = null;
    try {
      body = JSON.parse(text);
    } catch {
      return next();
    }
    if (!isFirecrawlBody(c.req.path, body)) return next();
    c.set('firecrawl', true);
    const request = new Request(c.req.url, { method: 'POST', headers: c.req.raw.headers, body: text });
    return firecrawl.fetch(request, c.env, executionCtxOf(c));
  };
}

/** The invocation's context, when there is one (an app.fetch from a test may have none). */
function executionCtxOf(c: Context) {
  try {
    return c.executionCtx;
  } catch {
    return undefined;
  }
}
