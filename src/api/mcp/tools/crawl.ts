import { z } from 'zod';
import { crawlRequestObject } from '../../schemas';
import { readJson } from '../api-client';
import { MODEL_ARG_KEYS, modelArgs, withModelArgs } from '../model-args';
import { json, textResult } from '../output';
import { apiArgs, expectOk, ownArgs, type Tool } from '../tool';

/** Pages a crawl started here takes at most unless told otherwise (the API's own default is 10,000: DEFAULT_MAX_PAGES). */
const DEFAULT_MAX_PAGES = 100;

const fields = crawlRequestObject.shape;

export const crawlTool: Tool = {
  name: 'crawl',
  title: 'Start a crawl',
  description:
    'Starts crawling from `seeds` (absolute http(s) URLs) and answers at once with the crawl id; the crawl runs on ' +
    "its own, politely (robots.txt, each host's rate limit). Follows links within `scope` (default same-host), up " +
    `to \`maxDepth\` links from a seed and \`maxPages\` pages (default ${DEFAULT_MAX_PAGES} here; null: no cap), ` +
    '`maxPagesPerHost` of any one host; crawler traps (calendars, facets, session ids, soft 404s) are skipped unless ' +
    '`traps` turns a rule off. ' +
    '`include`/`exclude` are URL patterns (`**/blog/**`). Each HTML page is extracted to markdown and metadata ' +
    '(`extract` changes that; null: only the raw body, title and links). Then: crawl_status until it is completed, search_pages to find pages, get_page to ' +
    'read one. A language model, when the deployment has one: `jsonSchema` and/or `prompt` ask it for JSON of ' +
    'each page, `summaryPrompt` for a summary (or extract.json / extract.summary); `maxModelPages` caps the pages ' +
    'it reads; get_page with format "json" or "summary" reads them. Behind a login: `headers`, `cookies`, ' +
    "`authenticate` (HTTP basic) or `login` (a form filled in once when the crawl starts) are sent to the seeds' " +
    'hosts only (or `credentialsFor`); their values are sealed and never shown back, not by crawl_status either ' +
    "(it names them). They need the deployment's CREDENTIALS_KEY.",
  input: z
    .object({
      seeds: fields.seeds,
      scope: fields.scope,
      maxDepth: fields.maxDepth,
      maxPages: fields.maxPages.unwrap().default(DEFAULT_MAX_PAGES),
      maxPagesPerHost: fields.maxPagesPerHost,
      traps: fields.traps,
      include: fields.include,
      exclude: fields.exclude,
      extract: fields.extract,
      render: fields.render,
      maxModelPages: fields.maxModelPages,
      headers: fields.headers,
      cookies: fields.cookies,
      authenticate: fields.authenticate,
      credentialsFor: fields.credentialsFor,
      login: fields.login,
      ...modelArgs.shape,
    })
    .strict(),
  readOnly: false,
  async run(args, api) {
    // The tool's default where the API's differs (maxPages); everything else (and every check) is the API's.
    const model = ownArgs(modelArgs, args);
    const body = withModelArgs({ maxPages: DEFAULT_MAX_PAGES, ...apiArgs(args, MODEL_ARG_KEYS) }, model);
    const text = expectOk(await api.post('/v1/crawls', body));
    const started = readJson(text, z.object({ id: z.string(), status: z.string() }));
    return textResult(json(started), `Started. Poll crawl_status with crawlId "${started.id}" until it is completed.`);
  },
};
