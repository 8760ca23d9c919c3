import { z } from 'zod';
import { storedCredentialsSchema } from '../credentials/access';
import { type CredentialRequest, crawlCredentialFields, hasCredentials } from '../credentials/fields';
import { type ExtractSpec, extractSpecSchema, selectorSchema } from '../extract/spec-schema';
import { DEFAULT_MAX_RENDERS, MAX_WAIT_FOR_MS, RENDER_MODES, screenshotOf } from '../render/rules';
import { allTraps, trapSettingsSchema } from '../traps/rules';
import { compileUrlCleaner } from '../url/link-policy';
import { normalizeUrl } from '../url/normalize';
import { checkPattern, compilePattern, PatternError } from '../url/patterns';
import { SCOPES } from '../url/scope';
import { DUPLICATE_MODES } from './duplicates';
import { MAX_CACHE_AGE_SECONDS } from './page-cache';
import { webhookSchema } from './webhook-setting';

/**
 * A crawl's settings, defined once: the API validates requests with `crawlSettingsSchema`, stored configs are read
 * back with `crawlConfigSchema` (the same fields), and the types and the OpenAPI document are derived from them.
 */

export const MAX_SEEDS = 1000;
/** URLs a crawl takes when it does not say (maxPages): enough for a site, and a crawl left alone always ends. */
export const DEFAULT_MAX_PAGES = 10_000;
/** What to do with more seeds than a crawl takes. */
export const MORE_SEEDS =
  "for more, start from a page or a sitemap that lists them (sitemaps: true reads the seeds' sitemaps), or split them over several crawls";
const MAX_PATTERNS = 100;
const MAX_IGNORED = 50;

/** A URL pattern (domain/url/patterns.ts): `check` throws a PatternError for one that is refused. */
const patternSchema = (check: (pattern: string) => void) =>
  z
    .string()
    .min(1)
    .max(1000)
    .superRefine((value, ctx) => {
      try {
        check(value);
      } catch (error) {
        if (error instanceof PatternError) ctx.addIssue({ code: 'custom', message: error.message });
        else throw error;
      }
    });
/** Patterns as a request gives them (checkPattern), or as a crawl stored them (compilePattern: an older rule). */
const patterns = (description: string, check: (pattern: string) => void = checkPattern) =>
  z.array(patternSchema(check)).max(MAX_PATTERNS).default([]).describe(description);

const PATTERNS =
  'URL patterns, matched against the whole URL: globs (https://example.com/blog/**, **/*.pdf; * stops at a /, ** does not), a regular expression after re: (re:/blog/\\d+$), or one tested against the path alone after path: (path:^/blog/).';

/** An absolute http(s) URL, normalized. */
export const seedUrlSchema = z
  .string()
  .max(8192)
  .transform((value, ctx) => {
    const url = normalizeUrl(value);
    if (url === null) {
      ctx.addIssue({ code: 'custom', message: `not an absolute http(s) URL: ${JSON.stringify(value.slice(0, 200))}` });
      return z.NEVER;
    }
    return url;
  })
  .meta({ format: 'uri' });

/** Rendering in a browser, for crawls, schedules and scrapes (docs/rendering.md). */
export const renderFields = {
  render: z
    .enum(RENDER_MODES)
    .default('auto')
    .describe('auto: only pages that need JavaScript are rendered in a browser; always; never.'),
  waitFor: z
    .union([z.number().int().min(0).max(MAX_WAIT_FOR_MS), selectorSchema])
    .nullable()
    .default(null)
    .describe(`What a render waits for: milliseconds (at most ${MAX_WAIT_FOR_MS}), or a CSS selector.`),
};

const count = (min: number, max: number) => z.number().int().min(min).max(max).nullable();

/**
 * What a crawl extracts when it is not told (as the CLI, the MCP tool, Firecrawl and Cloudflare's /crawl do): markdown
 * and metadata of each page's main content. A new object each time: a config is never shared.
 */
const defaultCrawlExtract = (): ExtractSpec => ({
  formats: ['markdown', 'metadata'],
  mainContent: true,
  include: [],
  exclude: [],
  fields: {},
});

/** Every setting of a crawl, each with its validation, default and description. */
const settings = {
  seeds: z
    .array(seedUrlSchema)
    .min(1)
    .max(MAX_SEEDS, `a crawl takes at most ${MAX_SEEDS} seeds; ${MORE_SEEDS}`)
    .describe(`Where the crawl starts (absolute http(s) URLs, at most ${MAX_SEEDS}).`),
  scope: z.enum(SCOPES).default('same-host').describe('Which discovered links the crawl follows.'),
  include: patterns(`${PATTERNS} A URL must match one to be crawled.`),
  exclude: patterns(`${PATTERNS} A URL that matches one is never crawled.`),
  maxDepth: count(0, 10_000).default(null).describe('Links followed from a seed; null: no limit.'),
  maxPages: count(1, 100_000_000)
    .default(DEFAULT_MAX_PAGES)
    .describe(
      `URLs the crawl takes at most (each fetched once; URLs a trap rule skipped and the sitemap files it reads do not count). Not given: ${DEFAULT_MAX_PAGES.toLocaleString('en-US')}, so a crawl left alone on the web always ends; null: no limit.`,
    ),
  maxPagesPerHost: count(1, 100_000_000)
    .default(null)
    .describe(
      "URLs the crawl takes at most of one host name (any scheme or port), for crawls of many hosts: one host's pages never use up the crawl's budget. null: no per-host limit.",
    ),
  traps: trapSettingsSchema.default(allTraps),
  hostIntervalMs: count(0, 600_000)
    .default(null)
    .describe(
      "Minimum gap between requests to one host, ms. A crawl may only slow down: at least the deployment's floor (HOST_MIN_INTERVAL_MS, 1000 unless configured), a smaller value is a 400 that names it; the host's robots.txt Crawl-delay can only raise it. null: the floor.",
    ),
  hostConcurrency: count(1, 256).default(null).describe('Requests in flight to one host at most; null: the default.'),
  sitemaps: z.boolean().default(false).describe("Read the seeds' sitemaps (robots.txt Sitemap lines, /sitemap.xml)."),
  links: z
    .boolean()
    .default(true)
    .describe(
      "Follow the links found on pages. false: only the seeds and, with sitemaps: true, the pages the seeds' sitemaps list are crawled (redirects and canonicals still are).",
    ),
  ignoreQuery: z
    .boolean()
    .default(false)
    .describe(
      'URLs that differ only by their query string are one page: every URL the crawl finds (seeds, links, sitemaps, redirects) is crawled without its query, once.',
    ),
  priority: z.enum(['high', 'normal']).default('normal').describe('high: ahead of normal work already queued.'),
  boost: patterns(`${PATTERNS} Hub pages fetched ahead of the rest of the crawl.`),
  webhook: webhookSchema
    .nullable()
    .default(null)
    .describe(
      "Where the crawl's events are POSTed (crawl.started, crawl.completed, crawl.cancelled, page.stored, page.failed, page.changed), in edgecrawl's format or Firecrawl's, signed.",
    ),
  extract: extractSpecSchema
    .nullable()
    .default(defaultCrawlExtract)
    .describe(
      'What each HTML page (and PDF) is extracted into; by default markdown and metadata of its main content. null: a plain crawl, the raw body, title and links only (no markdown: llms-full.txt, /content?format= and /record need an extraction).',
    ),
  ignore: z
    .array(selectorSchema)
    .max(MAX_IGNORED)
    .default([])
    .describe(
      'CSS selectors of noise (a timestamp, a token, a rotating ad): removed from each page before it is extracted, hashed and compared, so they never count as a change.',
    ),
  duplicates: z
    .enum(DUPLICATE_MODES)
    .default('skip')
    .describe(
      'skip: a page whose rel=canonical names another URL of the crawl, or whose content another page had first, is recorded as a duplicate of it (no second copy); similar: also a page whose main text is almost the same as a page the crawl had first (another sort order, a changing counter), recorded with its similarity; keep: every URL stored.',
    ),
  retentionDays: count(1, 3650).default(null).describe("Days the crawl's data is kept once it ended; null: kept."),
  previousCrawlId: z
    .uuid()
    .nullable()
    .default(null)
    .describe(
      'Compare with this earlier crawl: pages are counted new, changed, unchanged or gone, with diffs (GET .../changes, .../diff) and page.changed events. Not for schedules, whose runs are compared with the run before.',
    ),
  maxAge: count(0, MAX_CACHE_AGE_SECONDS)
    .default(null)
    .describe(
      "Page cache: a page any crawl or scrape stored at most this many seconds ago is taken from its stored copy (no request to the site), extracted with this crawl's spec; null or 0: every page is fetched.",
    ),
  ...renderFields,
  maxModelPages: count(0, 100_000_000)
    .default(null)
    .describe(
      'Pages a language model may read for the crawl (formats json and summary; answers reused from the cache and pages read by learned selectors do not count); past it pages are stored without json or summary, with a warning. null: no cap.',
    ),
  maxRenders: count(0, 100_000_000)
    .default(DEFAULT_MAX_RENDERS)
    .describe('Renders the crawl may make (then pages are stored unrendered, with a warning); null: no cap.'),
};

/** A screenshot is taken in a browser: not with render "never". */
export const screenshotNeedsBrowser = (c: { render: string; extract: { formats: readonly string[] } | null }) =>
  c.render !== 'never' || screenshotOf(c.extract?.formats) === null;
export const SCREENSHOT_NEEDS_BROWSER = {
  message: 'a screenshot is taken in a browser: it cannot be asked for with render "never"',
  path: ['render'],
};

const uniqueSeeds = <C extends { seeds: string[] }>(c: C): C => ({ ...c, seeds: [...new Set(c.seeds)] });
/**
 * A crawl's seeds as it crawls them: cleaned as every URL it finds is (session ids stripped, unless turned off; the
 * query, with ignoreQuery).
 */
const cleanSeeds = <C extends { seeds: string[]; traps: { sessionParams: boolean }; ignoreQuery: boolean }>(c: C): C =>
  uniqueSeeds({ ...c, seeds: c.seeds.map(compileUrlCleaner(c)) });

/** `credentialsFor` names where credentials go: it says nothing without them. */
export const credentialsForNeedsCredentials = (c: CredentialRequest) =>
  c.credentialsFor === undefined || hasCredentials(c);
export const CREDENTIALS_FOR_ALONE = {
  message: 'credentialsFor names the hosts headers, cookies, authenticate or login are sent to: give one of them',
  path: ['credentialsFor'],
};

/**
 * A crawl as the API takes it (POST /v1/crawls, a schedule's crawl), field by field, with the credentials it is let in
 * with (domain/credentials/fields.ts: sealed before it is stored). Unknown fields are an error.
 */
export const crawlSettingsObject = z.object({ ...settings, ...crawlCredentialFields }).strict();

/** The same, with the checks across fields: what POST /v1/crawls validates. */
export const crawlSettingsSchema = crawlSettingsObject
  .refine(screenshotNeedsBrowser, SCREENSHOT_NEEDS_BROWSER)
  .refine(credentialsForNeedsCredentials, CREDENTIALS_FOR_ALONE)
  .transform(cleanSeeds)
  .meta({ id: 'CrawlSettings' });

/**
 * A crawl's config as stored (D1's crawls and schedules rows, the crawl's Durable Object): its settings, read with the
 * same schema (a row written before a setting existed gets its default), and what the scheduler adds.
 */
export const crawlConfigSchema = z
  .object({
    ...settings,
    include: patterns('', compilePattern),
    exclude: patterns('', compilePattern),
    boost: patterns('', compilePattern),
    // A stored config without `extract` was written before crawls extracted: it was a plain crawl.
    extract: settings.extract.removeDefault().default(null),
    /**
     * Set by the scheduler (never by the API): the crawl is a recrawl, tracking what changed. With a previous
     * crawl id, requests are conditional on what that crawl fetched; `true` for a schedule's first run.
     */
    recrawlOf: z.union([z.string(), z.literal(true)]).optional(),
    /** What the crawl is let in with: names shown, secrets sealed (null: none; see credentials.ts). */
    credentials: storedCredentialsSchema.nullable().default(null),
  })
  .transform(uniqueSeeds);

export type CrawlConfig = z.output<typeof crawlConfigSchema>;
/** A crawl as the API validated it: its credentials in the clear, not yet sealed (credentials.ts configOf). */
export type CrawlSettings = z.output<typeof crawlSettingsSchema>;

/** The spec a crawl's pages are extracted with: its own, with the `ignore` selectors removed from the content too. */
export function extractionOf(config: Pick<CrawlConfig, 'extract' | 'ignore'>): ExtractSpec | null {
  const { extract, ignore } = config;
  if (!extract || ignore.length === 0) return extract;
  return { ...extract, exclude: [...new Set([...extract.exclude, ...ignore])] };
}

/**
 * What a recrawl that does not extract compares its pages by: their main text (what a reader sees, not the markup's
 * tokens and timestamps), `ignore` removed. Nothing of it is stored.
 */
export function comparisonOf(config: Pick<CrawlConfig, 'ignore'>): ExtractSpec {
  return { formats: ['text'], mainContent: true, include: [], exclude: config.ignore, fields: {} };
}
