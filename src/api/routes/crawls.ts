import { Hono } from 'hono';
import { z } from 'zod';
import { encodeCursor } from '../../domain/cursor';
import { normalizeUrl } from '../../domain/normalize';
import { enqueueTasks } from '../../queues/frontier';
import type { CrawlConfig } from '../../types';
import { startCrawl, CrawlStartError } from '../../jobs/start';
import { listCrawls } from '../../storage/d1/crawls';
import { requireCrawl } from '../load-crawl';
import { changeCounts, getPageBodyKey, listPages, listRecentPages } from '../../storage/d1/pages';
import { ApiError, badRequest, notFound } from '../errors';
import { deleteErrors, listErrors } from '../../storage/d1/errors';
import { MAX_BODY_BYTES, contentQuerySchema, createCrawlSchema, errorListQuerySchema, pageListQuerySchema, retryErrorsSchema } from '../schemas';
import { assertRequestAllowed, jsonBody, limitBody, parseCursor, parseWith, presentConfig } from '../validate';

type AppEnv = { Bindings: Env };


const crawlListQuerySchema = z
  .object({ limit: z.coerce.number().int().min(1).max(1000).default(50), cursor: z.string().max(4096).optional() })
  .strict();
const crawlCursorSchema = z.object({ c: z.number().int(), i: z.string() }).strict();
const recentCursorSchema = z.object({ t: z.number().int(), u: z.string().min(1) }).strict();



export const crawls = new Hono<AppEnv>()
  .post('/', limitBody(MAX_BODY_BYTES), async (c) => {
    const config: CrawlConfig = await jsonBody(c, createCrawlSchema);
    assertRequestAllowed(c.env, config);
    try {
      const id = await startCrawl(c.env, config);
      return c.json({ id, status: 'running' as const }, 201);
    } catch (error) {
      if (error instanceof CrawlStartError) throw new ApiError(503, 'unavailable', error.message);
      throw error;
    }
  })
  .get('/', async (c) => {
    const query = parseWith(crawlListQuerySchema, c.req.query(), 'query');
    const after = parseCursor(query.cursor, crawlCursorSchema);
    const rows = await listCrawls(c.env.DB, query.limit, after ? { createdAt: after.c, id: after.i } : null);
    const last = rows.at(-1);
    return c.json({
      crawls: rows.map((r) => ({ id: r.id, status: r.status, seeds: r.config.seeds, createdAt: new Date(r.createdAt).toISOString() })),
      cursor: rows.length === query.limit && last ? encodeCursor({ c: last.createdAt, i: last.id }) : null,
    });
  })
  .get('/:id', async (c) => {
    const crawl = await requireCrawl(c.env, c.req.param('id'));
    const snapshot = await c.env.CRAWL.getByName(crawl.id).snapshot();
    if (!snapshot) throw notFound(`no crawl with id ${JSON.stringify(crawl.id)}`);
    const changes = crawl.config.recrawlOf === undefined ? {} : { changes: await changeCounts(c.env.DB, crawl.id, typeof crawl.config.recrawlOf === 'string' ? crawl.config.recrawlOf : null) };
    return c.json({
      id: crawl.id,
      status: snapshot.status,
      counts: snapshot.counts,
      ...changes,
      pending: snapshot.pending,
      config: presentConfig(crawl.config),
      createdAt: new Date(crawl.createdAt).toISOString(),
    });
  })
  .delete('/:id', async (c) => {
    const crawl = await requireCrawl(c.env, c.req.param('id'));
    const snapshot = await c.env.CRAWL.getByName(crawl.id).cancel();
    if (!snapshot) throw notFound(`no crawl with id ${JSON.stringify(crawl.id)}`);
    return c.json({ id: crawl.id, status: snapshot.status, counts: snapshot.counts });
  })
  .get('/:id/pages', async (c) => {
    const crawl = await requireCrawl(c.env, c.req.param('id'));
    const query = parseWith(pageListQuerySchema, c.req.query(), 'query');
    if (query.order === 'recent') {
      const after = parseCursor(query.cursor, recentCursorSchema);
      const rows = await listRecentPages(c.env.DB, crawl.id, query.limit, after);
      const last = rows.at(-1);
      return c.json({ pages: rows.map(({ cursor: _cursor, ...page }) => page), cursor: rows.length === query.limit && last ? encodeCursor(last.cursor) : null });
    }
    const after = parseCursor(query.cursor, z.string().min(1));
    const pages = await listPages(c.env.DB, crawl.id, query.limit, after);
    const last = pages.at(-1);
    return c.json({ pages, cursor: pages.length === query.limit && last ? encodeCursor(last.url) : null });
  })
  .get('/:id/errors', async (c) => {
    const crawl = await requireCrawl(c.env, c.req.param('id'));
    const query = parseWith(errorListQuerySchema, c.req.query(), 'query');
    const after = parseCursor(query.cursor, z.string().min(1));
    const errors = await listErrors(c.env.DB, crawl.id, query.limit, after, query.outcome ?? null);
    const last = errors.at(-1);
    return c.json({ errors, cursor: errors.length === query.limit && last ? encodeCursor(last.url) : null });
  })
  .post('/:id/retry-errors', limitBody(MAX_BODY_BYTES), async (c) => {
    const crawl = await requireCrawl(c.env, c.req.param('id'));
    const raw = await c.req.text();
    const request = raw.trim() === '' ? retryErrorsSchema.parse({}) : await jsonBody(c, retryErrorsSchema);
    const result = await c.env.CRAWL.getByName(crawl.id).retryFailed(request.limit, request.urls);
    if (!result) throw notFound(`no crawl with id ${JSON.stringify(crawl.id)}`);
    if (result.status === 'cancelled') throw new ApiError(409, 'conflict', 'the crawl was cancelled; start a new one');
    const retried = result.entries.map((e) => e.url);
    await deleteErrors(c.env.DB, crawl.id, retried);
    // If this send fails the URLs stay queued in the Durable Object and its sweeper re-sends them.
    await enqueueTasks(c.env, crawl.id, crawl.config, result.entries);
    return c.json({ id: crawl.id, status: result.status, retried: retried.length, remaining: result.remaining });
  })
  .get('/:id/content', async (c) => {
    const crawl = await requireCrawl(c.env, c.req.param('id'));
    const query = parseWith(contentQuerySchema, c.req.query(), 'query');
    const url = normalizeUrl(query.url);
    if (url === null) throw badRequest('url must be an absolute http(s) URL');
    const page = await getPageBodyKey(c.env.DB, crawl.id, url);
    if (!page) throw notFound(`no page ${url} in this crawl`);
    if (!page.r2Key) throw notFound(`no stored body for ${url} (it was not a 2xx response)`);
    const ranged = page.bodyOffset !== null && page.bodyLength !== null;
    // A body is a byte range of its batch's segment; an empty range is not a valid R2 range read.
    if (ranged && page.bodyLength === 0) return new Response(null, { headers: { 'content-type': page.contentType ?? 'application/octet-stream', 'x-edgecrawl-url': url } });
    const object = await c.env.BODIES.get(page.r2Key, ranged ? { range: { offset: page.bodyOffset as number, length: page.bodyLength as number } } : {});
    if (!object) throw notFound(`stored body for ${url} is missing`);
    const headers = new Headers({ 'content-length': String(ranged ? page.bodyLength : object.size), 'x-edgecrawl-url': url });
    headers.set('content-type', page.contentType ?? object.httpMetadata?.contentType ?? 'application/octet-stream');
    headers.set('etag', ranged ? `"${object.etag}-${page.bodyOffset}"` : object.httpEtag);
    return new Response(object.body, { headers });
  });
