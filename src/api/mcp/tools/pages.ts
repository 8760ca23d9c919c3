import { z } from 'zod';
import { contentQuerySchema, pageListQuerySchema } from '../../schemas';
import { type ApiClient, readJson } from '../api-client';
import { capped, json, ToolError, textResult, window } from '../output';
import { crawlIdArg, expectOk, offsetArg, ownArgs, type Tool } from '../tool';

/** A page as the tools list it: what an agent needs to pick one to read. */
export const listedPage = z
  .object({ url: z.string(), title: z.string().nullable(), status: z.number() })
  .transform(({ url, title, status }) => ({ url, title, status }));

/** Pages search_pages lists unless told otherwise. */
const DEFAULT_LIMIT = 20;

const searchArgs = z.object({
  crawlId: crawlIdArg,
  q: pageListQuerySchema.shape.q
    .unwrap()
    .in.optional()
    .describe('Words that must all appear in the title, description or URL (case-insensitive); none: every page'),
  limit: pageListQuerySchema.shape.limit.unwrap().default(DEFAULT_LIMIT),
  cursor: pageListQuerySchema.shape.cursor.describe('The cursor a previous search_pages answered, to read on'),
});

export const searchPagesTool: Tool = {
  name: 'search_pages',
  title: 'Find pages of a crawl',
  description:
    'Lists stored pages of a crawl (url, title, HTTP status) in URL order, each content once (no duplicates), those whose title, description or URL ' +
    'holds every word of `q` (case-insensitive; the page text is not searched), or all of them without `q`. A ' +
    'non-null `cursor` in the answer means more may follow: pass it back as `cursor` (an answer can hold fewer ' +
    'pages than `limit`, even none, and still a cursor: a search reads the crawl in windows of 5,000 pages).',
  input: searchArgs,
  readOnly: true,
  async run(args, api) {
    const { crawlId, q, limit, cursor } = ownArgs(searchArgs, args);
    // Each content once: a duplicate has nothing of its own to read (its content is under the URL it names).
    const query = new URLSearchParams({ limit: String(limit), duplicates: 'exclude' });
    if (q !== undefined) query.set('q', q);
    if (cursor !== undefined) query.set('cursor', cursor);
    const text = expectOk(await api.get(`/v1/crawls/${encodeURIComponent(crawlId)}/pages?${query}`));
    const found = readJson(text, z.object({ pages: z.array(listedPage), cursor: z.string().nullable() }));
    return textResult(capped(json(found), 'ask for a smaller limit'));
  },
};

const getArgs = z.object({
  crawlId: crawlIdArg,
  url: contentQuerySchema.shape.url.describe("The page's URL, as search_pages or crawl_status list it"),
  format: z
    .enum([...contentQuerySchema.shape.format.unwrap().options, 'json', 'summary'])
    .default('markdown')
    .describe('markdown, text or html: that output; json or summary: what the language model answered of the page'),
  offset: offsetArg,
});

export const getPageTool: Tool = {
  name: 'get_page',
  title: 'Read a stored page',
  description:
    'A page a crawl stored, as markdown of its main content (`format`: "text" or "html" for those outputs of its ' +
    'extraction), read from storage without a request to the site. Long pages are cut at 20,000 characters: the ' +
    'result ends with the `offset` to call again with for the rest. A duplicate (its content stored once, under ' +
    'another URL) answers that page\'s content, after a line naming it. `format` "json" or "summary": the ' +
    "language model's JSON (pretty-printed) or summary of the page, when the crawl asked for it (extract.json, " +
    'extract.summary), with which model answered and how; or why there is none.',
  input: getArgs,
  readOnly: true,
  async run(args, api) {
    const { crawlId, url, format, offset } = ownArgs(getArgs, args);
    if (format === 'json' || format === 'summary') return modelPart(api, crawlId, url, format, offset);
    const query = new URLSearchParams({ url, format });
    const reply = await api.get(`/v1/crawls/${encodeURIComponent(crawlId)}/content?${query}`);
    const part = window(expectOk(reply), offset, (next) => `call get_page with offset: ${next}`);
    const kept = reply.ok ? reply.headers.get('x-edgecrawl-duplicate-of') : null;
    if (kept === null) return textResult(part);
    return textResult(`${url} is a duplicate of ${kept}: the content below is that page's.`, part);
  },
};

/** What get_page reads of a record for the model's part. */
const modelRecord = z
  .object({
    duplicateOf: z.string().nullish(),
    json: z.unknown().optional(),
    summary: z.string().optional(),
    model: z.object({ name: z.string(), answer: z.string() }).optional(),
    fieldErrors: z.record(z.string(), z.string()).optional(),
  })
  .loose();

/** A page's json (pretty) or summary from its record, after a line saying which model answered and how. */
async function modelPart(api: ApiClient, crawlId: string, url: string, format: 'json' | 'summary', offset: number) {
  const text = expectOk(
    await api.get(`/v1/crawls/${encodeURIComponent(crawlId)}/record?${new URLSearchParams({ url })}`),
  );
  const record = readJson(text, modelRecord);
  const value = format === 'json' ? record.json : record.summary;
  const how = record.model
    ? `model ${record.model.name}, answer: ${record.model.answer}`
    : 'no model answered this page';
  const lines = [
    record.duplicateOf ? `${url} is a duplicate of ${record.duplicateOf}: the record is that page's.` : '',
    how,
  ];
  if (value === undefined) {
    const why = format === 'json' ? record.fieldErrors?.json : undefined;
    throw new ToolError(
      `${url} has no ${format}: ${why ?? `the crawl did not ask for it (extract.formats has no "${format}"), or the model has not read the page yet`} (${how})`,
    );
  }
  const body = typeof value === 'string' ? value : JSON.stringify(value, null, 2);
  const part = window(body, offset, (next) => `call get_page with format "${format}" and offset: ${next}`);
  return textResult(lines.filter(Boolean).join('\n'), part);
}
