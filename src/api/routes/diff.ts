import { Hono } from 'hono';
import { z } from 'zod';
import { diffLines } from '../../domain/line-diff';
import { normalizeUrl } from '../../domain/normalize';
import { getStoredPage } from '../../storage/d1/pages';
import { readRecord, type StoredRecord } from '../../storage/records';
import { ApiError, badRequest, notFound } from '../errors';
import type { CrawlEnv } from '../load-crawl';
import { json, routeDoc } from '../openapi/route-doc';
import { diffSchema, errorSchema } from '../responses';
import { queryInput } from '../validate';

const diffQuerySchema = z
  .object({
    url: z.string().min(1).max(8192),
    format: z.enum(['markdown', 'text']).default('markdown').describe('The output compared, line by line.'),
  })
  .strict();

/** A page's record in a crawl, or null when the crawl stored none for it. */
async function recordIn(env: Env, crawlId: string, url: string): Promise<StoredRecord | null> {
  const page = await getStoredPage(env.DB, crawlId, url);
  return page?.recordAt ? readRecord(env.BODIES, page.recordAt) : null;
}

/** Declared fields whose value differs between two records (top-level, compared as JSON). */
function changedFields(before: StoredRecord | null, after: StoredRecord | null) {
  const a = before?.record.fields ?? {};
  const b = after?.record.fields ?? {};
  return [...new Set([...Object.keys(a), ...Object.keys(b)])]
    .filter((name) => JSON.stringify(a[name] ?? null) !== JSON.stringify(b[name] ?? null))
    .map((name) => ({ name, before: a[name] ?? null, after: b[name] ?? null }));
}

/** A page of a recrawl against the previous crawl's: a unified diff of its markdown (or text), and its fields. */
export const diffRoutes = new Hono<CrawlEnv>().get(
  '/:id/diff',
  routeDoc({
    summary: "A page's diff against the previous crawl",
    description:
      "The unified diff (`diff -u`) of the page's extracted markdown or text, as the previous crawl stored it and as this one did, and the declared fields whose value changed. For a recrawl (a schedule's runs).",
    tag: 'Pages',
    responses: { 200: json('The diff', diffSchema), 409: json('The crawl is not a recrawl', errorSchema) },
  }),
  queryInput(diffQuerySchema),
  async (c) => {
    const crawl = c.var.crawl;
    const { url: raw, format } = c.req.valid('query');
    const url = normalizeUrl(raw);
    if (url === null) throw badRequest('url must be an absolute http(s) URL');
    const previousCrawlId = crawl.config.recrawlOf;
    if (typeof previousCrawlId !== 'string')
      throw new ApiError(409, 'not_a_recrawl', 'the crawl has no previous crawl to compare with');
    const [before, after] = await Promise.all([recordIn(c.env, previousCrawlId, url), recordIn(c.env, crawl.id, url)]);
    if (!before && !after) throw notFound(`no record of ${url} in this crawl or the previous one`);
    const text = (r: StoredRecord | null) => r?.outputs[format] ?? '';
    if ((before && before.outputs[format] === undefined) || (after && after.outputs[format] === undefined))
      throw notFound(`no ${format} of ${url}: the crawl's extract.formats does not include it`);
    const lines = diffLines(text(before), text(after));
    const fields = changedFields(before, after);
    const kind = !before ? 'new' : !after ? 'gone' : lines.unified === '' && !fields.length ? 'unchanged' : 'changed';
    const { unified, ...counts } = lines;
    return c.json({ url, previousCrawlId, kind, format, ...counts, diff: unified, fields });
  },
);
