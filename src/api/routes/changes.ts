import { Hono } from 'hono';
import { z } from 'zod';
import { CHANGE_KINDS } from '../../domain/crawl/reach';
import { listChanges } from '../../storage/d1/changes';
import { ApiError } from '../errors';
import { nextCursor } from '../keyset';
import type { CrawlEnv } from '../load-crawl';
import { json, routeDoc } from '../openapi/route-doc';
import { changeQueryFor, NOT_A_RECRAWL } from '../recrawl';
import { changeListSchema, errorSchema } from '../responses';
import { keyCursorSchema } from '../schemas';
import { parseCursor, queryInput } from '../validate';

const changesQuerySchema = z
  .object({
    kind: z
      .enum(CHANGE_KINDS)
      .optional()
      .describe(
        'Only pages of this kind; without it, what changed: new, changed and gone (not unchanged, unreached, unreachedBefore).',
      ),
    limit: z.coerce.number().int().min(1).max(1000).default(100),
    cursor: z.string().max(4096).optional(),
  })
  .strict();

/** What changed in a recrawl since the crawl before it: pages new, changed, unchanged, gone, and those not compared. */
export const changesRoutes = new Hono<CrawlEnv>().get(
  '/:id/changes',
  routeDoc({
    summary: 'What changed since the previous crawl',
    description:
      "A recrawl's pages (a schedule's runs, a crawl with previousCrawlId) by kind, in URL order: new, changed and unchanged as this crawl found them (by the extracted content's hash when the crawl extracts, else its main text's); gone: stored by the previous crawl, and its URL answered 404, 410, 301 or 308, or no page this crawl fetched links to it (only when this crawl followed every link it found); unreached: stored by the previous crawl, not reached by this one (maxPages, maxDepth, cancel, a failure), which is not gone; unreachedBefore: stored now, not reached by the previous crawl, which is not new. `provisional` while a crawl of the two runs.",
    tag: 'Pages',
    responses: {
      200: json('Pages and how they changed', changeListSchema),
      409: json('The crawl is not a recrawl', errorSchema),
    },
  }),
  queryInput(changesQuerySchema),
  async (c) => {
    const crawl = c.var.crawl;
    const change = await changeQueryFor(c.env, crawl);
    if (change === null) throw new ApiError(409, 'not_a_recrawl', NOT_A_RECRAWL);
    const query = c.req.valid('query');
    const changes = await listChanges(c.env.DB, {
      ...change,
      kinds: query.kind ? [query.kind] : ['new', 'changed', 'gone'],
      afterUrl: parseCursor(query.cursor, keyCursorSchema) ?? '',
      limit: query.limit,
    });
    return c.json({
      previousCrawlId: change.previousCrawlId,
      provisional: change.provisional,
      changes,
      cursor: nextCursor(changes, query.limit, (last) => last.url),
    });
  },
);
