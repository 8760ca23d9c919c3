import { type Context, Hono } from 'hono';
import { z } from 'zod';
import { firecrawlDocument } from '../../domain/firecrawl/document';
import { type FirecrawlFormats, formatsOfSpec } from '../../domain/firecrawl/formats';
import type { FirecrawlVersion } from '../../domain/firecrawl/scrape-options';
import { firecrawlPageSize } from '../../settings';
import { type CrawlRow, getCrawl } from '../../storage/d1/crawls';
import { listErrors } from '../../storage/d1/errors';
import { countDocuments } from '../../storage/d1/firecrawl-documents';
import { getFirecrawlJob } from '../../storage/d1/firecrawl-jobs';
import { type DocumentsFrom, readDocuments } from '../../storage/firecrawl-pages';
import type { CrawlSnapshot } from '../../types';
import { crawlIdSchema } from '../schemas';
import { queryInput } from '../validate';
import { jobNotFound } from './errors';
import { FIRECRAWL_PREFIX } from './prefix';

/** What Firecrawl calls a job: a crawl or a batch scrape, each an edgecrawl crawl. */
export type JobKind = 'crawl' | 'batch';

const PATHS: Record<JobKind, string> = { crawl: 'crawl', batch: 'batch/scrape' };
/** A page of documents is cut at about this many bytes of JSON (Firecrawl's 10 MiB). */
const PAGE_BYTES = 10 * 1024 * 1024;
/** Documents per page when each carries a body or a screenshot. */
const HEAVY_PAGE_SIZE = 20;
/** Errors an errors answer lists at most. */
const MAX_ERRORS = 1000;

/** edgecrawl's statuses as Firecrawl's. */
const STATUS = { running: 'scraping', completed: 'completed', cancelled: 'cancelled' } as const;

/**
 * The absolute URL of a job's status route (Firecrawl's clients follow it as it is), under /firecrawl when the request
 * came that way.
 */
export function jobUrl(c: Context, version: FirecrawlVersion, kind: JobKind, id: string): string {
  const prefix = c.req.path.startsWith(`${FIRECRAWL_PREFIX}/`) ? FIRECRAWL_PREFIX : '';
  return `${new URL(c.req.url).origin}${prefix}/v${version}/${PATHS[kind]}/${id}`;
}

interface Job {
  crawl: CrawlRow;
  snapshot: CrawlSnapshot;
  formats: FirecrawlFormats;
  warning: string | null;
}

/** The job an `:id` names, its status and its documents' formats; 404 "Job not found" otherwise. */
async function loadJob(env: Env, rawId: string): Promise<Job> {
  const id = crawlIdSchema.safeParse(rawId);
  const crawl = id.success ? await getCrawl(env.DB, id.data) : null;
  if (!crawl) throw jobNotFound();
  const [snapshot, job] = await Promise.all([
    env.CRAWL.getByName(crawl.id).snapshot(),
    getFirecrawlJob(env.DB, crawl.id),
  ]);
  if (!snapshot) throw jobNotFound();
  return { crawl, snapshot, formats: job?.formats ?? formatsOfSpec(crawl.extract), warning: job?.warning ?? null };
}

const statusQuerySchema = z.looseObject({
  skip: z.coerce.number().int().min(0).max(100_000_000).optional(),
  limit: z.coerce.number().int().min(1).max(1000).optional(),
  after: z.string().max(8192).optional(),
});

/** `expiresAt` of a crawl kept until it is deleted: the latest time ISO 8601 writes in four digits. */
const KEPT = '9999-12-31T23:59:59.999Z';

/**
 * When an ended crawl's data is due to be deleted (retentionDays), or KEPT. Always given: firecrawl-py's v1 models
 * (V1CrawlStatusResponse, V1BatchScrapeStatusResponse) require it, so v1's crawl_url failed without it.
 */
function expiresAt({ crawl, snapshot }: Job): string {
  const days = crawl.config.retentionDays;
  if (days === null) return KEPT;
  return new Date((snapshot.finishedAt ?? Date.now()) + days * 86_400_000).toISOString();
}

/** Documents from `from`, cut at PAGE_BYTES of JSON (at least one); `more`: others follow. */
async function documentPage(env: Env, job: Job, from: DocumentsFrom, limit: number) {
  const { previousCrawlId } = job.crawl.config;
  const read = await readDocuments(env.DB, env.BODIES, job.crawl.id, {
    from,
    limit,
    formats: job.formats,
    previousCrawlId,
  });
  const data = [];
  let bytes = 0;
  for (const page of read.pages) {
    const doc = firecrawlDocument(page, job.formats);
    bytes += JSON.stringify(doc).length;
    if (data.length > 0 && bytes > PAGE_BYTES) return { data, more: true, last: data.at(-1)?.metadata.sourceURL };
    data.push(doc);
  }
  return { data, more: read.more, last: read.pages.at(-1)?.url };
}

/** GET /:id: the job's status and a page of its documents, with `next` (absolute) only while more are stored. */
function statusHandler(version: FirecrawlVersion, kind: JobKind) {
  return async (c: Context<{ Bindings: Env }>, query: z.output<typeof statusQuerySchema>) => {
    const job = await loadJob(c.env, c.req.param('id') ?? '');
    const heavy = job.formats.rawHtml || job.formats.screenshot !== null;
    const size = Math.min(query.limit ?? Number.POSITIVE_INFINITY, heavy ? HEAVY_PAGE_SIZE : firecrawlPageSize(c.env));
    const skip = query.skip ?? 0;
    const from: DocumentsFrom = query.after !== undefined ? { afterUrl: query.after } : { skip };
    const page = await documentPage(c.env, job, from, size);
    const { completed, total } = await progressOf(c.env, job, kind);
    // A crawl that ended with no document failed, as Firecrawl says it (its login failed, its seeds were refused).
    const status = job.snapshot.status === 'completed' && completed === 0 ? 'failed' : STATUS[job.snapshot.status];
    const nextQuery = new URLSearchParams({ skip: String(skip + page.data.length), after: String(page.last ?? '') });
    if (query.limit !== undefined) nextQuery.set('limit', String(query.limit));
    return c.json({
      success: true as const,
      status,
      completed,
      total,
      creditsUsed: completed,
      expiresAt: expiresAt(job),
      ...(page.more ? { next: `${jobUrl(c, version, kind, job.crawl.id)}?${nextQuery}` } : {}),
      ...(job.warning ? { warning: job.warning } : {}),
      data: page.data,
    });
  };
}

/**
 * `completed` and `total` as Firecrawl counts them: pages, not the sitemaps a crawl read, a duplicate one of them (it
 * is a document, with its kept page's content). While the crawl runs, its counters less the sitemap files among
 * them; once it ended, its documents and the URLs that failed (counted from D1 once).
 */
async function progressOf(env: Env, job: Job, kind: JobKind): Promise<{ completed: number; total: number }> {
  const { counts, sitemaps = { discovered: 0, stored: 0 } } = job.snapshot;
  if (job.snapshot.status === 'running') {
    const total = kind === 'batch' ? job.crawl.config.seeds.length : counts.discovered - sitemaps.discovered;
    return { completed: counts.stored - sitemaps.stored + counts.duplicates, total };
  }
  const [completed, { errors, robotsBlocked }] = await Promise.all([
    countDocuments(env.DB, job.crawl.id),
    errorsOf(env, job.crawl.id),
  ]);
  // A URL a trap rule kept out is listed among the errors (with its rule and pattern), not counted: no page was tried.
  const tried = errors.filter((e) => e.code !== 'trap').length;
  return { completed, total: completed + tried + robotsBlocked.length };
}

/** A sitemap the crawl looked for (robots.txt's, /sitemap.xml): not a page the user asked for. */
const SITEMAP = /\.xml(\.gz)?$/i;

/**
 * Firecrawl's error list: failed URLs (and skipped ones other than redirects and cancels), robots.txt's apart, the
 * sitemaps looked for left out (a /sitemap.xml that is not there is said by map's warning, not as a failed page).
 */
async function errorsOf(env: Env, crawlId: string) {
  const rows = (await listErrors(env.DB, crawlId, MAX_ERRORS, null, null)).filter((r) => !SITEMAP.test(r.url));
  const robotsBlocked = rows.filter((r) => r.code === 'robots_disallowed').map((r) => r.url);
  const errors = rows
    .filter((r) => r.code !== 'robots_disallowed' && r.code !== 'redirect' && r.code !== 'cancelled')
    .map((r) => ({ id: crawlId, timestamp: r.at, url: r.url, code: r.code, error: r.reason }));
  return { errors, robotsBlocked };
}

/** GET /:id, DELETE /:id (cancel) and GET (or DELETE, as Firecrawl's v1 SDK sends it) /:id/errors of a job. */
export function jobRoutes(version: FirecrawlVersion, kind: JobKind) {
  const status = statusHandler(version, kind);
  const errors = async (c: Context<{ Bindings: Env }>) => {
    const { crawl } = await loadJob(c.env, c.req.param('id') ?? '');
    return c.json(await errorsOf(c.env, crawl.id));
  };
  return new Hono<{ Bindings: Env }>()
    .get('/:id', queryInput(statusQuerySchema), (c) => status(c, c.req.valid('query')))
    .delete('/:id', async (c) => {
      const { crawl } = await loadJob(c.env, c.req.param('id'));
      const snapshot = await c.env.CRAWL.getByName(crawl.id).cancel();
      if (!snapshot) throw jobNotFound();
      return c.json({ success: true as const, status: STATUS[snapshot.status] });
    })
    .get('/:id/errors', errors)
    .delete('/:id/errors', errors);
}
