import { type Context, Hono } from 'hono';
import { z } from 'zod';
import { UsageMeter } from '../../domain/crawl/usage';
import { reportUsage } from '../../objects/crawl-usage';
import { streamPageExport } from '../../storage/page-export';
import { exportWarc, listExports, readExport } from '../../storage/warc-export';
import { badRequest, notFound } from '../errors';
import type { CrawlEnv } from '../load-crawl';
import { bytes, json, routeDoc } from '../openapi/route-doc';
import { assertHasPages } from '../require-pages';
import { exportListSchema, warcExportSchema } from '../responses';
import { jsonInput, limitBody, queryInput } from '../validate';

/**
 * Exports of a crawl, one scheme: `GET /export?format=jsonl|csv` streams the page records (a read, as any GET);
 * `POST /exports` writes a file to R2 (a WARC of the stored bodies), `GET /exports` lists the files written and
 * `GET /exports/:file` downloads one.
 */
const streamQuerySchema = z
  .object({ format: z.enum(['jsonl', 'csv', 'warc']).describe('jsonl or csv (warc is written by POST /exports)') })
  .strict();
const fileRequestSchema = z.object({ format: z.literal('warc').default('warc') }).strict();
const legacyQuerySchema = z.object({ format: z.literal('warc') }).strict();

const CONTENT_TYPES = {
  jsonl: 'application/x-ndjson; charset=utf-8',
  csv: 'text/csv; charset=utf-8; header=present',
} as const;

const FILE = /^[0-9a-f-]{36}-\d{8}T\d{6}Z\.warc\.gz$/;
const WRITTEN = { 201: json('The file written, and where to download it', warcExportSchema) };
const download = (crawlId: string, file: string) => `/v1/crawls/${crawlId}/exports/${file}`;

/** Writes the crawl's stored bodies to R2 as a WARC file; answers where it is. */
async function writeWarc(c: Context<CrawlEnv>) {
  await assertHasPages(c);
  const crawl = c.var.crawl;
  const meter = new UsageMeter();
  const result = await exportWarc(c.env.BODIES, c.env.DB, crawl, { meter });
  // The export's R2 writes and reads are the crawl's (an export of a crawl being purged is not counted).
  await reportUsage(c.env.CRAWL, crawl.id, meter);
  return c.json({ format: 'warc' as const, ...result, download: download(crawl.id, result.file) }, 201);
}

export const exportRoutes = new Hono<CrawlEnv>()
  .get(
    '/:id/export',
    routeDoc({
      summary: 'Stream every page record as JSONL or CSV',
      description:
        "In URL order: one JSON object a line (jsonl), or CSV with a header row; for a crawl that extracts, each page's record and outputs. A duplicate's line is its own page row (duplicateOf naming the page its content is stored under) with that page's record and outputs. A crawl with no page answers 404 no_pages (never an empty file).",
      tag: 'Exports',
      responses: { 200: bytes('The records', 'application/x-ndjson') },
    }),
    queryInput(streamQuerySchema),
    async (c) => {
      const crawl = c.var.crawl;
      const { format } = c.req.valid('query');
      if (format === 'warc')
        throw badRequest(
          'a WARC file is written to R2: POST /v1/crawls/:id/exports, then GET the file it names',
          'use_post',
        );
      await assertHasPages(c);
      return new Response(streamPageExport(c.env.DB, c.env.BODIES, crawl.id, crawl.extract, format), {
        headers: {
          'content-type': CONTENT_TYPES[format],
          'content-disposition': `attachment; filename="${crawl.id}.${format}"`,
          'cache-control': 'no-store',
        },
      });
    },
  )
  .post(
    '/:id/exports',
    routeDoc({
      summary: "Write a WARC file of the crawl's stored bodies to R2",
      description:
        'The body may be empty ({"format":"warc"} is the default). Download the file from `download`. A crawl with no page answers 404 no_pages.',
      tag: 'Exports',
      responses: WRITTEN,
    }),
    limitBody(1024),
    jsonInput(fileRequestSchema, { emptyBody: {} }),
    (c) => writeWarc(c),
  )
  .get(
    '/:id/exports',
    routeDoc({
      summary: 'The files exports of a crawl wrote',
      tag: 'Exports',
      responses: { 200: json('Files, oldest first', exportListSchema) },
    }),
    async (c) => {
      const crawl = c.var.crawl;
      const files = await listExports(c.env.BODIES, crawl.id);
      return c.json({
        exports: files.map((f) => ({
          file: f.file,
          bytes: f.bytes,
          createdAt: new Date(f.createdAt).toISOString(),
          download: download(crawl.id, f.file),
        })),
      });
    },
  )
  .get(
    '/:id/exports/:file',
    routeDoc({
      summary: 'Download a file an export wrote',
      tag: 'Exports',
      responses: { 200: bytes('The WARC file', 'application/warc') },
    }),
    async (c) => {
      const crawl = c.var.crawl;
      const file = c.req.param('file');
      if (!FILE.test(file) || !file.startsWith(crawl.id))
        throw notFound(`no export ${JSON.stringify(file.slice(0, 100))} of this crawl`);
      const object = await readExport(c.env.BODIES, crawl.id, file);
      if (!object) throw notFound(`no export ${JSON.stringify(file)} of this crawl`);
      return new Response(object.body, {
        headers: {
          'content-type': 'application/warc',
          'content-length': String(object.size),
          'content-disposition': `attachment; filename="${file}"`,
          etag: object.httpEtag,
        },
      });
    },
  )
  .post(
    '/:id/export',
    routeDoc({
      summary: 'Write a WARC file (the former route: use POST /exports)',
      tag: 'Exports',
      deprecated: true,
      responses: WRITTEN,
    }),
    queryInput(legacyQuerySchema),
    (c) => writeWarc(c),
  );
