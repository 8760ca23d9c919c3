import { z } from 'zod';
import { DEFAULT_SCRAPE_MAX_AGE_SECONDS, MAX_CACHE_AGE_SECONDS } from '../domain/crawl/page-cache';
import {
  CREDENTIALS_FOR_ALONE,
  crawlSettingsObject,
  crawlSettingsSchema,
  credentialsForNeedsCredentials,
  renderFields,
  SCREENSHOT_NEEDS_BROWSER,
  screenshotNeedsBrowser,
  seedUrlSchema,
} from '../domain/crawl/settings';
import { credentialFields } from '../domain/credentials/fields';
import { OUTPUT_FORMATS } from '../domain/extract/spec';
import { extractSpecSchema } from '../domain/extract/spec-schema';
import { actionsSchema } from '../domain/render/actions';
import { SCOPES } from '../domain/url/scope';
import { DUPLICATE_FILTERS } from '../storage/d1/page-views';
import { pageFilterFields } from './page-filter-schemas';

/** Largest JSON body the API reads. */
export const MAX_BODY_BYTES = 256 * 1024;

/** POST /v1/crawls: a crawl's settings, defined once in the domain. */
export const createCrawlSchema = crawlSettingsSchema;
/** Its fields, before the checks across fields (the MCP `crawl` tool picks from them). */
export const crawlRequestObject = crawlSettingsObject;

/** What a scrape extracts when it is not told: markdown and metadata of the main content. */
const DEFAULT_EXTRACT = { formats: ['markdown', 'metadata'], mainContent: true, include: [], exclude: [], fields: {} };

/** The fields of POST /v1/scrape, before the checks across fields (the MCP `scrape` tool lists them). */
export const scrapeRequestObject = z
  .object({
    url: seedUrlSchema,
    extract: extractSpecSchema.optional(),
    /** Shorthand for extract.formats (as Firecrawl's scrape takes them), the rest of the spec by default. */
    formats: z.array(z.enum(OUTPUT_FORMATS)).min(1).max(OUTPUT_FORMATS.length).optional(),
    ...renderFields,
    actions: actionsSchema.default([]),
    ...credentialFields,
    maxAge: z
      .number()
      .int()
      .min(0)
      .max(MAX_CACHE_AGE_SECONDS)
      .default(DEFAULT_SCRAPE_MAX_AGE_SECONDS)
      .describe(
        `Page cache: a page any crawl or scrape stored at most this many seconds ago is answered from its stored copy (no request to the site), extracted with this spec; 0: always fetched. Not with actions, a screenshot or credentials (a scrape with credentials is always fetched, and kept for no one). Default ${DEFAULT_SCRAPE_MAX_AGE_SECONDS}, at most ${MAX_CACHE_AGE_SECONDS} (30 days).`,
      ),
  })
  .strict();

/** POST /v1/scrape. */
export const scrapeSchema = scrapeRequestObject
  .refine((s) => s.formats === undefined || s.extract === undefined, {
    message: 'give formats alone, or inside extract: not both',
    path: ['formats'],
  })
  .transform(({ formats, extract, ...s }) => ({
    ...s,
    extract: extract ?? extractSpecSchema.parse({ ...DEFAULT_EXTRACT, ...(formats ? { formats } : {}) }),
  }))
  .refine((s) => s.actions.length === 0 || s.render !== 'never', {
    message: 'actions need a browser: they cannot be used with render "never"',
    path: ['actions'],
  })
  .refine(screenshotNeedsBrowser, SCREENSHOT_NEEDS_BROWSER)
  .refine(credentialsForNeedsCredentials, CREDENTIALS_FOR_ALONE);

/** POST /v1/map: a site's URLs from its sitemaps and its start page's links. */
export const mapSchema = z
  .object({
    url: seedUrlSchema.describe("Where the map starts: its origin's sitemaps and its links are read."),
    limit: z.number().int().min(1).max(100_000).default(5000).describe('URLs answered at most.'),
    search: z.string().max(200).optional().describe('Words: URLs whose path or title holds more of them come first.'),
    scope: z.enum(SCOPES).default('same-host').describe("Which URLs belong to the site, as a crawl's scope."),
    sitemaps: z.boolean().default(true).describe('Read robots.txt Sitemap lines and /sitemap.xml (indexes, gzip).'),
    links: z.boolean().default(true).describe('Add the links of the start page.'),
  })
  .strict();

export const crawlIdSchema = z.uuid({ message: 'crawl id must be a UUID' });

/** Words a page search takes at most (each is a LIKE over title, description and URL). */
const MAX_SEARCH_WORDS = 8;

export const pageListQuerySchema = z
  .object({
    limit: z.coerce.number().int().min(1).max(1000).default(100),
    cursor: z.string().max(4096).optional(),
    /** 'url' (the default): in URL order; 'recent': most recently fetched first. */
    order: z.enum(['url', 'recent']).default('url'),
    q: z
      .string()
      .max(500)
      .transform((q) => q.split(/\s+/).filter((word) => word !== ''))
      .refine((words) => words.length <= MAX_SEARCH_WORDS, `q takes at most ${MAX_SEARCH_WORDS} words`)
      .optional()
      .describe("Words that must each appear (ASCII case-insensitive) in the page's title, description or URL."),
    duplicates: z
      .enum(DUPLICATE_FILTERS)
      .default('include')
      .describe('include: every page; exclude: no duplicates (each content once); only: the duplicates alone.'),
    ...pageFilterFields,
  })
  .strict()
  .refine((query) => query.q === undefined || query.q.length === 0 || query.order === 'url', {
    message: 'q lists matching pages in URL order: it cannot be used with order=recent',
    path: ['q'],
  })
  .refine(
    (query) =>
      query.order === 'url' ||
      [query.status, query.contentType, query.change, query.rendered, query.outcome, query.text].every(
        (f) => f === undefined,
      ),
    { message: 'filters list matching pages in URL order: they cannot be used with order=recent', path: ['order'] },
  );

export const errorListQuerySchema = z
  .object({
    limit: z.coerce.number().int().min(1).max(1000).default(100),
    cursor: z.string().max(4096).optional(),
    outcome: z.enum(['failed', 'skipped']).optional(),
  })
  .strict();

/**
 * POST /v1/crawls/:id/retry-errors: an empty body, a cap on how many to retry in this call, or the URLs
 * to retry (those of them that failed; others are left alone).
 */
export const retryErrorsSchema = z
  .object({
    limit: z.number().int().min(1).max(10_000).default(5000),
    urls: z.array(seedUrlSchema).min(1).max(1000).optional(),
  })
  .strict();

/** GET /v1/crawls/:id/content: the raw body, or with `format` one of the page's extracted outputs. */
export const contentQuerySchema = z
  .object({
    url: z.string().min(1).max(8192),
    format: z.enum(['markdown', 'text', 'html']).optional(),
    /** 'fetched': a rendered page's HTML as fetched, before its scripts ran (the stored body is the rendered DOM). */
    source: z.enum(['stored', 'fetched']).default('stored'),
  })
  .strict();

export const recordQuerySchema = z.object({ url: z.string().min(1).max(8192) }).strict();

export const crawlListQuerySchema = z
  .object({ limit: z.coerce.number().int().min(1).max(1000).default(50), cursor: z.string().max(4096).optional() })
  .strict();

/** Cursors: where the last listing stopped (crawls by creation time, pages by fetch time, rows by URL or id). */
export const crawlCursorSchema = z.object({ c: z.number().int(), i: z.string() }).strict();
export const recentCursorSchema = z.object({ t: z.number().int(), u: z.string().min(1) }).strict();
export const keyCursorSchema = z.string().min(1);

/** POST /v1/crawls/:id/reextract: the spec the stored pages are extracted with again. */
export const reextractSchema = z.object({ extract: extractSpecSchema }).strict();

/** DELETE /v1/crawls/:id: purge=true deletes everything the crawl stored, not just cancels it. */
export const deleteQuerySchema = z
  .object({
    purge: z
      .enum(['true', 'false'], { message: 'purge must be true or false' })
      .default('false')
      .transform((v) => v === 'true'),
  })
  .strict();
