import { z } from 'zod';
import { contentQuerySchema, pageListQuerySchema } from '../../schemas';
import { readJson } from '../api-client';
import { capped, json, textResult, window } from '../output';
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
  format: contentQuerySchema.shape.format.unwrap().default('markdown'),
  offset: offsetArg,
});

export const getPageTool: Tool = {
  name: 'get_page',
  title: 'Read a stored page',
  description:
    'A page a crawl stored, as markdown of its main content (`format`: "text" or "html" for those outputs of its ' +
    'extraction), read from storage without a request to the site. Long pages are cut at 20,000 characters: the ' +
    'result ends with the `offset` to call again with for the rest. A duplicate (its content stored once, under ' +
    "another URL) answers that page's content, after a line naming it.",
  input: getArgs,
  readOnly: true,
  async run(args, api) {
    const { crawlId, url, format, offset } = ownArgs(getArgs, args);
    const query = new URLSearchParams({ url, format });
    const reply = await api.get(`/v1/crawls/${encodeURIComponent(crawlId)}/content?${query}`);
    const part = window(expectOk(reply), offset, (next) => `call get_page with offset: ${next}`);
    const kept = reply.ok ? reply.headers.get('x-edgecrawl-duplicate-of') : null;
    if (kept === null) return textResult(part);
    return textResult(`${url} is a duplicate of ${kept}: the content below is that page's.`, part);
  },
};
