import { mapResultSchema } from '../../responses';
import { mapSchema } from '../../schemas';
import { readJson } from '../api-client';
import { capped, textResult } from '../output';
import { expectOk, type Tool } from '../tool';

/** URLs a map made here lists unless told otherwise (an agent reads them all: fewer than the API's default). */
const DEFAULT_LIMIT = 500;

const fields = mapSchema.shape;

export const mapTool: Tool = {
  name: 'map',
  title: "List a site's URLs",
  description:
    'Lists the URLs of a site fast, without fetching its pages: its sitemaps (robots.txt Sitemap lines and ' +
    '/sitemap.xml, indexes, gzip) and the links of `url`, normalized and deduplicated, within `scope`. With ' +
    '`search`, URLs whose path holds more of its words come first. One URL a line, with its lastmod when known. ' +
    'Then scrape one URL, or crawl the ones you need.',
  input: mapSchema.extend({ limit: fields.limit.unwrap().default(DEFAULT_LIMIT) }),
  readOnly: false,
  async run(args, api) {
    const text = expectOk(await api.post('/v1/map', { limit: DEFAULT_LIMIT, ...args }));
    const answer = readJson(text, mapResultSchema);
    const lines = answer.urls.map((u) => (u.lastmod ? `${u.url}  (lastmod ${u.lastmod})` : u.url));
    const head = `${answer.urls.length} URLs${answer.truncated ? ` (cut at the limit; ${answer.total}+ found)` : ''}`;
    const warnings = answer.warnings.length > 0 ? `\nwarnings: ${answer.warnings.join('; ')}` : '';
    return textResult(capped(`${head}${warnings}\n${lines.join('\n')}`, 'ask for a smaller limit or a search'));
  },
};
