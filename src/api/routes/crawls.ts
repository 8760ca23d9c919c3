import { Hono } from 'hono';
import { z } from 'zod';
import { configOf } from '../../credentials';
import { accessReport } from '../../domain/credentials/access-report';
import { purgeCrawl } from '../../jobs/purge';
import { CrawlStartError, startCrawl } from '../../jobs/start';
import { sendReextractStep } from '../../queues/extract';
import { enqueueTasks } from '../../queues/frontier';
import { getCrawl, listCrawls, requestPurge, startReextraction } from '../../storage/d1/crawls';
import { accessFailures, deleteErrors } from '../../storage/d1/errors';
import { countHtmlPages } from '../../storage/d1/reextraction';
import type { CrawlConfig } from '../../types';
import { changesOf, listItem, summariesOf } from '../crawl-list';
import { endedAt, isoOrNull } from '../crawl-time';
import { ApiError, badRequest, notFound } from '../errors';
import { nextCursor } from '../keyset';
import type { CrawlEnv } from '../load-crawl';
import { json, routeDoc } from '../openapi/route-doc';
import { changeCountsFor } from '../recrawl';
import {
  cancelledSchema,
  crawlCreatedSchema,
  crawlListSchema,
  crawlSchema,
  errorSchema,
  purgedSchema,
  reextractStartedSchema,
  retriedSchema,
} from '../responses';
import {
  crawlCursorSchema,
  crawlListQuerySchema,
  createCrawlSchema,
  deleteQuerySchema,
  MAX_BODY_BYTES,
  reextractSchema,
  retryErrorsSchema,
} from '../schemas';
import {
  assertRequestAllowed,
  jsonInput,
  limitBody,
  limitCrawlBody,
  parseCursor,
  presentConfig,
  queryInput,
} from '../validate';

/** Crawl jobs: start, list, show, cancel (or purge), and try failed URLs again. */
export const crawls = new Hono<CrawlEnv>()
  .post(
    '/',
    routeDoc({
      summary: 'Start a crawl',
      description:
        'Its seeds are queued at once; the crawl runs until every discovered URL is stored, failed or skipped.',
      tag: 'Crawls',
      responses: {
        201: json('The crawl started', crawlCreatedSchema),
        503: json('It could not be started', errorSchema),
      },
    }),
    limitCrawlBody(),
    jsonInput(createCrawlSchema),
    async (c) => {
      const config = c.req.valid('json');
      assertRequestAllowed(c.env, config);
      const { previousCrawlId } = config;
      if (previousCrawlId !== null && !(await getCrawl(c.env.DB, previousCrawlId)))
        throw badRequest(`previousCrawlId: no crawl with id ${previousCrawlId}`);
      const sealed = await configOf(c.env, config);
      try {
        const id = await startCrawl(
          c.env,
          previousCrawlId === null ? sealed : { ...sealed, recrawlOf: previousCrawlId },
        );
        return c.json({ id, status: 'running' as const }, 201);
      } catch (error) {
        if (error instanceof CrawlStartError) throw new ApiError(503, 'unavailable', error.message);
        throw error;
      }
    },
  )
  .get(
    '/',
    routeDoc({
      summary: 'List crawls, newest first',
      description:
        "Each with its counts, pending URLs, average rate and estimated cost: an ended crawl's as it ended (kept in D1), a running one's asked of its Durable Object.",
      tag: 'Crawls',
      responses: { 200: json('Crawls', crawlListSchema) },
    }),
    queryInput(crawlListQuerySchema),
    async (c) => {
      const query = c.req.valid('query');
      const after = parseCursor(query.cursor, crawlCursorSchema);
      const rows = await listCrawls(c.env.DB, query.limit, after ? { createdAt: after.c, id: after.i } : null);
      const summaries = await summariesOf(c.env, rows);
      const changes = await changesOf(c.env, rows);
      const now = Date.now();
      return c.json({
        crawls: rows.map((r, i) => listItem(r, summaries[i] ?? null, changes[i] ?? null, now)),
        cursor: nextCursor(rows, query.limit, (last) => ({ c: last.createdAt, i: last.id })),
      });
    },
  )
  .get(
    '/:id',
    routeDoc({
      summary: 'A crawl: status, counts, config',
      tag: 'Crawls',
      responses: { 200: json('The crawl', crawlSchema) },
    }),
    async (c) => {
      const crawl = c.var.crawl;
      const snapshot = await c.env.CRAWL.getByName(crawl.id).snapshot();
      if (!snapshot) throw notFound(`no crawl with id ${JSON.stringify(crawl.id)}`);
      const counted = await changeCountsFor(c.env, crawl);
      const changes = counted === null ? {} : { changes: counted };
      const access =
        crawl.config.credentials === null
          ? null
          : accessReport(await accessFailures(c.env.DB, crawl.id), snapshot.counts.stored);
      return c.json({
        id: crawl.id,
        status: snapshot.status,
        counts: snapshot.counts,
        ...changes,
        pending: snapshot.pending,
        ...(crawl.extraction
          ? {
              extraction: {
                status: crawl.extraction.status,
                done: crawl.extraction.done,
                total: crawl.extraction.total,
              },
            }
          : {}),
        ...(access ? { access } : {}),
        // Its extract is the spec its records follow: a re-extraction's, once one was started.
        config: presentConfig({ ...crawl.config, extract: crawl.extract }),
        createdAt: new Date(crawl.createdAt).toISOString(),
        finishedAt: isoOrNull(endedAt(snapshot, crawl.finishedAt)),
      });
    },
  )
  .delete(
    '/:id',
    routeDoc({
      summary: 'Cancel a crawl, or purge it',
      description:
        'Cancels the crawl (pending URLs are dropped, and the slots its hosts held for it are given back at once); with purge=true, deletes everything it stored.',
      tag: 'Crawls',
      responses: {
        200: json('Cancelled, or purged', z.union([cancelledSchema, purgedSchema])),
        202: json('Purge started; the cron trigger finishes it', purgedSchema),
      },
    }),
    queryInput(deleteQuerySchema),
    async (c) => {
      const crawl = c.var.crawl;
      const snapshot = await c.env.CRAWL.getByName(crawl.id).cancel();
      if (c.req.valid('query').purge) {
        // From here on the crawl is listed nowhere and each of its routes answers 404; what one pass leaves, cron finishes.
        const now = Date.now();
        await requestPurge(c.env.DB, crawl.id, now);
        const { done } = await purgeCrawl(c.env, { ...crawl, purgeRequestedAt: now }, now);
        return c.json({ id: crawl.id, purged: done }, done ? 200 : 202);
      }
      if (!snapshot) throw notFound(`no crawl with id ${JSON.stringify(crawl.id)}`);
      return c.json({ id: crawl.id, status: snapshot.status, counts: snapshot.counts });
    },
  )
  .post(
    '/:id/reextract',
    routeDoc({
      summary: "Extract a crawl's stored pages again with another spec",
      description: 'From the bodies kept in R2: no page is fetched again. The crawl must have ended.',
      tag: 'Crawls',
      responses: {
        202: json('Re-extraction started', reextractStartedSchema),
        409: json('The crawl is still running', errorSchema),
      },
    }),
    limitBody(MAX_BODY_BYTES),
    jsonInput(reextractSchema),
    async (c) => {
      const crawl = c.var.crawl;
      assertRequestAllowed(c.env, { seeds: [], webhook: null, extract: c.req.valid('json').extract });
      const snapshot = await c.env.CRAWL.getByName(crawl.id).snapshot();
      if (snapshot?.status === 'running')
        throw new ApiError(
          409,
          'conflict',
          'the crawl is still running: re-extract it once it has completed or been cancelled',
        );
      const total = await countHtmlPages(c.env.DB, crawl.id);
      const version = await startReextraction(c.env.DB, crawl.id, c.req.valid('json').extract, total);
      if (total > 0) await sendReextractStep(c.env.EXTRACT, { crawlId: crawl.id, version, after: '' });
      return c.json({ id: crawl.id, extraction: { status: total > 0 ? 'running' : 'completed', done: 0, total } }, 202);
    },
  )
  .post(
    '/:id/retry-errors',
    routeDoc({
      summary: 'Try failed URLs again',
      tag: 'Crawls',
      responses: {
        200: json('URLs queued again', retriedSchema),
        409: json('The crawl was cancelled, or its login failed', errorSchema),
      },
    }),
    limitBody(MAX_BODY_BYTES),
    jsonInput(retryErrorsSchema, { emptyBody: {} }),
    async (c) => {
      const crawl = c.var.crawl;
      const request = c.req.valid('json');
      await assertLoggedIn(c.env.DB, crawl);
      const result = await c.env.CRAWL.getByName(crawl.id).retryFailed(request.limit, request.urls);
      if (!result) throw notFound(`no crawl with id ${JSON.stringify(crawl.id)}`);
      if (result.status === 'cancelled')
        throw new ApiError(409, 'conflict', 'the crawl was cancelled; start a new one');
      const retried = result.entries.map((e) => e.url);
      await deleteErrors(c.env.DB, crawl.id, retried);
      // If this send fails the URLs stay queued in the Durable Object and its sweeper re-sends them.
      await enqueueTasks(c.env, crawl.id, crawl.config, result.entries);
      return c.json({ id: crawl.id, status: result.status, retried: retried.length, remaining: result.remaining });
    },
  );

/**
 * A crawl whose form login failed has its login URL as its one failed URL: tried again, it would be crawled as a page
 * (the login page, without a session). Refused: a new crawl logs in again.
 */
async function assertLoggedIn(db: D1Database, crawl: { id: string; config: CrawlConfig }): Promise<void> {
  if (!crawl.config.credentials?.login) return;
  const failures = await accessFailures(db, crawl.id);
  if (failures.some((f) => f.code === 'login_failed'))
    throw new ApiError(
      409,
      'conflict',
      "the crawl's login failed, so nothing of it can be tried again; start a new crawl (it logs in again)",
    );
}
