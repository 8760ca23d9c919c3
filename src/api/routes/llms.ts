import { Hono } from 'hono';
import { sectionContext } from '../../domain/llms-txt';
import { hostKey } from '../../domain/normalize';
import type { CrawlRow } from '../../storage/d1/crawls';
import { pageSummary } from '../../storage/d1/pages';
import { streamLlmsFull, streamLlmsTxt } from '../../storage/llms-export';
import type { CrawlEnv } from '../load-crawl';
import { bytes, routeDoc } from '../openapi/route-doc';

const TEXT = { 'content-type': 'text/markdown; charset=utf-8', 'cache-control': 'no-store' };

/** The file's name and summary: the first seed's title and description when it was stored, else its host. */
async function headOf(db: D1Database, crawl: CrawlRow) {
  const seed = crawl.config.seeds[0] ?? '';
  const page = await pageSummary(db, crawl.id, seed);
  const hosts = new Set(crawl.config.seeds.map((s) => hostKey(s)));
  const when = new Date(crawl.createdAt).toISOString().slice(0, 10);
  return {
    name: page?.title?.trim() || [...hosts].join(', '),
    summary: page?.description?.trim() || `Pages of ${[...hosts].join(', ')}, crawled by edgecrawl on ${when}.`,
    context: sectionContext(
      crawl.config.seeds,
      hosts.size > 1 || crawl.config.scope === 'same-domain' || crawl.config.scope === 'any',
    ),
  };
}

/** A crawl as llmstxt.org files: llms.txt lists its pages, llms-full.txt holds their markdown. */
export const llmsRoutes = new Hono<CrawlEnv>()
  .get(
    '/:id/llms.txt',
    routeDoc({
      summary: 'The crawl as llms.txt',
      description:
        "The llmstxt.org format: the site's name, a summary, then each section once: a section per directory below the seeds' (and host, for a crawl of several), its pages in URL order; the pages of the seeds' directory itself under Pages. Each stored HTML page or PDF as `- [title](url): description`, streamed.",
      tag: 'Exports',
      responses: { 200: bytes('llms.txt', 'text/markdown') },
    }),
    async (c) => {
      const crawl = c.var.crawl;
      const head = await headOf(c.env.DB, crawl);
      return new Response(streamLlmsTxt(c.env.DB, crawl.id, head), { headers: TEXT });
    },
  )
  .get(
    '/:id/llms-full.txt',
    routeDoc({
      summary: "Every page's markdown in one file (llms-full.txt)",
      description:
        'Each stored HTML page with markdown in its extract.formats: its title, its URL, its markdown, in URL order, streamed.',
      tag: 'Exports',
      responses: { 200: bytes('llms-full.txt', 'text/markdown') },
    }),
    (c) => new Response(streamLlmsFull(c.env.DB, c.env.BODIES, c.var.crawl.id), { headers: TEXT }),
  );
