import { Hono } from 'hono';
import { allowedMethods } from './allowed-methods';
import { bearerAuth } from './auth';
import { errorBody, renderError } from './errors';
import { divertFirecrawl, firecrawlApp } from './firecrawl/app';
import { isFirecrawlPath, renderFirecrawlError } from './firecrawl/errors';
import { type CrawlEnv, loadCrawl } from './load-crawl';
import { mcpRoutes } from './mcp/route';
import { checkResponses } from './openapi/check';
import { bytes, json, routeDoc } from './openapi/route-doc';
import { ApiDescription } from './openapi/serve';
import { healthSchema } from './responses';
import { changesRoutes } from './routes/changes';
import { crawls } from './routes/crawls';
import { diffRoutes } from './routes/diff';
import { exportRoutes } from './routes/exports';
import { llmsRoutes } from './routes/llms';
import { mapRoutes } from './routes/map';
import { pages } from './routes/pages';
import { schedules } from './routes/schedules';
import { scrapeRoutes } from './routes/scrape';
import { stats } from './routes/stats';
import { usageRoutes } from './routes/usage';
import { validateRoutes } from './routes/validate';

/** The routes, chained so that their types reach `AppType` (and through it `hc<AppType>`, the typed client). */
function routes(firecrawl: ReturnType<typeof firecrawlApp>) {
  // Every route of one crawl finds it loaded (an unknown id is a 404 before anything else is read).
  const crawlApi = new Hono<CrawlEnv>()
    .use('/:id/*', loadCrawl)
    .route('/', crawls)
    .route('/', pages)
    .route('/', stats)
    .route('/', usageRoutes)
    .route('/', exportRoutes)
    .route('/', llmsRoutes)
    .route('/', changesRoutes)
    .route('/', diffRoutes);
  return (
    new Hono<{ Bindings: Env }>()
      .use(checkResponses(() => description.documentedRoutes))
      .get(
        '/v1/health',
        routeDoc({ summary: 'Health', tag: 'Meta', public: true, responses: { 200: json('Up', healthSchema) } }),
        (c) => c.json({ ok: true as const }),
      )
      .get(
        '/v1/openapi.json',
        routeDoc({
          summary: 'This API as an OpenAPI 3.1 document',
          description:
            'Generated from the schemas that validate each request and answer. The reference page is /reference.',
          tag: 'Meta',
          public: true,
          responses: { 200: bytes('The document', 'application/json') },
        }),
        (c) => c.json(description.openApi),
      )
      .use(
        '/v1/*',
        bearerAuth((env) => env.API_TOKEN),
      )
      // A body of Firecrawl's v1 scrape or map (a key edgecrawl's has not) is answered by Firecrawl's API.
      .use('/v1/scrape', divertFirecrawl(firecrawl))
      .use('/v1/map', divertFirecrawl(firecrawl))
      // Before the crawls' routes: /v1/crawls/validate is not a crawl id.
      .route('/v1', validateRoutes)
      .route('/v1/crawls', crawlApi)
      .route('/v1/schedules', schedules)
      .route('/v1/scrape', scrapeRoutes)
      .route('/v1/map', mapRoutes)
  );
}

/** What the OpenAPI document and the response check read of the app's routes. */
const description = new ApiDescription();

export function createApp() {
  const firecrawl = firecrawlApp();
  const app = routes(firecrawl);
  // The MCP server (not part of AppType): its tools call the routes above through the app itself.
  app.route(
    '/mcp',
    mcpRoutes((request, env, ctx) => app.fetch(request, env, ctx)),
  );
  // A copy: the routes mounted below are not documented (Firecrawl's are its own API, docs/firecrawl.md).
  description.describe([...app.routes]);
  // Firecrawl's API (/v2, and Firecrawl's /v1 routes): not part of AppType nor of the OpenAPI document.
  app.route('/', firecrawl);
  // On Firecrawl's paths (a token refused before their routes were reached), errors in Firecrawl's shape.
  app.onError((err, c) => (isFirecrawlPath(c.req.path) ? renderFirecrawlError(err, c) : renderError(err, c)));
  app.notFound((c) => {
    const allowed = allowedMethods(app.routes, c.req.path);
    if (allowed.length === 0) return c.json(errorBody('not_found', `no route for ${c.req.method} ${c.req.path}`), 404);
    c.header('Allow', allowed.join(', '));
    const message = `${c.req.method} is not allowed on ${c.req.path}; allowed: ${allowed.join(', ')}`;
    return c.json(errorBody('method_not_allowed', message), 405);
  });
  return app;
}

/** The API's type: `hc<AppType>(url)` from `hono/client` is a client whose requests and answers are typed. */
export type AppType = ReturnType<typeof routes>;
