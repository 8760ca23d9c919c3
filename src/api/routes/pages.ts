import { Hono } from 'hono';
import type { ExtractSpec } from '../../domain/extract/spec-schema';
import { encodeCursor } from '../../domain/output/cursor';
import { headerValue } from '../../domain/output/warc';
import { normalizeUrl } from '../../domain/url/normalize';
import { openBody } from '../../storage/bodies';
import { listErrors } from '../../storage/d1/errors';
import { filterPages, isFiltered } from '../../storage/d1/page-filters';
import { getPageView, listPages, listRecentPages, storedParts } from '../../storage/d1/page-views';
import { readExchange } from '../../storage/exchange';
import { readLinks } from '../../storage/links';
import { searchText } from '../../storage/page-text';
import { readRecord, type StoredRecord } from '../../storage/records';
import type { Span } from '../../types';
import { badRequest, notFound } from '../errors';
import { described, type KeptPage, keptHeaders, keptPage } from '../kept-page';
import { nextCursor } from '../keyset';
import type { CrawlEnv } from '../load-crawl';
import { noRecord, outputOf } from '../missing-output';
import { bytes, json, routeDoc } from '../openapi/route-doc';
import { pageFiltersOf } from '../page-filter-schemas';
import { errorListSchema, linksSchema, pageDetailSchema, pageListSchema, recordSchema } from '../responses';
import {
  contentQuerySchema,
  errorListQuerySchema,
  keyCursorSchema,
  pageListQuerySchema,
  recentCursorSchema,
  recordQuerySchema,
} from '../schemas';
import { parseCursor, queryInput } from '../validate';

/** What a crawl fetched: its pages, its errors, and each stored body, record and list of links. */
export const pages = new Hono<CrawlEnv>()
  .get(
    '/:id/pages',
    routeDoc({
      summary: "A crawl's pages",
      description:
        'Every fetched page (any status), in URL order, or most recently fetched first with order=recent. A duplicate names the URL its content is stored under (duplicateOf); duplicates=exclude leaves them out. ' +
        'Filters (q, status, contentType, change, rendered, outcome, text) combine: a page passes every one given. ' +
        'A filtered listing reads a bounded window of the crawl (5,000 rows in URL order; with text, the first 200 of them that have an extraction record, each record read from R2, one ranged read per segment): it may answer fewer pages than asked, even none, with a cursor to continue; only a null cursor means the end. `searched` says how many rows (text: records) the answer read.',
      tag: 'Pages',
      responses: { 200: json('Pages', pageListSchema) },
    }),
    queryInput(pageListQuerySchema),
    async (c) => {
      const crawl = c.var.crawl;
      const query = c.req.valid('query');
      if (query.order === 'recent') {
        const rows = await listRecentPages(
          c.env.DB,
          crawl.id,
          query.limit,
          parseCursor(query.cursor, recentCursorSchema),
          query.duplicates,
        );
        return c.json({
          pages: rows.map(({ cursor: _cursor, ...page }) => page),
          cursor: nextCursor(rows, query.limit, (last) => last.cursor),
        });
      }
      const after = parseCursor(query.cursor, keyCursorSchema);
      const filters = pageFiltersOf(query);
      const text = query.text ?? [];
      if (isFiltered(filters) || text.length > 0) {
        // A filter reads a bounded window of the crawl's rows: it may answer fewer pages than asked, and a cursor.
        const found =
          text.length > 0
            ? await searchText(c.env.DB, c.env.BODIES, {
                crawlId: crawl.id,
                filters,
                words: text,
                limit: query.limit,
                afterUrl: after,
              })
            : await filterPages(c.env.DB, crawl.id, filters, query.limit, after);
        const cursor = nextCursor(found.pages, query.limit, (last) => last.url);
        return c.json({
          pages: found.pages,
          cursor: cursor ?? (found.windowEnd && encodeCursor(found.windowEnd)),
          searched: found.searched,
        });
      }
      const rows = await listPages(c.env.DB, crawl.id, query.limit, after, query.duplicates);
      return c.json({ pages: rows, cursor: nextCursor(rows, query.limit, (last) => last.url) });
    },
  )
  .get(
    '/:id/errors',
    routeDoc({
      summary: 'URLs that failed or were skipped, with why',
      tag: 'Pages',
      responses: { 200: json('Errors', errorListSchema) },
    }),
    queryInput(errorListQuerySchema),
    async (c) => {
      const crawl = c.var.crawl;
      const query = c.req.valid('query');
      const errors = await listErrors(
        c.env.DB,
        crawl.id,
        query.limit,
        parseCursor(query.cursor, keyCursorSchema),
        query.outcome ?? null,
      );
      return c.json({ errors, cursor: nextCursor(errors, query.limit, (last) => last.url) });
    },
  )
  .get(
    '/:id/content',
    routeDoc({
      summary: "A page's stored body, or one of its extracted outputs",
      description:
        'The stored body byte for byte with its Content-Type (a rendered page: its rendered DOM; source=fetched: the HTML the server sent, with the Content-Type it sent); with format=markdown|text|html, that output of its extraction. ' +
        'A duplicate (duplicateOf in GET /pages) answers the body or output of the page its content is stored under, which X-Edgecrawl-Duplicate-Of names.',
      tag: 'Pages',
      responses: {
        200: bytes('The body or output; X-Edgecrawl-Url names the page it is from', '*/*', {
          'X-Edgecrawl-Url':
            'The page the bytes are from: the one asked for, or the page a duplicate is a duplicate of.',
          'X-Edgecrawl-Duplicate-Of':
            'Only for a duplicate: the URL its content is stored under (whose bytes these are).',
        }),
      },
    }),
    queryInput(contentQuerySchema),
    async (c) => {
      const { url, format, source } = c.req.valid('query');
      const kept = await keptPage(c.env.DB, c.var.crawl.id, url);
      const { page } = kept;
      if (format !== undefined) {
        const spec = c.var.crawl.extract;
        const output = outputOf(kept, await requireRecord(c.env.BODIES, kept, spec), format, spec);
        return new Response(output, { headers: { 'content-type': OUTPUT_TYPES[format], ...keptHeaders(kept) } });
      }
      if (source === 'fetched') {
        // A rendered page's HTML as it was fetched, before the browser ran its scripts.
        if (!page.fetchedBodyAt)
          throw notFound(`${described(kept)} was not rendered: its stored body is the one fetched`);
        // With the Content-Type the server sent it with, when its exchange was recorded.
        const exchange = await readExchange(c.env.BODIES, page);
        const type = exchange ? headerValue(exchange.response.headers, 'content-type') : null;
        return spanResponse(c.env.BODIES, page.fetchedBodyAt, kept, type ?? 'text/html');
      }
      if (!page.bodyAt) throw notFound(`no stored body for ${described(kept)} (it was not a 2xx response)`);
      return spanResponse(c.env.BODIES, page.bodyAt, kept, page.contentType);
    },
  )
  .get(
    '/:id/screenshot',
    routeDoc({
      summary: "A page's screenshot (PNG)",
      description: 'When extract.formats included screenshot or screenshot@fullPage.',
      tag: 'Pages',
      responses: { 200: bytes('The PNG', 'image/png') },
    }),
    queryInput(recordQuerySchema),
    async (c) => {
      const kept = await keptPage(c.env.DB, c.var.crawl.id, c.req.valid('query').url);
      if (!kept.page.screenshotAt)
        throw notFound(`no screenshot of ${described(kept)}: the crawl's extract.formats does not include screenshot`);
      return spanResponse(c.env.BODIES, kept.page.screenshotAt, kept, 'image/png');
    },
  )
  .get(
    '/:id/links',
    routeDoc({
      summary: "A page's outgoing links",
      description:
        "A duplicate answers the links of the page its content is stored under, which duplicateOf names (a duplicate's own links are followed, not stored).",
      tag: 'Pages',
      responses: { 200: json('Links', linksSchema) },
    }),
    queryInput(recordQuerySchema),
    async (c) => {
      const kept = await keptPage(c.env.DB, c.var.crawl.id, c.req.valid('query').url);
      const links = await readLinks(c.env.BODIES, kept.page.linksAt);
      if (links === null) throw notFound(`the stored links of ${described(kept)} are missing`);
      return c.json({ url: kept.url, duplicateOf: kept.duplicateOf, links });
    },
  )
  .get(
    '/:id/page',
    routeDoc({
      summary: 'One page of a crawl',
      description:
        'The page as GET /pages lists it, with its change (in a recrawl) and which of its parts are stored: one D1 row read.',
      tag: 'Pages',
      responses: { 200: json('The page', pageDetailSchema) },
    }),
    queryInput(recordQuerySchema),
    async (c) => {
      const url = normalizeUrl(c.req.valid('query').url);
      if (url === null) throw badRequest('url must be an absolute http(s) URL');
      const page = await getPageView(c.env.DB, c.var.crawl.id, url);
      if (!page) throw notFound(`no page ${url} in this crawl`);
      if (page.duplicateOf === null) return c.json(page);
      // A duplicate's parts are its kept page's: what /record, /links and /content answer for it.
      const kept = await keptPage(c.env.DB, c.var.crawl.id, url);
      return c.json({ ...page, stored: storedParts(kept.page) });
    },
  )
  .get(
    '/:id/record',
    routeDoc({
      summary: "A page's extraction record",
      description:
        'Metadata, JSON-LD, fields, links, images and warnings, as extract.formats asked for. A duplicate answers the record of the page its content is stored under, which duplicateOf names.',
      tag: 'Pages',
      responses: { 200: json('The record', recordSchema) },
    }),
    queryInput(recordQuerySchema),
    async (c) => {
      const kept = await keptPage(c.env.DB, c.var.crawl.id, c.req.valid('query').url);
      const { record } = await requireRecord(c.env.BODIES, kept, c.var.crawl.extract);
      const { page } = kept;
      return c.json({
        url: kept.url,
        duplicateOf: kept.duplicateOf,
        status: page.status,
        contentType: page.contentType,
        fetchedAt: new Date(page.fetchedAt).toISOString(),
        cachedFrom: page.cachedFrom,
        ...record,
      });
    },
  );

const OUTPUT_TYPES = {
  markdown: 'text/markdown; charset=utf-8',
  text: 'text/plain; charset=utf-8',
  html: 'text/html; charset=utf-8',
} as const;

/** The stored bytes at `at` (of `kept`'s page), streamed, with their type. */
async function spanResponse(bucket: R2Bucket, at: Span, kept: KeptPage, type: string | null): Promise<Response> {
  const stored = await openBody(bucket, at);
  if (!stored) throw notFound(`stored bytes of ${described(kept)} are missing`);
  const contentType = type ?? stored.contentType ?? 'application/octet-stream';
  const headers = { ...keptHeaders(kept), 'content-type': contentType };
  if (stored.body === null) return new Response(null, { headers });
  return new Response(stored.body, {
    headers: { ...headers, 'content-length': String(stored.size), etag: stored.etag },
  });
}

async function requireRecord(bucket: R2Bucket, kept: KeptPage, spec: ExtractSpec | null): Promise<StoredRecord> {
  const { page } = kept;
  if (!page.recordAt) throw noRecord(kept, spec);
  const record = await readRecord(bucket, page.recordAt);
  if (!record) throw notFound(`the extraction record of ${described(kept)} is missing`);
  return record;
}
