import { z } from 'zod';
import { shownCredentialsSchema } from '../../../domain/credentials/access';
import { readJson } from '../api-client';
import { capped, json, textResult } from '../output';
import { crawlIdArg, expectOk, ownArgs, type Tool } from '../tool';
import { listedPage } from './pages';

const own = z.object({ crawlId: crawlIdArg });

/** Pages crawl_status lists, the most recently fetched first. */
const RECENT_PAGES = 10;
/** Seeds crawl_status shows of a crawl's config. */
const SHOWN_SEEDS = 10;

const crawlReply = z.object({
  id: z.string(),
  status: z.string(),
  counts: z.record(z.string(), z.number()),
  pending: z.number(),
  extraction: z.unknown().optional(),
  /** A crawl with credentials whose pages were refused, or whose login failed: what happened (no secret). */
  access: z.object({ refused: z.number(), sessionExpired: z.boolean(), message: z.string() }).loose().optional(),
  config: z
    .object({
      seeds: z.array(z.string()),
      scope: z.string(),
      maxPages: z.number().nullable(),
      maxDepth: z.number().nullable(),
      // Names and hosts only: the API never answers a credential's value.
      credentials: shownCredentialsSchema.nullish(),
    })
    .loose(),
  createdAt: z.string(),
});

const pagesReply = z.object({ pages: z.array(listedPage) });

export const crawlStatusTool: Tool = {
  name: 'crawl_status',
  title: 'Crawl status',
  description:
    'The state of a crawl: status (running, completed, cancelled), counts (discovered, fetched, stored, failed, ' +
    `skipped), URLs pending, its seeds and limits, and the ${RECENT_PAGES} pages it fetched last (url, title, ` +
    'HTTP status), and what it is let in with (the hosts, header and cookie names; never a value), with `access` ' +
    'saying when the site refused its pages (a session that expired, a failed login). Poll it every few seconds ' +
    'while the status is running.',
  input: own,
  readOnly: true,
  async run(args, api) {
    const { crawlId } = ownArgs(own, args);
    const base = `/v1/crawls/${encodeURIComponent(crawlId)}`;
    const [crawl, recent] = await Promise.all([
      api.get(base),
      api.get(`${base}/pages?order=recent&limit=${RECENT_PAGES}`),
    ]);
    const { config, ...state } = readJson(expectOk(crawl), crawlReply);
    const { pages } = readJson(expectOk(recent), pagesReply);
    const limits = { scope: config.scope, maxPages: config.maxPages, maxDepth: config.maxDepth };
    const seeds = config.seeds.slice(0, SHOWN_SEEDS);
    const credentials = config.credentials ? { credentials: credentialNames(config.credentials) } : {};
    const status = { ...state, seeds, seedCount: config.seeds.length, ...limits, ...credentials, recentPages: pages };
    return textResult(capped(json(status), 'the listing is long; search_pages reads pages in parts'));
  },
};

/** What crawl_status says of a crawl's credentials: where they go and their names (the API shows no value). */
function credentialNames(credentials: z.output<typeof shownCredentialsSchema>) {
  const { hosts, headers, cookies, authenticate, login } = credentials;
  return {
    hosts,
    headers,
    cookies: cookies.map((c) => c.name),
    authenticate,
    ...(login ? { login: login.url } : {}),
  };
}
