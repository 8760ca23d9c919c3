import type { Context } from 'hono';
import { hasPages } from '../storage/d1/page-views';
import { ApiError } from './errors';
import type { CrawlEnv } from './load-crawl';

/**
 * What a route that reads a crawl's pages (its exports, llms.txt) checks first: a crawl with no page answers 404
 * `no_pages`, saying why and where to look, never an empty file or one that lists nothing. One D1 row read.
 */
export async function assertHasPages(c: Context<CrawlEnv>): Promise<void> {
  const { id, status } = c.var.crawl;
  if (await hasPages(c.env.DB, id)) return;
  const why =
    status === 'running'
      ? `yet: it is running; ask again once it has (GET /v1/crawls/${id} counts them)`
      : `: every URL it found failed or was skipped (GET /v1/crawls/${id}/errors says why)`;
  throw new ApiError(404, 'no_pages', `crawl ${id} stored no page${status === 'running' ? ' ' : ''}${why}`);
}
