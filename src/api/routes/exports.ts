import { Hono } from 'hono';
import { z } from 'zod';
import { csvRow } from '../../domain/csv';
import { type ExportRecord, PAGE_RECORD_FIELDS, pageRecords } from '../../storage/d1/pages';
import { exportWarc, readExport } from '../../storage/warc-export';
import { badRequest, notFound } from '../errors';
import type { CrawlEnv } from '../load-crawl';
import { queryInput } from '../validate';

const exportQuerySchema = z.object({ format: z.enum(['jsonl', 'csv', 'warc']) }).strict();
const ROWS_PER_QUERY = 500;

const FORMATS = {
  jsonl: { contentType: 'application/x-ndjson; charset=utf-8', head: '', line: (p: ExportRecord) => `${JSON.stringify(p)}\n` },
  csv: {
    contentType: 'text/csv; charset=utf-8; header=present',
    head: csvRow(PAGE_RECORD_FIELDS),
    line: (p: ExportRecord) => csvRow(PAGE_RECORD_FIELDS.map((f) => (typeof p[f] === 'boolean' ? String(p[f]) : p[f]))),
  },
} as const;

/** Every page record of a crawl, in URL order, read from D1 a few hundred rows at a time as the client reads. */
function streamRecords(db: D1Database, crawlId: string, format: keyof typeof FORMATS): ReadableStream<Uint8Array> {
  const { head, line } = FORMATS[format];
  const encoder = new TextEncoder();
  let after = '';
  let done = false;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        if (head) controller.enqueue(encoder.encode(head));
      },
      async pull(controller) {
        if (done) return controller.close();
        const rows = await pageRecords(db, crawlId, after, ROWS_PER_QUERY);
        const last = rows.at(-1);
        if (last) {
          after = last.url;
          controller.enqueue(encoder.encode(rows.map(line).join('')));
        }
        if (rows.length < ROWS_PER_QUERY) done = true;
        if (done && !last) controller.close();
      },
    },
    { highWaterMark: 1 },
  );
}

const FILE = /^[0-9a-f-]{36}-\d{8}T\d{6}Z\.warc\.gz$/;

/** Exports of a crawl: its page records streamed as JSONL or CSV, its stored bodies written to R2 as WARC. */
export const exportRoutes = new Hono<CrawlEnv>()
  /** Streams every page record: `format=jsonl` (one JSON object a line) or `format=csv` (with a header row). */
  .get('/:id/export', queryInput(exportQuerySchema), async (c) => {
    const crawl = c.var.crawl;
    const { format } = c.req.valid('query');
    if (format === 'warc')
      throw badRequest('format=warc writes a WARC file of the stored bodies to R2: POST this URL, then download the file it names', 'use_post');
    return new Response(streamRecords(c.env.DB, crawl.id, format), {
      headers: {
        'content-type': FORMATS[format].contentType,
        'content-disposition': `attachment; filename="${crawl.id}.${format}"`,
        'cache-control': 'no-store',
      },
    });
  })
  /** `format=warc`: writes the crawl's stored bodies to R2 as a WARC file; answers where it is. */
  .post('/:id/export', queryInput(exportQuerySchema), async (c) => {
    const crawl = c.var.crawl;
    const { format } = c.req.valid('query');
    if (format !== 'warc') throw badRequest(`format=${format} is streamed: GET this URL`, 'use_get');
    const result = await exportWarc(c.env.BODIES, c.env.DB, crawl);
    return c.json({ format, ...result, download: `/v1/crawls/${crawl.id}/exports/${result.file}` }, 201);
  })
  /** Downloads a file written by an export. */
  .get('/:id/exports/:file', async (c) => {
    const crawl = c.var.crawl;
    const file = c.req.param('file');
    if (!FILE.test(file) || !file.startsWith(crawl.id)) throw notFound(`no export ${JSON.stringify(file.slice(0, 100))} of this crawl`);
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
  });
