import type { Context } from 'hono';
import { configOf } from '../../credentials';
import type { CrawlTranslation } from '../../domain/firecrawl/crawl-options';
import { joinWarnings } from '../../domain/firecrawl/ignored';
import type { FirecrawlVersion, Translated } from '../../domain/firecrawl/scrape-options';
import { CrawlStartError, startCrawl } from '../../jobs/start';
import { deleteFirecrawlJob, saveFirecrawlJob } from '../../storage/d1/firecrawl-jobs';
import { ApiError, badRequest } from '../errors';
import { createCrawlSchema } from '../schemas';
import { assertRequestAllowed, describeIssues } from '../validate';
import { type JobKind, jobUrl } from './jobs';

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
  const config = await configOf(c.env, parsed.data);
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
