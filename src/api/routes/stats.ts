import { Hono } from 'hono';
import { z } from 'zod';
import { hostKey } from '../../objects/host-gate-client';
import { activitySeries, breakdowns, crawlActivity, hostBreakdown } from '../../storage/d1/stats';
import { chooseInterval, fillSeries, MAX_POINTS } from '../../domain/series';
import { requireCrawl } from '../load-crawl';
import { notFound } from '../errors';
import { parseWith } from '../validate';

const statsQuerySchema = z
  .object({
    /** Seconds per point of the series; chosen from the crawl's duration when absent. */
    interval: z.coerce.number().int().min(1).max(86_400).optional(),
    /** Seconds over which the current rate is measured. */
    window: z.coerce.number().int().min(1).max(3600).default(10),
  })
  .strict();

/** Hosts whose politeness state GET /hosts reports, most pages first. */
const MAX_HOSTS = 20;

export const stats = new Hono<{ Bindings: Env }>()
  /**
   * The crawl's progress over time: pages fetched and URLs failed per interval, the current and average
   * rate, and breakdowns by HTTP status, error reason and host.
   */
  .get('/:id/stats', async (c) => {
    const crawl = await requireCrawl(c.env, c.req.param('id'));
    const query = parseWith(statsQuerySchema, c.req.query(), 'query');
    const now = Date.now();
    const [snapshot, activity, parts] = await Promise.all([
      c.env.CRAWL.getByName(crawl.id).snapshot(),
      crawlActivity(c.env.DB, crawl.id, now - query.window * 1000),
      breakdowns(c.env.DB, crawl.id),
    ]);
    if (!snapshot) throw notFound(`no crawl with id ${JSON.stringify(crawl.id)}`);
    const from = crawl.createdAt;
    const to = snapshot.status === 'running' ? now : Math.max(activity.lastAt ?? from, crawl.finishedAt ?? from);
    // At most MAX_POINTS points, whatever interval was asked for.
    const interval = Math.max(query.interval ?? chooseInterval(to - from), chooseInterval(to - from, MAX_POINTS));
    const series = fillSeries(await activitySeries(c.env.DB, crawl.id, interval), from, to, interval);
    const active = activity.firstAt !== null && activity.lastAt !== null ? (activity.lastAt - activity.firstAt) / 1000 : 0;
    // A crawl younger than the window is measured over its own life, not diluted by time before it began.
    const window = Math.min(query.window, Math.max(1, (now - (activity.firstAt ?? now)) / 1000));
    return c.json({
      id: crawl.id,
      status: snapshot.status,
      counts: snapshot.counts,
      pending: snapshot.pending,
      createdAt: new Date(crawl.createdAt).toISOString(),
      finishedAt: crawl.finishedAt === null ? null : new Date(crawl.finishedAt).toISOString(),
      rate: {
        windowSeconds: query.window,
        pagesPerSecond: snapshot.status === 'running' ? activity.recent / window : 0,
        averagePagesPerSecond: active > 0 ? snapshot.counts.fetched / active : 0,
      },
      interval,
      series: series.map((b) => ({ at: new Date(b.at).toISOString(), fetched: b.fetched, failed: b.failed })),
      statuses: parts.statuses,
      errors: parts.errors,
      hosts: parts.hosts,
    });
  })
  /** Politeness state of the crawl's busiest hosts: requests in flight, next free slot, back-off, robots.txt. */
  .get('/:id/hosts', async (c) => {
    const crawl = await requireCrawl(c.env, c.req.param('id'));
    const hosts = await hostBreakdown(c.env.DB, crawl.id, MAX_HOSTS);
    // Pages are counted per host and port; the gate is one per host name.
    const pages = new Map<string, number>();
    for (const { host, pages: n } of hosts) {
      const name = hostKey(`http://${host}/`);
      pages.set(name, (pages.get(name) ?? 0) + n);
    }
    const states = await Promise.all([...pages].map(async ([host, n]) => ({ host, pages: n, ...(await c.env.HOSTS.getByName(host).state()) })));
    return c.json({ hosts: states });
  });
