import { Hono } from 'hono';
import { z } from 'zod';
import { UsageMeter } from '../../domain/usage';
import { reportUsage } from '../../objects/crawl-usage';
import { streamPageExport } from '../../storage/page-export';
import { exportWarc, readExport } from '../../storage/warc-export';
import { badRequest, notFound } from '../errors';
import type { CrawlEnv } from '../load-crawl';
import { queryInput } from '../validate';

const exportQuerySchema = z.object({ format: z.enum(['jsonl', 'csv', 'warc']) }).strict();
const CONTENT_TYPES = {
  jsonl: 'application/x-ndjson; charset=utf-8',
  csv: 'text/csv; charset=utf-8; header=present',
} as const;

const FILE = /^[0-9a-f-]{36}-\d{8}T\d{6}Z\.warc\.gz$/;

/** Exports of a crawl: its page records streamed as JSONL or CSV, its stored bodies written to R2 as WARC. */
export const exportRoutes = new Hono<CrawlEnv>()
  /** Streams every page record: `format=jsonl` (one JSON object a line) or `format=csv` (with a header row). */
  .get('/:id/export', queryInput(exportQuerySchema), async (c) => {
    const crawl = c.var.crawl;
    const { format } = c.req.valid('query');
    if (format === 'warc')
      throw badRequest(
        'format=warc writes a WARC file of the stored bodies to R2: POST this URL, then download the file it names',
        'use_post',
      );
    return new Response(streamPageExport(c.env.DB, c.env.BODIES, crawl.id, crawl.extract, format), {
      headers: {
        'content-type': CONTENT_TYPES[format],
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
    const meter = new UsageMeter();
    const result = await exportWarc(c.env.BODIES, c.env.DB, crawl, { meter });
    // The export's R2 writes and reads are the crawl's (an export of a crawl being purged is not counted).
    await reportUsage(c.env.CRAWL, crawl.id, meter);
    return c.json({ format, ...result, download: `/v1/crawls/${crawl.id}/exports/${result.file}` }, 201);
  })
  /** Downloads a file written by an export. */
  .get('/:id/exports/:file', async (c) => {
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
  });
