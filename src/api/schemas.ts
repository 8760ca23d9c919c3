import { z } from 'zod';
import { selectorError } from '../domain/extract/dom';
import { FIELD_TYPES, type FieldSpec, OUTPUT_FORMATS, SPEC_LIMITS } from '../domain/extract/spec';
import { normalizeUrl } from '../domain/normalize';
import { compilePattern, PatternError } from '../domain/patterns';
import { ACTION_KEYS, DEFAULT_MAX_RENDERS, MAX_WAIT_FOR_MS, RENDER_MODES, screenshotOf } from '../domain/render';
import { SCOPES } from '../domain/scope';

/** Largest JSON body the API reads. */
export const MAX_BODY_BYTES = 256 * 1024;
const MAX_SEEDS = 1000;
const MAX_PATTERNS = 100;

const pattern = z
  .string()
  .min(1)
  .max(1000)
  .superRefine((value, ctx) => {
    try {
      compilePattern(value);
    } catch (error) {
      if (error instanceof PatternError) ctx.addIssue({ code: 'custom', message: error.message });
      else throw error;
    }
  });

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
  });

const selector = z
  .string()
  .min(1)
  .max(SPEC_LIMITS.selectorLength)
  .superRefine((value, ctx) => {
    const error = selectorError(value);
    if (error) ctx.addIssue({ code: 'custom', message: `invalid CSS selector ${JSON.stringify(value)}: ${error}` });
  });

const FIELD_NAME = /^[A-Za-z_][\w-]{0,63}$/;

const fieldSpec: z.ZodType<FieldSpec> = z.lazy(() =>
  z
    .object({
      selector,
      attr: z.string().min(1).max(100).optional(),
      type: z.enum(FIELD_TYPES).optional(),
      list: z.boolean().optional(),
      fields: z.record(z.string(), fieldSpec).optional(),
    })
    .strict(),
);

/** Fields in a spec, nested ones included, how deep they nest, and a name that is not a valid one. */
function fieldShape(fields: Record<string, FieldSpec>, depth = 1): { count: number; depth: number; badName?: string } {
  let count = 0;
  let deepest = depth;
  let badName: string | undefined;
  for (const [name, spec] of Object.entries(fields)) {
    count++;
    if (!FIELD_NAME.test(name)) badName ??= name;
    if (spec.fields) {
      const inner = fieldShape(spec.fields, depth + 1);
      count += inner.count;
      deepest = Math.max(deepest, inner.depth);
      badName ??= inner.badName;
    }
  }
  return badName === undefined ? { count, depth: deepest } : { count, depth: deepest, badName };
}

/** `extract` of a crawl, a schedule's crawl or a scrape: which outputs each HTML page gets. */
export const extractSpecSchema = z
  .object({
    formats: z.array(z.enum(OUTPUT_FORMATS)).min(1).max(OUTPUT_FORMATS.length).default(['markdown', 'metadata']),
    mainContent: z.union([z.boolean(), z.object({ selector }).strict()]).default(true),
    include: z.array(selector).max(SPEC_LIMITS.selectors).default([]),
    exclude: z.array(selector).max(SPEC_LIMITS.selectors).default([]),
    fields: z.record(z.string(), fieldSpec).default({}),
  })
  .strict()
  .superRefine((spec, ctx) => {
    const shape = fieldShape(spec.fields);
    if (shape.count > SPEC_LIMITS.fields)
      ctx.addIssue({
        code: 'custom',
        path: ['fields'],
        message: `at most ${SPEC_LIMITS.fields} fields, nested ones included (got ${shape.count})`,
      });
    if (shape.depth > SPEC_LIMITS.depth)
      ctx.addIssue({ code: 'custom', path: ['fields'], message: `fields nest at most ${SPEC_LIMITS.depth} deep` });
    if (shape.badName !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['fields'],
        message: `field names are letters, digits, _ and - (at most 64), starting with a letter or _: ${JSON.stringify(shape.badName.slice(0, 80))}`,
      });
    }
  })
  .transform((spec) => ({ ...spec, formats: [...new Set(spec.formats)] }));

/** `waitFor`: milliseconds to wait after the page loads, or a CSS selector to wait for (bounded by MAX_WAIT_FOR_MS). */
const waitForSchema = z.union([z.number().int().min(0).max(MAX_WAIT_FOR_MS), selector]);

/** Rendering in a browser, for crawls, schedules and scrapes (docs/rendering.md). */
export const renderFields = {
  render: z.enum(RENDER_MODES).default('auto'),
  waitFor: waitForSchema.nullable().default(null),
};

/** `actions` of a scrape: what is done in the rendered page, in order, before it is read. */
export const actionsSchema = z
  .array(
    z.discriminatedUnion('type', [
      z
        .object({
          type: z.literal('wait'),
          milliseconds: z.number().int().min(0).max(MAX_WAIT_FOR_MS).optional(),
          selector: selector.optional(),
        })
        .strict()
        .refine((a) => (a.milliseconds === undefined) !== (a.selector === undefined), {
          message: 'a wait action takes milliseconds or a selector',
        }),
      z.object({ type: z.literal('click'), selector }).strict(),
      z.object({ type: z.literal('type'), selector, text: z.string().max(10_000) }).strict(),
      z.object({ type: z.literal('write'), text: z.string().max(10_000) }).strict(),
      z.object({ type: z.literal('press'), key: z.enum(ACTION_KEYS) }).strict(),
      z
        .object({
          type: z.literal('scroll'),
          direction: z.enum(['up', 'down']).default('down'),
          amount: z.number().int().min(1).max(100_000).optional(),
        })
        .strict(),
    ]),
  )
  .max(20);

/** A screenshot is taken in a browser: not with render "never". */
export const screenshotNeedsBrowser = (c: { render: string; extract: { formats: readonly string[] } | null }) =>
  c.render !== 'never' || screenshotOf(c.extract?.formats) === null;
export const SCREENSHOT_NEEDS_BROWSER = {
  message: 'a screenshot is taken in a browser: it cannot be asked for with render "never"',
  path: ['render'],
};

/** The fields of POST /v1/crawls, before the checks across fields (the MCP `crawl` tool picks from them). */
export const crawlRequestObject = z
  .object({
    seeds: z.array(seedUrlSchema).min(1).max(MAX_SEEDS),
    scope: z.enum(SCOPES).default('same-host'),
    include: z.array(pattern).max(MAX_PATTERNS).default([]),
    exclude: z.array(pattern).max(MAX_PATTERNS).default([]),
    maxDepth: z.number().int().min(0).max(10_000).nullable().default(null),
    maxPages: z.number().int().min(1).max(100_000_000).nullable().default(null),
    hostIntervalMs: z.number().int().min(0).max(600_000).nullable().default(null),
    hostConcurrency: z.number().int().min(1).max(256).nullable().default(null),
    sitemaps: z.boolean().default(false),
    priority: z.enum(['high', 'normal']).default('normal'),
    boost: z.array(pattern).max(MAX_PATTERNS).default([]),
    webhook: z
      .object({
        url: z.url({ protocol: /^https?$/, message: 'webhook.url must be an absolute http(s) URL' }).max(2048),
        secret: z.string().min(16, 'webhook.secret must be at least 16 characters').max(256),
      })
      .strict()
      .nullable()
      .default(null),
    extract: extractSpecSchema.nullable().default(null),
    /** Days to keep the crawl's data once it has ended (then purged by the cron trigger); null: until deleted. */
    retentionDays: z.number().int().min(1).max(3650).nullable().default(null),
    ...renderFields,
    /** Renders the crawl may make; then pages are stored unrendered with a warning. null: no cap. */
    maxRenders: z.number().int().min(0).max(100_000_000).nullable().default(DEFAULT_MAX_RENDERS),
  })
  .strict();

/** POST /v1/crawls. Unknown fields are rejected, so a typo is an error rather than a silent default. */
export const createCrawlSchema = crawlRequestObject
  .refine(screenshotNeedsBrowser, SCREENSHOT_NEEDS_BROWSER)
  .transform((c) => ({ ...c, seeds: [...new Set(c.seeds)] }));

export const crawlIdSchema = z.uuid({ message: 'crawl id must be a UUID' });

/** Words a page search takes at most (each is a LIKE over title, description and URL). */
const MAX_SEARCH_WORDS = 8;

export const pageListQuerySchema = z
  .object({
    limit: z.coerce.number().int().min(1).max(1000).default(100),
    cursor: z.string().max(4096).optional(),
    /** 'url' (the default): in URL order; 'recent': most recently fetched first. */
    order: z.enum(['url', 'recent']).default('url'),
    /** Words that must each appear (ASCII case-insensitive) in the page's title, description or URL. */
    q: z
      .string()
      .max(500)
      .transform((q) => q.split(/\s+/).filter((word) => word !== ''))
      .refine((words) => words.length <= MAX_SEARCH_WORDS, `q takes at most ${MAX_SEARCH_WORDS} words`)
      .optional(),
  })
  .strict()
  .refine((query) => query.q === undefined || query.q.length === 0 || query.order === 'url', {
    message: 'q lists matching pages in URL order: it cannot be used with order=recent',
    path: ['q'],
  });

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
