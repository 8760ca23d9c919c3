import type { Context } from 'hono';
import { configOf } from '../../credentials';
import type { CrawlTranslation } from '../../domain/firecrawl/crawl-options';
import { joinWarnings } from '../../domain/firecrawl/ignored';
import type { FirecrawlVersion, Translated } from '../../domain/firecrawl/scrape-options';
import { CrawlStartError, startCrawl } from '../../jobs/start';
import { lastEndedCrawlFrom } from '../../storage/d1/crawls';
import { deleteFirecrawlJob, saveFirecrawlJob } from '../../storage/d1/firecrawl-jobs';
import { ApiError, badRequest } from '../errors';
import { createCrawlSchema } from '../schemas';
import { assertRequestAllowed, describeIssues } from '../validate';
import { type JobKind, jobUrl } from './jobs';

/**
 * The crawl a Firecrawl crawl with the changeTracking format compares its pages with: the newest ended crawl from the
 * same start URL (docs/firecrawl.md, "Change tracking"); null: none, or not asked (a batch scrape is never compared).
 */
async function comparedWith(
  db: D1Database,
  kind: JobKind,
  translation: CrawlTranslation,
  seeds: readonly string[],
): Promise<string | null> {
  const seed = seeds[0];
  if (kind !== 'crawl' || !translation.formats.changeTracking || seed === undefined) return null;
  return lastEndedCrawlFrom(db, seed);
}

/**
 * Starts a Firecrawl job (a crawl, a batch scrape) as an edgecrawl crawl: its settings checked by edgecrawl's own
 * schema and rules, its Firecrawl formats kept under its id first (its webhook's first event reads them).
 */
export async function startJob(
  c: Context<{ Bindings: Env }>,
  version: FirecrawlVersion,
  kind: JobKind,
  translated: Translated<CrawlTranslation>,
  extra: { warnings?: string[]; answer?: Record<string, unknown> } = {},
) {
  if (!translated.ok) throw badRequest(translated.message);
  const parsed = createCrawlSchema.safeParse(translated.value.settings);
  if (!parsed.success) throw badRequest(`invalid request: ${describeIssues(parsed.error)}`);
  assertRequestAllowed(c.env, parsed.data);
  const previous = await comparedWith(c.env.DB, kind, translated.value, parsed.data.seeds);
  const sealed = await configOf(c.env, { ...parsed.data, previousCrawlId: previous });
  const config = previous === null ? sealed : { ...sealed, recrawlOf: previous };
  const id = crypto.randomUUID();
  const warning = joinWarnings([...translated.value.warnings, ...(extra.warnings ?? [])]) ?? null;
  const { formats, events } = translated.value;
  await saveFirecrawlJob(c.env.DB, { crawlId: id, kind, formats, warning, events });
  try {
    await startCrawl(c.env, config, { id });
  } catch (error) {
    await deleteFirecrawlJob(c.env.DB, id).catch(() => undefined);
    if (error instanceof CrawlStartError) throw new ApiError(503, 'unavailable', error.message);
    throw error;
  }
  const url = jobUrl(c, version, kind, id);
  return c.json({ success: true as const, id, url, ...extra.answer, ...(warning ? { warning } : {}) });
}
