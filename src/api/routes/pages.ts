import { Hono } from 'hono';
import { normalizeUrl } from '../../domain/normalize';
import { openBody } from '../../storage/bodies';
import { listErrors } from '../../storage/d1/errors';
import { getPageBodyKey, listPages, listRecentPages } from '../../storage/d1/pages';
import { badRequest, notFound } from '../errors';
import { nextCursor } from '../keyset';
import type { CrawlEnv } from '../load-crawl';
import { contentQuerySchema, errorListQuerySchema, keyCursorSchema, pageListQuerySchema, recentCursorSchema } from '../schemas';
import { parseCursor, queryInput } from '../validate';

/** What a crawl fetched: its pages, its errors, and each stored body. */
export const pages = new Hono<CrawlEnv>()
  .get('/:id/pages', queryInput(pageListQuerySchema), async (c) => {
    const crawl = c.var.crawl;
    const query = c.req.valid('query');
    if (query.order === 'recent') {
      const rows = await listRecentPages(c.env.DB, crawl.id, query.limit, parseCursor(query.cursor, recentCursorSchema));
      return c.json({ pages: rows.map(({ cursor: _cursor, ...page }) => page), cursor: nextCursor(rows, query.limit, (last) => last.cursor) });
    }
    const rows = await listPages(c.env.DB, crawl.id, query.limit, parseCursor(query.cursor, keyCursorSchema));
    return c.json({ pages: rows, cursor: nextCursor(rows, query.limit, (last) => last.url) });
  })
  .get('/:id/errors', queryInput(errorListQuerySchema), async (c) => {
    const crawl = c.var.crawl;
    const query = c.req.valid('query');
    const errors = await listErrors(c.env.DB, crawl.id, query.limit, parseCursor(query.cursor, keyCursorSchema), query.outcome ?? null);
    return c.json({ errors, cursor: nextCursor(errors, query.limit, (last) => last.url) });
  })
  .get('/:id/content', queryInput(contentQuerySchema), async (c) => {
    const crawl = c.var.crawl;
    const url = normalizeUrl(c.req.valid('query').url);
    if (url === null) throw badRequest('url must be an absolute http(s) URL');
    const page = await getPageBodyKey(c.env.DB, crawl.id, url);
    if (!page) throw notFound(`no page ${url} in this crawl`);
    if (!page.r2Key) throw notFound(`no stored body for ${url} (it was not a 2xx response)`);
    const stored = await openBody(c.env.BODIES, { r2Key: page.r2Key, bodyOffset: page.bodyOffset, bodyLength: page.bodyLength });
    if (!stored) throw notFound(`stored body for ${url} is missing`);
    const contentType = page.contentType ?? stored.contentType ?? 'application/octet-stream';
    if (stored.body === null) return new Response(null, { headers: { 'content-type': contentType, 'x-edgecrawl-url': url } });
    return new Response(stored.body, {
      headers: { 'content-length': String(stored.size), 'x-edgecrawl-url': url, 'content-type': contentType, etag: stored.etag },
    });
  });
