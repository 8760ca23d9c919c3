import { getCrawl, type CrawlRow } from '../storage/d1/crawls';
import { notFound } from './errors';
import { crawlIdSchema } from './schemas';

/** The crawl a `:id` path parameter names; a malformed or unknown id is a 404. */
export async function requireCrawl(env: Env, rawId: string): Promise<CrawlRow> {
  const id = crawlIdSchema.safeParse(rawId);
  const crawl = id.success ? await getCrawl(env.DB, id.data) : null;
  if (!crawl) throw notFound(`no crawl with id ${JSON.stringify(rawId.slice(0, 100))}`);
  return crawl;
}
