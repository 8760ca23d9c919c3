import { Hono } from 'hono';
import { bearerAuth } from './auth';
import { errorBody, renderError } from './errors';
import { crawls } from './routes/crawls';
import { exportRoutes } from './routes/exports';
import { schedules } from './routes/schedules';
import { stats } from './routes/stats';

export function createApp() {
  const app = new Hono<{ Bindings: Env }>();
  app.onError(renderError);
  app.notFound((c) => c.json(errorBody('not_found', `no route for ${c.req.method} ${c.req.path}`), 404));

  app.get('/v1/health', (c) => c.json({ ok: true }));
  app.use('/v1/*', bearerAuth((env) => env.API_TOKEN));
  app.route('/v1/crawls', crawls);
  app.route('/v1/crawls', stats);
  app.route('/v1/crawls', exportRoutes);
  app.route('/v1/schedules', schedules);
  return app;
}
