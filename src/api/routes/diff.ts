import { Hono } from 'hono';
import { z } from 'zod';
import { normalizeUrl } from '../../domain/url/normalize';
import { changeKindOf } from '../../storage/d1/changes';
import type { CrawlRow } from '../../storage/d1/crawls';
import { diffPage } from '../../storage/page-diff';
import { ApiError, badRequest, notFound } from '../errors';
import type { CrawlEnv } from '../load-crawl';
import { json, routeDoc } from '../openapi/route-doc';
import { changeQueryFor, NOT_A_RECRAWL, reachNow } from '../recrawl';
import { diffSchema, errorSchema } from '../responses';
import { queryInput } from '../validate';

const diffQuerySchema = z
  .object({
    url: z.string().min(1).max(8192),
    format: z.enum(['markdown', 'text']).default('markdown').describe('The output compared, line by line.'),
  })
  .strict();

/** A page only one of the two crawls reached: no diff (it would read as all deleted, or all added). */
async function notCompared(env: Env, crawl: CrawlRow, url: string, kind: 'unreached' | 'unreachedBefore') {
  const content = (id: string) => `GET /v1/crawls/${id}/content?url=${encodeURIComponent(url)}`;
  if (kind === 'unreachedBefore')
    return new ApiError(
      409,
      'not_compared',
      `the previous crawl did not reach ${url}, so there is nothing to compare it with (it is not known to be new): this crawl's version is at ${content(crawl.id)}`,
    );
  const { cuts } = await reachNow(env, crawl);
  const why = cuts.length > 0 ? ` (this crawl's reach: ${cuts.join(', ')})` : '';
  return new ApiError(
    409,
    'not_compared',
    `this crawl did not reach ${url}${why}, so there is nothing to compare it with: it is not gone. The previous crawl's version is at ${content(String(crawl.config.recrawlOf))}`,
  );
}

/** A page of a recrawl against the previous crawl's: a unified diff of its markdown (or text), and its fields. */
export const diffRoutes = new Hono<CrawlEnv>().get(
  '/:id/diff',
  routeDoc({
    summary: "A page's diff against the previous crawl",
    description:
      "The unified diff (`diff -u`) of the page's extracted markdown or text, as the previous crawl stored it and as this one did, and the declared fields whose value changed. For a recrawl (a schedule's runs).",
    tag: 'Pages',
    responses: {
      200: json('The diff', diffSchema),
      409: json(
        'The crawl is not a recrawl, or only one of the two crawls reached the page (unreached, unreachedBefore)',
        errorSchema,
      ),
    },
  }),
  queryInput(diffQuerySchema),
  async (c) => {
    const crawl = c.var.crawl;
    const { url: raw, format } = c.req.valid('query');
    const url = normalizeUrl(raw);
    if (url === null) throw badRequest('url must be an absolute http(s) URL');
    const change = await changeQueryFor(c.env, crawl);
    const previousCrawlId = change?.previousCrawlId ?? null;
    if (change === null || previousCrawlId === null) throw new ApiError(409, 'not_a_recrawl', NOT_A_RECRAWL);
    const kind = await changeKindOf(c.env.DB, change, url);
    if (kind === null)
      throw notFound(
        `${url} is no page of this recrawl: neither crawl stored it as a page of its own (or it is a duplicate)`,
      );
    if (kind === 'unreached' || kind === 'unreachedBefore') throw await notCompared(c.env, crawl, url, kind);
    const diff = await diffPage(c.env.DB, c.env.BODIES, { crawlId: crawl.id, previousCrawlId, url, format, kind });
    if (diff === 'missing') throw notFound(`no record of ${url} in this crawl or the previous one`);
    if (diff === 'no-format') throw notFound(`no ${format} of ${url}: the crawl's extract.formats does not include it`);
    return c.json({ url, previousCrawlId, format, ...diff });
  },
);
