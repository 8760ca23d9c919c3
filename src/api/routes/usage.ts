import { Hono } from 'hono';
import { estimateCost } from '../../domain/crawl/usage';
import { notFound } from '../errors';
import type { CrawlEnv } from '../load-crawl';
import { json, routeDoc } from '../openapi/route-doc';
import { usageSchema } from '../responses';

/**
 * What a crawl has cost so far: the billed operations counted where they happened (the consumers' deliveries, acks,
 * sends, D1 results, R2 calls and host-gate calls; the crawl's Durable Object's own requests and SQLite rows), the
 * bytes it wrote to R2, and their price (src/domain/crawl/usage.ts). Reading the crawl through the API is not counted.
 */
export const usageRoutes = new Hono<CrawlEnv>().get(
  '/:id/usage',
  routeDoc({
    summary: 'What a crawl has cost so far',
    description: 'Billed operations counted where they happened, bytes written to R2, and their price in US dollars.',
    tag: 'Stats',
    responses: { 200: json('Usage', usageSchema) },
  }),
  async (c) => {
    const crawl = c.var.crawl;
    const counted = await c.env.CRAWL.getByName(crawl.id).usage();
    if (!counted) throw notFound(`no crawl with id ${JSON.stringify(crawl.id)}`);
    const { fetched, usage } = counted;
    return c.json({
      id: crawl.id,
      pages: fetched,
      operations: usage.operations,
      /** Pages sent to a browser (docs/rendering.md); their browser time is operations.browserSeconds. */
      renders: usage.renders,
      storage: { r2Bytes: usage.r2Bytes },
      /** The language model's work (formats json and summary, docs/models.md); its dollars are estimate.breakdown.model. */
      model: usage.model,
      estimate: estimateCost(usage, fetched),
    });
  },
);
