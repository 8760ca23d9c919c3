import type { MiddlewareHandler } from 'hono';
import { type CrawlRow, getCrawl } from '../storage/d1/crawls';
import { notFound } from './errors';
import { crawlIdSchema } from './schemas';

/** Routes of one crawl (`/v1/crawls/:id/...`) find it loaded on `c.var.crawl`. */
export type CrawlEnv = { Bindings: Env; Variables: { crawl: CrawlRow } };

/** Loads the crawl a `:id` path parameter names; a malformed or unknown id is a 404. */
export const loadCrawl: MiddlewareHandler<CrawlEnv> = async (c, next) => {
  const rawId = c.req.param('id') ?? '';
  const id = crawlIdSchema.safeParse(rawId);
  const crawl = id.success ? await getCrawl(c.env.DB, id.data) : null;
  if (!crawl) throw notFound(`no crawl with id ${JSON.stringify(rawId.slice(0, 100))}`);
  c.set('crawl', crawl);
  await next();
};
