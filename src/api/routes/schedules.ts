import { Hono } from 'hono';
import { z } from 'zod';
import { configOf } from '../../credentials';
import { CronError, parseCron } from '../../domain/crawl/cron';
import { nextRun } from '../../jobs/schedules';
import {
  deleteSchedule,
  getSchedule,
  insertSchedule,
  listSchedules,
  type ScheduleRow,
} from '../../storage/d1/schedules';
import { notFound } from '../errors';
import { nextCursor } from '../keyset';
import { json, routeDoc } from '../openapi/route-doc';
import { scheduleDeletedSchema, scheduleListSchema, scheduleSchema } from '../responses';
import { createCrawlSchema, keyCursorSchema } from '../schemas';
import { assertRequestAllowed, jsonInput, limitCrawlBody, parseCursor, presentConfig, queryInput } from '../validate';

/** POST /v1/schedules: when (a cron expression or a period) and the crawl; also what POST /v1/schedules/validate checks. */
export const createScheduleSchema = z
  .object({
    cron: z
      .string()
      .max(200)
      .superRefine((value, ctx) => {
        try {
          parseCron(value).next(new Date());
        } catch (error) {
          if (error instanceof CronError) ctx.addIssue({ code: 'custom', message: error.message });
          else throw error;
        }
      })
      .optional(),
    everySeconds: z
      .number()
      .int()
      .min(60)
      .max(366 * 24 * 3600)
      .optional(),
    crawl: createCrawlSchema,
    notify: z
      .enum(['all', 'changes'])
      .default('all')
      .describe("changes: the crawl's webhook gets page.changed events only (what changed), not the others."),
  })
  .strict()
  .refine((s) => (s.cron === undefined) !== (s.everySeconds === undefined), {
    message: 'give exactly one of cron or everySeconds',
  })
  .refine((s) => s.crawl.previousCrawlId === null, {
    message: 'a schedule compares each run with the run before it: crawl.previousCrawlId is not for schedules',
    path: ['crawl', 'previousCrawlId'],
  })
  .refine((s) => s.notify === 'all' || s.crawl.webhook !== null, {
    message: 'notify "changes" is about the webhook: give crawl.webhook too',
    path: ['notify'],
  })
  .transform(({ notify, ...s }) =>
    notify === 'changes' && s.crawl.webhook
      ? { ...s, crawl: { ...s.crawl, webhook: { ...s.crawl.webhook, events: ['page.changed' as const] } } }
      : s,
  );

const listQuerySchema = z
  .object({ limit: z.coerce.number().int().min(1).max(1000).default(100), cursor: z.string().max(4096).optional() })
  .strict();

function view(s: ScheduleRow) {
  return {
    id: s.id,
    cron: s.cron,
    everySeconds: s.everySeconds,
    crawl: presentConfig(s.config),
    createdAt: new Date(s.createdAt).toISOString(),
    nextRunAt: new Date(s.nextRunAt).toISOString(),
    lastRunAt: s.lastRunAt === null ? null : new Date(s.lastRunAt).toISOString(),
    lastCrawlId: s.lastCrawlId,
  };
}

/** Scheduled recrawls, started by the cron trigger (jobs/schedules). */
export const schedules = new Hono<{ Bindings: Env }>()
  .post(
    '/',
    routeDoc({
      summary: 'Schedule a recrawl',
      description:
        'The cron trigger starts the crawl at each time (a cron expression, UTC, or every N seconds); each run is a recrawl: conditional requests, pages counted new, changed, unchanged and gone.',
      tag: 'Schedules',
      responses: { 201: json('The schedule', scheduleSchema) },
    }),
    limitCrawlBody(),
    jsonInput(createScheduleSchema),
    async (c) => {
      const body = c.req.valid('json');
      assertRequestAllowed(c.env, body.crawl);
      const now = Date.now();
      const row = {
        id: crypto.randomUUID(),
        cron: body.cron ?? null,
        everySeconds: body.everySeconds ?? null,
        config: await configOf(c.env, body.crawl),
        createdAt: now,
        // A fixed period runs at the next trigger; a cron expression at its next matching minute.
        nextRunAt: body.cron === undefined ? now : nextRun({ cron: body.cron, everySeconds: null }, now),
      };
      await insertSchedule(c.env.DB, row);
      return c.json(view({ ...row, lastRunAt: null, lastCrawlId: null }), 201);
    },
  )
  .get(
    '/',
    routeDoc({
      summary: 'List schedules',
      tag: 'Schedules',
      responses: { 200: json('Schedules', scheduleListSchema) },
    }),
    queryInput(listQuerySchema),
    async (c) => {
      const query = c.req.valid('query');
      const rows = await listSchedules(c.env.DB, query.limit, parseCursor(query.cursor, keyCursorSchema));
      return c.json({ schedules: rows.map(view), cursor: nextCursor(rows, query.limit, (last) => last.id) });
    },
  )
  .get(
    '/:id',
    routeDoc({ summary: 'A schedule', tag: 'Schedules', responses: { 200: json('The schedule', scheduleSchema) } }),
    async (c) => {
      const schedule = await getSchedule(c.env.DB, c.req.param('id'));
      if (!schedule) throw notFound(`no schedule with id ${JSON.stringify(c.req.param('id').slice(0, 100))}`);
      return c.json(view(schedule));
    },
  )
  .delete(
    '/:id',
    routeDoc({
      summary: 'Delete a schedule',
      description: 'No further runs start; crawls it started are kept.',
      tag: 'Schedules',
      responses: { 200: json('Deleted', scheduleDeletedSchema) },
    }),
    async (c) => {
      if (!(await deleteSchedule(c.env.DB, c.req.param('id'))))
        throw notFound(`no schedule with id ${JSON.stringify(c.req.param('id').slice(0, 100))}`);
      return c.json({ id: c.req.param('id'), deleted: true });
    },
  );
