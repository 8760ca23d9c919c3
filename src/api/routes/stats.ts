import { Hono } from 'hono';
import { z } from 'zod';
import { chooseInterval, fillSeries, MAX_POINTS } from '../../domain/crawl/series';
import type { CrawlRow } from '../../storage/d1/crawls';
import {
  codeBreakdown,
  failedSeries,
  reasonBreakdown,
  reasonKindBreakdown,
  trapBreakdown,
} from '../../storage/d1/errors';
import { crawlActivity, hostBreakdown, pageSeries, statusBreakdown } from '../../storage/d1/page-stats';
import type { CrawlSnapshot } from '../../types';
import { endedAt, isoOrNull } from '../crawl-time';
import { notFound } from '../errors';
import type { CrawlEnv } from '../load-crawl';
import { json, routeDoc } from '../openapi/route-doc';
import { hostsSchema, statsSchema } from '../responses';
import { queryInput } from '../validate';

const statsQuerySchema = z
  .object({
    /** Seconds per point of the series; chosen from the crawl's duration when absent. */
    interval: z.coerce.number().int().min(1).max(86_400).optional(),
    /** Seconds over which the current rate is measured. */
    window: z.coerce.number().int().min(1).max(3600).default(10),
  })
  .strict();

/** Rows of each breakdown. */
const BREAKDOWN_ROWS = 50;
/** Hosts whose politeness state GET /hosts reports, most pages first. */
const MAX_HOSTS = 20;

/** Fetched and failed per interval, from the crawl's start to its end (or now), at most MAX_POINTS points. */
async function series(db: D1Database, crawl: CrawlRow, to: number, askedInterval: number | undefined) {
  const from = crawl.createdAt;
  const interval = Math.max(askedInterval ?? chooseInterval(to - from), chooseInterval(to - from, MAX_POINTS));
  const [fetched, failed] = await Promise.all([
    pageSeries(db, crawl.id, interval),
    failedSeries(db, crawl.id, interval),
  ]);
  const points = fillSeries([...fetched, ...failed], from, to, interval);
  return {
    interval,
    series: points.map((b) => ({ at: new Date(b.at).toISOString(), fetched: b.fetched, failed: b.failed })),
  };
}

/** The current rate (over the window) and the average over the crawl's active time. */
function rates(
  snapshot: CrawlSnapshot,
  activity: { firstAt: number | null; lastAt: number | null; recent: number },
  windowSeconds: number,
  now: number,
) {
  const active =
    activity.firstAt !== null && activity.lastAt !== null ? (activity.lastAt - activity.firstAt) / 1000 : 0;
  // A crawl younger than the window is measured over its own life, not diluted by time before it began.
  const window = Math.min(windowSeconds, Math.max(1, (now - (activity.firstAt ?? now)) / 1000));
  return {
    windowSeconds,
    pagesPerSecond: snapshot.status === 'running' ? activity.recent / window : 0,
    averagePagesPerSecond: active > 0 ? snapshot.counts.fetched / active : 0,
  };
}

export const stats = new Hono<CrawlEnv>()
  /**
   * The crawl's progress over time: pages fetched and URLs failed per interval, the current and average
   * rate, and breakdowns by HTTP status, error reason (exact, and by kind), error code and host.
   */
  .get(
    '/:id/stats',
    routeDoc({
      summary: "A crawl's progress over time",
      description:
        'Pages fetched and URLs failed per interval, the current and average rate, breakdowns by HTTP status, error reason (exact and by kind), error code and host.',
      tag: 'Stats',
      responses: { 200: json('Stats', statsSchema) },
    }),
    queryInput(statsQuerySchema),
    async (c) => {
      const crawl = c.var.crawl;
      const query = c.req.valid('query');
      const now = Date.now();
      const db = c.env.DB;
      const stub = c.env.CRAWL.getByName(crawl.id);
      const [snapshot, activity, statuses, errors, errorKinds, errorCodes, hosts, trapped, rules] = await Promise.all([
        stub.snapshot(),
        crawlActivity(db, crawl.id, now - query.window * 1000),
        statusBreakdown(db, crawl.id),
        reasonBreakdown(db, crawl.id, BREAKDOWN_ROWS),
        reasonKindBreakdown(db, crawl.id),
        codeBreakdown(db, crawl.id),
        hostBreakdown(db, crawl.id, BREAKDOWN_ROWS),
        trapBreakdown(db, crawl.id, BREAKDOWN_ROWS),
        stub.trapReport(),
      ]);
      if (!snapshot) throw notFound(`no crawl with id ${JSON.stringify(crawl.id)}`);
      const finishedAt = endedAt(snapshot, crawl.finishedAt);
      const to =
        snapshot.status === 'running'
          ? now
          : Math.max(activity.lastAt ?? crawl.createdAt, finishedAt ?? crawl.createdAt);
      return c.json({
        id: crawl.id,
        status: snapshot.status,
        counts: snapshot.counts,
        pending: snapshot.pending,
        cached: activity.cached,
        createdAt: new Date(crawl.createdAt).toISOString(),
        finishedAt: isoOrNull(finishedAt),
        rate: rates(snapshot, activity, query.window, now),
        ...(await series(db, crawl, to, query.interval)),
        statuses,
        errors,
        errorKinds,
        errorCodes,
        hosts,
        traps: { rules: rules?.declared ?? [], skipped: trapped, overHostBudget: rules?.overHostBudget ?? 0 },
      });
    },
  )
  /** Politeness state of the crawl's busiest hosts: requests in flight, next free slot, back-off, robots.txt. */
  .get(
    '/:id/hosts',
    routeDoc({
      summary: "Politeness state of a crawl's busiest hosts",
      description: 'Requests in flight, next free slot, back-off and robots.txt of at most 20 hosts, most pages first.',
      tag: 'Stats',
      responses: { 200: json('Hosts', hostsSchema) },
    }),
    async (c) => {
      const crawl = c.var.crawl;
      // By host name, as /stats counts them: the gate is one per host name, whatever the port.
      const hosts = await hostBreakdown(c.env.DB, crawl.id, MAX_HOSTS);
      const states = await Promise.all(
        hosts.map(async ({ host, pages }) => ({ host, pages, ...(await c.env.HOSTS.getByName(host).state()) })),
      );
      return c.json({ hosts: states });
    },
  );
