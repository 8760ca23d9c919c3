import { Hono } from 'hono';
import { crawlRequestSchema, translateCrawl } from '../../domain/firecrawl/crawl-options';
import { formatNames, formatsOfSpec } from '../../domain/firecrawl/formats';
import type { FirecrawlVersion } from '../../domain/firecrawl/scrape-options';
import { readSettings } from '../../settings';
import { runningCrawls } from '../../storage/d1/crawls';
import { MAX_BODY_BYTES } from '../schemas';
import { jsonInput, limitBody } from '../validate';
import { jobRoutes } from './jobs';
import { startJob } from './start';

/** Crawls running now that Firecrawl's active list shows at most. */
const MAX_ACTIVE = 100;

/** A crawl's formats as an active list shows them: v1's names; under v2 objects, as Firecrawl's v2 document has them. */
function activeFormats(version: FirecrawlVersion, names: string[]): (string | { type: string; fullPage?: true })[] {
  if (version === 1) return names;
  return names.map((name) =>
    name === 'screenshot@fullPage' ? { type: 'screenshot', fullPage: true } : { type: name },
  );
}

/** POST /crawl, GET /crawl/active, and a crawl's status, cancel and errors. */
export const crawlRoutes = (version: FirecrawlVersion) =>
  new Hono<{ Bindings: Env }>()
    .post('/', limitBody(MAX_BODY_BYTES), jsonInput(crawlRequestSchema), (c) => {
      const floor = readSettings(c.env).hostMinIntervalMs;
      return startJob(c, version, 'crawl', translateCrawl(c.req.valid('json'), version, floor));
    })
    .get('/active', async (c) => {
      const rows = await runningCrawls(c.env.DB, MAX_ACTIVE);
      const crawls = rows.map((r) => ({
        id: r.id,
        teamId: 'edgecrawl',
        url: r.config.seeds[0] ?? '',
        created_at: new Date(r.createdAt).toISOString(),
        options: {
          limit: r.config.maxPages,
          maxDiscoveryDepth: r.config.maxDepth,
          scrapeOptions: { formats: activeFormats(version, formatNames(formatsOfSpec(r.extract))) },
        },
      }));
      return c.json({ success: true as const, crawls });
    })
    .route('/', jobRoutes(version, 'crawl'));
