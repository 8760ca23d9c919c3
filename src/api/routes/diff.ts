import { Hono } from 'hono';
import { z } from 'zod';
import { normalizeUrl } from '../../domain/normalize';
import { diffPage } from '../../storage/page-diff';
import { ApiError, badRequest, notFound } from '../errors';
import type { CrawlEnv } from '../load-crawl';
import { json, routeDoc } from '../openapi/route-doc';
import { diffSchema, errorSchema } from '../responses';
import { queryInput } from '../validate';

const diffQuerySchema = z
  .object({
    url: z.string().min(1).max(8192),
    format: z.enum(['markdown', 'text']).default('markdown').describe('The output compared, line by line.'),
  })
  .strict();

/** A page of a recrawl against the previous crawl's: a unified diff of its markdown (or text), and its fields. */
export const diffRoutes = new Hono<CrawlEnv>().get(
  '/:id/diff',
  routeDoc({
    summary: "A page's diff against the previous crawl",
    description:
      "The unified diff (`diff -u`) of the page's extracted markdown or text, as the previous crawl stored it and as this one did, and the declared fields whose value changed. For a recrawl (a schedule's runs).",
    tag: 'Pages',
    responses: { 200: json('The diff', diffSchema), 409: json('The crawl is not a recrawl', errorSchema) },
  }),
  queryInput(diffQuerySchema),
  async (c) => {
    const crawl = c.var.crawl;
    const { url: raw, format } = c.req.valid('query');
    const url = normalizeUrl(raw);
    if (url === null) throw badRequest('url must be an absolute http(s) URL');
    const previousCrawlId = crawl.config.recrawlOf;
    if (typeof previousCrawlId !== 'string')
      throw new ApiError(409, 'not_a_recrawl', 'the crawl has no previous crawl to compare with');
    const diff = await diffPage(c.env.DB, c.env.BODIES, { crawlId: crawl.id, previousCrawlId, url, format });
    if (diff === 'missing') throw notFound(`no record of ${url} in this crawl or the previous one`);
    if (diff === 'no-format') throw notFound(`no ${format} of ${url}: the crawl's extract.formats does not include it`);
    return c.json({ url, previousCrawlId, format, ...diff });
  },
);
