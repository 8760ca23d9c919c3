import { Hono } from 'hono';
import { sectionContext } from '../../domain/output/llms-txt';
import { hostKey } from '../../domain/url/normalize';
import type { CrawlRow } from '../../storage/d1/crawls';
import { hasLlmsRecord } from '../../storage/d1/llms-pages';
import { pageSummary } from '../../storage/d1/page-views';
import { streamLlmsFull, streamLlmsTxt } from '../../storage/llms-export';
import { ApiError, notFound } from '../errors';
import type { CrawlEnv } from '../load-crawl';
import { bytes, json, routeDoc } from '../openapi/route-doc';
import { assertHasPages } from '../require-pages';
import { errorSchema } from '../responses';

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
        "The llmstxt.org format: the site's name, a summary, then each section once: a section per directory below the seeds' (and host, for a crawl of several), its pages in URL order; the pages of the seeds' directory itself under Pages. Each stored HTML page or PDF as `- [title](url): description`, streamed. A crawl with no page answers 404 no_pages.",
      tag: 'Exports',
      responses: { 200: bytes('llms.txt', 'text/markdown') },
    }),
    async (c) => {
      await assertHasPages(c);
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
        'Each stored HTML page and PDF with markdown: its title, its URL, its markdown, in URL order, streamed. A crawl that extracted no markdown (extract null, or formats without it) answers 409 saying how to get it (POST .../reextract); one with no such page yet, 404: never an empty file.',
      tag: 'Exports',
      responses: {
        200: bytes('llms-full.txt', 'text/markdown'),
        404: json('No such crawl, or no stored HTML page or PDF with markdown yet', errorSchema),
        409: json('The crawl does not extract markdown (its extract is null, or its formats lack it)', errorSchema),
      },
    }),
    async (c) => {
      const crawl = c.var.crawl;
      if (!crawl.extract?.formats.includes('markdown')) throw noMarkdown(crawl);
      await assertHasPages(c);
      if (!(await hasLlmsRecord(c.env.DB, crawl.id)))
        throw notFound(
          `no stored HTML page or PDF with markdown in crawl ${crawl.id} (yet: its status is ${crawl.status}): llms-full.txt would be empty`,
        );
      return new Response(streamLlmsFull(c.env.DB, c.env.BODIES, crawl.id), { headers: TEXT });
    },
  );

/** llms-full.txt of a crawl that has no markdown: what it extracted instead, and how to get markdown. */
function noMarkdown(crawl: CrawlRow): ApiError {
  const spec = crawl.extract
    ? `its extract.formats are ${JSON.stringify(crawl.extract.formats)}`
    : 'its extract is null';
  return new ApiError(
    409,
    'no_markdown',
    `llms-full.txt holds each page's markdown, and crawl ${crawl.id} extracted none (${spec}). Extract its stored pages now with POST /v1/crawls/${crawl.id}/reextract {"extract": {"formats": ["markdown", "metadata"]}}, or start a crawl that extracts markdown (the default when extract is not given).`,
  );
}
