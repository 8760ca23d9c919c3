import { Hono, type MiddlewareHandler } from 'hono';
import type { z } from 'zod';
import { settingsView } from '../../credentials';
import { nextRun } from '../../jobs/schedules';
import { getCrawl } from '../../storage/d1/crawls';
import { ApiError, badRequest } from '../errors';
import { json, routeDoc, withRoutePart } from '../openapi/route-doc';
import { crawlValidationSchema, scheduleValidationSchema } from '../responses';
import { createCrawlSchema } from '../schemas';
import { limitCrawlBody, presentConfig, requestRefusal } from '../validate';
import { createScheduleSchema } from './schedules';

type Issue = { path: (string | number)[]; message: string };
const MAX_ISSUES = 50;

const issuesOf = (error: z.ZodError): Issue[] =>
  error.issues.slice(0, MAX_ISSUES).map((issue) => ({
    path: issue.path.map((key) => (typeof key === 'number' ? key : String(key))),
    message: issue.message,
  }));

/** The body as JSON: malformed JSON or another content type is a 400, as on the routes it checks for. */
async function bodyOf(req: { text(): Promise<string>; header(name: string): string | undefined }): Promise<unknown> {
  if (!/^application\/(.+\+)?json\b/i.test(req.header('content-type') ?? ''))
    throw new ApiError(415, 'unsupported_media_type', 'Content-Type must be application/json');
  try {
    return JSON.parse(await req.text());
  } catch {
    throw badRequest('request body is not valid JSON', 'invalid_json');
  }
}

/** Documents a body checked by the handler itself (the route answers 200 either way). */
const documentsBody = (schema: z.ZodType) =>
  withRoutePart<MiddlewareHandler>(async (_c, next) => next(), { json: schema });

const prefixed = (prefix: string[], issue: Issue | null): Issue[] =>
  issue ? [{ path: [...prefix, ...issue.path], message: issue.message }] : [];

/** The next three runs of a schedule created at `now`: a period's first run is the next trigger. */
function nextRuns(schedule: { cron: string | null; everySeconds: number | null }, now: number): string[] {
  const runs = [schedule.cron === null ? now : nextRun(schedule, now)];
  while (runs.length < 3) runs.push(nextRun(schedule, runs[runs.length - 1] ?? now));
  return runs.map((t) => new Date(t).toISOString());
}

/**
 * Requests checked, nothing started: POST /v1/crawls/validate and /v1/schedules/validate take the body of POST
 * /v1/crawls and /v1/schedules, check it with the same schema and the same refusals, and answer the normalized
 * request or every issue with its path (the dashboard's form checks as one types).
 */
export const validateRoutes = new Hono<{ Bindings: Env }>()
  .post(
    '/crawls/validate',
    routeDoc({
      summary: 'Check a crawl request without starting it',
      description:
        'The body of POST /v1/crawls, checked by the same schema: 200 with `valid: true` and the crawl as it would start (defaults filled in), or `valid: false` and each issue with the path of its field.',
      tag: 'Crawls',
      responses: { 200: json('Whether it is valid', crawlValidationSchema) },
    }),
    limitCrawlBody(),
    documentsBody(createCrawlSchema),
    async (c) => {
      const parsed = createCrawlSchema.safeParse(await bodyOf(c.req));
      if (!parsed.success) return c.json({ valid: false as const, issues: issuesOf(parsed.error) });
      const config = parsed.data;
      const issues = prefixed([], requestRefusal(c.env, config));
      if (config.previousCrawlId !== null && !(await getCrawl(c.env.DB, config.previousCrawlId)))
        issues.push({ path: ['previousCrawlId'], message: `no crawl with id ${config.previousCrawlId}` });
      if (issues.length > 0) return c.json({ valid: false as const, issues });
      return c.json({ valid: true as const, config: presentConfig(settingsView(config)) });
    },
  )
  .post(
    '/schedules/validate',
    routeDoc({
      summary: 'Check a schedule request without creating it',
      description:
        'The body of POST /v1/schedules, checked by the same schema: 200 with `valid: true`, the schedule as it would be created and its next three runs, or `valid: false` and each issue with the path of its field.',
      tag: 'Schedules',
      responses: { 200: json('Whether it is valid', scheduleValidationSchema) },
    }),
    limitCrawlBody(),
    documentsBody(createScheduleSchema),
    async (c) => {
      const parsed = createScheduleSchema.safeParse(await bodyOf(c.req));
      if (!parsed.success) return c.json({ valid: false as const, issues: issuesOf(parsed.error) });
      const { cron, everySeconds, crawl } = parsed.data;
      const issues = prefixed(['crawl'], requestRefusal(c.env, crawl));
      if (issues.length > 0) return c.json({ valid: false as const, issues });
      const schedule = { cron: cron ?? null, everySeconds: everySeconds ?? null };
      return c.json({
        valid: true as const,
        config: { ...schedule, crawl: presentConfig(settingsView(crawl)) },
        nextRuns: nextRuns(schedule, Date.now()),
      });
    },
  );
