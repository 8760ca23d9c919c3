import { Hono } from 'hono';
import { allowedMethods } from './allowed-methods';
import { bearerAuth } from './auth';
import { errorBody, renderError } from './errors';
import { type CrawlEnv, loadCrawl } from './load-crawl';
import { crawls } from './routes/crawls';
import { exportRoutes } from './routes/exports';
import { pages } from './routes/pages';
import { schedules } from './routes/schedules';
import { scrapeRoutes } from './routes/scrape';
import { stats } from './routes/stats';
import { usageRoutes } from './routes/usage';

export function createApp() {
  const app = new Hono<{ Bindings: Env }>();
  app.onError(renderError);
  app.notFound((c) => {
    const allowed = allowedMethods(app.routes, c.req.path);
    if (allowed.length === 0) return c.json(errorBody('not_found', `no route for ${c.req.method} ${c.req.path}`), 404);
    c.header('Allow', allowed.join(', '));
    const message = `${c.req.method} is not allowed on ${c.req.path}; allowed: ${allowed.join(', ')}`;
    return c.json(errorBody('method_not_allowed', message), 405);
  });

  app.get('/v1/health', (c) => c.json({ ok: true }));
  app.use(
    '/v1/*',
    bearerAuth((env) => env.API_TOKEN),
  );
  // Every route of one crawl finds it loaded (an unknown id is a 404 before anything else is read).
  const crawlApi = new Hono<CrawlEnv>()
    .use('/:id/*', loadCrawl)
    .route('/', crawls)
    .route('/', pages)
    .route('/', stats)
    .route('/', usageRoutes)
    .route('/', exportRoutes);
  app.route('/v1/crawls', crawlApi);
  app.route('/v1/schedules', schedules);
  app.route('/v1/scrape', scrapeRoutes);
  return app;
}
