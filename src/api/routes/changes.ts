import { Hono } from 'hono';
import { z } from 'zod';
import { type ChangeKind, listChanges } from '../../storage/d1/pages';
import { ApiError } from '../errors';
import { nextCursor } from '../keyset';
import type { CrawlEnv } from '../load-crawl';
import { json, routeDoc } from '../openapi/route-doc';
import { changeListSchema, errorSchema } from '../responses';
import { keyCursorSchema } from '../schemas';
import { parseCursor, queryInput } from '../validate';

const KINDS = ['new', 'changed', 'unchanged', 'gone'] as const satisfies readonly ChangeKind[];

const changesQuerySchema = z
  .object({
    kind: z
      .enum(KINDS)
      .optional()
      .describe('Only pages of this kind; without it, what changed: new, changed and gone (not unchanged).'),
    limit: z.coerce.number().int().min(1).max(1000).default(100),
    cursor: z.string().max(4096).optional(),
  })
  .strict();

/** What changed in a recrawl since the crawl before it: pages new, changed, unchanged and gone. */
export const changesRoutes = new Hono<CrawlEnv>().get(
  '/:id/changes',
  routeDoc({
    summary: 'What changed since the previous crawl',
    description:
      "A recrawl's pages (a schedule's runs) by how they changed, in URL order: new, changed and unchanged as this crawl found them (by the extracted content's hash when the crawl extracts, else the body's), gone: stored by the previous crawl, not by this one.",
    tag: 'Pages',
    responses: {
      200: json('Pages and how they changed', changeListSchema),
      409: json('The crawl is not a recrawl', errorSchema),
    },
  }),
  queryInput(changesQuerySchema),
  async (c) => {
    const crawl = c.var.crawl;
    const { recrawlOf } = crawl.config;
    if (recrawlOf === undefined)
      throw new ApiError(409, 'not_a_recrawl', 'the crawl is not a recrawl: changes are counted for a schedule’s runs');
    const query = c.req.valid('query');
    const previousCrawlId = typeof recrawlOf === 'string' ? recrawlOf : null;
    const changes = await listChanges(c.env.DB, {
      crawlId: crawl.id,
      previousCrawlId,
      kinds: query.kind ? [query.kind] : ['new', 'changed', 'gone'],
      afterUrl: parseCursor(query.cursor, keyCursorSchema) ?? '',
      limit: query.limit,
    });
    return c.json({ previousCrawlId, changes, cursor: nextCursor(changes, query.limit, (last) => last.url) });
  },
);
