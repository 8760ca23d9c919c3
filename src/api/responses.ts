import { z } from 'zod';
import { OUTCOME_CODES } from '../domain/crawl/outcome-codes';
import { CHANGE_KINDS } from '../domain/crawl/reach';
import { crawlSettingsSchema } from '../domain/crawl/settings';
import { metadataValueSchema, WEBHOOK_EVENTS, WEBHOOK_FORMATS } from '../domain/crawl/webhook-setting';
import { shownCredentialsSchema } from '../domain/credentials/access';
import { TRAP_RULES } from '../domain/traps/rules';

/**
 * What each /v1 route answers, as zod schemas: the OpenAPI document is generated from them, the dashboard's and the
 * CLI's types are derived from them, and with CHECK_RESPONSES set (the tests) every JSON answer is checked against
 * its route's schema (openapi/check.ts).
 */

const isoTime = z.iso.datetime({ offset: true }).describe('ISO 8601 time');
const cursor = z.string().nullable().describe('Pass back as `cursor` for the next page; null at the end.');
const crawlStatus = z.enum(['running', 'completed', 'cancelled']);

export const errorSchema = z
  .object({ error: z.object({ code: z.string(), message: z.string() }) })
  .meta({ id: 'Error', description: 'Every error: a stable machine-readable code and a message for people.' });

const countsSchema = z
  .object({
    discovered: z
      .number()
      .int()
      .describe('Unique in-scope URLs accepted; each ends stored, duplicate, failed or skipped.'),
    fetched: z.number().int().describe('HTTP responses received (any status).'),
    stored: z.number().int(),
    failed: z.number().int(),
    skipped: z.number().int(),
    duplicates: z
      .number()
      .int()
      .describe('Pages recorded as a duplicate of another URL of the crawl (their content stored once, there).'),
  })
  .meta({ id: 'Counts' });

/** A crawl's webhook as shown: its secret and its headers' values are write-only (secrets of the receiver's). */
const shownWebhookSchema = z.object({
  url: z.string(),
  format: z.enum(WEBHOOK_FORMATS),
  events: z.array(z.enum(WEBHOOK_EVENTS)).optional(),
  headerNames: z.array(z.string()).optional().describe('The names of the headers sent with each delivery.'),
  metadata: z.record(z.string(), metadataValueSchema).optional(),
});

/** The request fields of a crawl's credentials: write-only, shown as `credentials` (names, never values). */
const {
  headers: _h,
  cookies: _c,
  authenticate: _a,
  credentialsFor: _f,
  login: _l,
  ...shownSettings
} = crawlSettingsSchema.in.shape;

/** A crawl's settings as shown: the webhook's secret and headers, and the credentials' values, are write-only. */
const shownConfigSchema = z
  .object({
    ...shownSettings,
    webhook: shownWebhookSchema.nullable(),
    recrawlOf: z.union([z.string(), z.literal(true)]).optional(),
    credentials: shownCredentialsSchema
      .nullable()
      .optional()
      .describe(
        'What the crawl is let in with (headers, cookies, basic credentials, a login): names and hosts, never values.',
      ),
  })
  .meta({ id: 'CrawlConfig' });

export const crawlCreatedSchema = z.object({ id: z.uuid(), status: z.literal('running') });

const changeCountsSchema = z
  .object({
    new: z.number().int().describe('Stored now; the previous crawl had no such page although it would have found it.'),
    changed: z.number().int(),
    unchanged: z.number().int(),
    gone: z
      .number()
      .int()
      .describe(
        'Stored by the previous crawl; the site no longer has it: its URL answered 404, 410, 301 or 308, or no page this crawl fetched links to it (counted only when this crawl followed every link it found).',
      ),
    unreached: z
      .number()
      .int()
      .describe(
        'Stored by the previous crawl, not reached by this one (maxPages, maxDepth, cancel, a failure, not found yet): not gone.',
      ),
    unreachedBefore: z
      .number()
      .int()
      .describe('Stored now, not reached by the previous crawl (it was capped, cancelled or failed): not new.'),
    provisional: z
      .boolean()
      .describe('A crawl of the two still runs: pages not reached yet count as unreached, and the figures move.'),
  })
  .meta({ id: 'ChangeCounts' });

export const crawlListSchema = z.object({
  crawls: z.array(
    z.object({
      id: z.uuid(),
      status: crawlStatus,
      seeds: z.array(z.string()),
      createdAt: isoTime,
      finishedAt: isoTime.nullable().describe('When it completed or was cancelled; null: running.'),
      scheduleId: z.uuid().nullable().describe('The schedule this crawl is a run of; null: started by hand.'),
      counts: countsSchema
        .nullable()
        .describe("Its counts (null when they cannot be read: the crawl's object is gone)."),
      changes: changeCountsSchema
        .nullable()
        .describe("A recrawl's pages by kind (a schedule's runs, previousCrawlId); null for other crawls."),
      pending: z.number().int().nullable().describe('URLs not yet done.'),
      pagesPerSecond: z
        .number()
        .nullable()
        .describe('Pages fetched per second on average, from its start to its end (or now while it runs).'),
      usd: z
        .number()
        .nullable()
        .describe(
          'Estimated cost so far in US dollars (GET /v1/crawls/:id/usage has the breakdown); for an ended crawl, as it ended.',
        ),
    }),
  ),
  cursor,
});

export const crawlSchema = z
  .object({
    id: z.uuid(),
    status: crawlStatus,
    counts: countsSchema,
    changes: changeCountsSchema
      .optional()
      .describe('A recrawl: its pages new, changed, unchanged, gone, unreached (and unreached before).'),
    pending: z.number().int().describe('URLs queued or in flight.'),
    extraction: z
      .object({ status: z.enum(['running', 'completed']), done: z.number().int(), total: z.number().int() })
      .optional()
      .describe('A re-extraction (POST /reextract) and its progress.'),
    access: z
      .object({
        refused: z.number().int().describe('URLs that answered 401 (or 403 to credentials) or sent to the login page.'),
        loginFailed: z.boolean().describe('The form login did not get past the login page: nothing was crawled.'),
        sessionExpired: z.boolean().describe('Pages were read with the credentials, then refused.'),
        message: z.string(),
      })
      .optional()
      .describe('A crawl with credentials whose pages were refused, or whose login failed: what happened.'),
    config: shownConfigSchema.describe(
      'The crawl as it was started, its extract the spec its records follow (after POST /reextract, the new one).',
    ),
    createdAt: isoTime,
    finishedAt: isoTime.nullable().describe('When it completed or was cancelled; null: running.'),
  })
  .meta({ id: 'Crawl' });

export const cancelledSchema = z.object({ id: z.uuid(), status: crawlStatus, counts: countsSchema });
export const purgedSchema = z.object({
  id: z.uuid(),
  purged: z.boolean().describe('false: the rest is removed by the cron trigger'),
});
export const reextractStartedSchema = z.object({
  id: z.uuid(),
  extraction: z.object({ status: z.enum(['running', 'completed']), done: z.number().int(), total: z.number().int() }),
});
export const retriedSchema = z.object({
  id: z.uuid(),
  status: crawlStatus,
  retried: z.number().int(),
  remaining: z.number().int().describe('Failed URLs left to retry.'),
});

const pageSchema = z
  .object({
    url: z.string(),
    status: z.number().int(),
    contentType: z.string().nullable(),
    title: z.string().nullable(),
    depth: z.number().int(),
    bytes: z.number().int(),
    fetchedAt: isoTime,
    rendered: z.string().nullable().describe('Why the page was rendered in a browser; null: it was not.'),
    cachedFrom: z
      .string()
      .nullable()
      .describe(
        "Taken from the page cache (the crawl's maxAge): the crawl whose stored copy was used ('scrape': a scrape's), fetchedAt being that copy's; null: fetched from the site.",
      ),
    duplicateOf: z
      .string()
      .nullable()
      .describe('A duplicate: the URL of the crawl its content is stored under (no body or record of its own).'),
    duplicateReason: z
      .enum(['canonical', 'content', 'similar'])
      .nullable()
      .describe(
        'Why: its rel=canonical names duplicateOf, or that page had the same content first, or (duplicates: "similar") almost the same main text first.',
      ),
    similarity: z
      .number()
      .min(0)
      .max(1)
      .nullable()
      .describe(
        "A near-duplicate's similarity to duplicateOf (1 - differing bits of their text sketches / 64); else null.",
      ),
    wordCount: z.number().int().nullable().describe('Words of its extracted text; null: not extracted.'),
  })
  .meta({ id: 'Page' });

export const pageDetailSchema = pageSchema
  .extend({
    change: z
      .enum(['new', 'changed', 'unchanged'])
      .nullable()
      .describe('In a recrawl: how the page compares with the previous crawl; null: not a recrawl.'),
    stored: z
      .object({
        record: z.boolean().describe("GET /record answers its extraction record (a duplicate: its kept page's)."),
        links: z
          .boolean()
          .describe(
            'Outgoing links were recorded: GET /links lists them (it answers an empty list for a page without).',
          ),
        screenshot: z.boolean().describe('GET /screenshot answers a PNG.'),
        fetchedHtml: z
          .boolean()
          .describe("GET /content?source=fetched answers the HTML as fetched (a rendered page's)."),
      })
      .describe(
        "Which of its parts are stored (a duplicate: its kept page's, which GET /record, /links and /content answer).",
      ),
  })
  .meta({ id: 'PageDetail' });

export const pageListSchema = z.object({
  pages: z.array(pageSchema),
  cursor,
  searched: z
    .number()
    .int()
    .optional()
    .describe('A filtered listing: rows of the crawl this answer read (a text search: records read).'),
});

/** Why a URL ended failed or skipped, as one code (src/domain/crawl/outcome-codes.ts). */
const outcomeCode = z
  .enum(OUTCOME_CODES)
  .describe('Why, as one code of a fixed list: what to group or match on (the reason is for people).')
  .meta({ id: 'OutcomeCode' });

export const errorListSchema = z.object({
  errors: z.array(
    z.object({
      url: z.string(),
      outcome: z.enum(['failed', 'skipped']),
      reason: z.string().describe('Why, in words for people: may be reworded from one version to the next.'),
      code: outcomeCode,
      attempts: z.number().int(),
      httpStatus: z.number().int().nullable(),
      at: isoTime,
    }),
  ),
  cursor,
});

export const linksSchema = z.object({
  url: z.string().describe('The page asked for.'),
  duplicateOf: z
    .string()
    .nullable()
    .describe('A duplicate: the URL its content is stored under, whose links these are; null: its own.'),
  links: z.array(z.string()),
});

/** A page's extraction record: what the spec's formats asked for. */
const extractedSchema = {
  metadata: z.record(z.string(), z.unknown()).optional(),
  jsonLd: z.array(z.unknown()).optional(),
  fields: z.record(z.string(), z.unknown()).optional(),
  fieldErrors: z
    .record(z.string(), z.string())
    .optional()
    .describe("Why a field has no value; `json`: why the model's JSON could not be had (docs/models.md)."),
  json: z
    .unknown()
    .optional()
    .describe('The language model\'s JSON (format "json"), valid against extract.json.schema.'),
  summary: z.string().optional().describe('The language model\'s summary (format "summary").'),
  model: z
    .object({
      name: z.string().describe("The model (a Workers AI model, or the endpoint's LLM_MODEL)."),
      answer: z
        .enum(['model', 'cached', 'selectors', 'none'])
        .describe(
          'model: it read this page; cached: its earlier answer for the same content, schema and prompt; selectors: read by selectors it wrote for the page template; none: no answer (see fieldErrors.json and warnings).',
        ),
    })
    .optional(),
  links: z.array(z.string()).optional(),
  images: z.array(z.object({ src: z.string(), alt: z.string() })).optional(),
  wordCount: z.number().int(),
  contentHash: z.string().describe("SHA-256 (hex) of the content's text and declared fields: what a recrawl compares"),
  warnings: z.array(z.string()).describe('What could not be read of the page, and what was cut.'),
};

export const recordSchema = z
  .object({
    url: z.string().describe('The page asked for.'),
    duplicateOf: z
      .string()
      .nullable()
      .describe(
        "A duplicate: the URL its content is stored under, whose record this is (status, contentType, fetchedAt and the rest are that page's); null: the page's own record.",
      ),
    status: z.number().int(),
    contentType: z.string().nullable(),
    fetchedAt: isoTime,
    cachedFrom: z
      .string()
      .nullable()
      .describe(
        "Taken from the page cache (the crawl's maxAge): the crawl whose stored copy was used ('scrape': a scrape's), fetchedAt being that copy's; null: fetched from the site.",
      ),
    ...extractedSchema,
  })
  .meta({ id: 'PageRecord' });

export const scrapeResultSchema = z
  .object({
    url: z.string(),
    finalUrl: z.string().describe('The URL the page was found at, after redirects.'),
    status: z.number().int(),
    contentType: z.string().nullable(),
    fetchedAt: isoTime.describe(
      'When the page was fetched from the site (answered from the cache: when its copy was).',
    ),
    cached: z.boolean().describe('Answered from the page cache (maxAge): a stored copy, no request to the site.'),
    rendered: z.string().nullable(),
    screenshot: z.string().nullable().describe('A data URL (PNG) when the formats asked for a screenshot.'),
    ...extractedSchema,
    wordCount: z.number().int().optional(),
    contentHash: z.string().optional(),
    markdown: z.string().optional(),
    text: z.string().optional(),
    html: z.string().optional(),
  })
  .meta({ id: 'ScrapeResult' });

export const mapResultSchema = z
  .object({
    url: z.string(),
    urls: z.array(
      z.object({
        url: z.string(),
        source: z.enum(['start', 'sitemap', 'links']).describe('Where the URL was found first.'),
        lastmod: z.string().nullable().describe("The sitemap's <lastmod>, as written; null: none."),
        title: z.string().nullable().optional().describe('The title, when the page was fetched (the start page).'),
      }),
    ),
    total: z.number().int().describe('Distinct URLs found (reading stops at limit without a search).'),
    truncated: z.boolean().describe('More URLs were found than answered.'),
    warnings: z.array(z.string()),
  })
  .meta({ id: 'MapResult' });

export const statsSchema = z
  .object({
    id: z.uuid(),
    status: crawlStatus,
    counts: countsSchema,
    pending: z.number().int(),
    cached: z
      .number()
      .int()
      .describe('Pages stored from the page cache (maxAge), with no request to the site; not in the rates or series.'),
    createdAt: isoTime,
    finishedAt: isoTime.nullable(),
    rate: z.object({
      windowSeconds: z.number().int(),
      pagesPerSecond: z.number().describe('Over the last windowSeconds (0 once the crawl ended).'),
      averagePagesPerSecond: z.number().describe("Over the crawl's active time."),
    }),
    interval: z.number().int().describe('Seconds per point of the series.'),
    series: z.array(z.object({ at: isoTime, fetched: z.number().int(), failed: z.number().int() })),
    statuses: z.array(z.object({ status: z.number().int(), count: z.number().int() })),
    errors: z.array(z.object({ outcome: z.enum(['failed', 'skipped']), reason: z.string(), count: z.number().int() })),
    errorKinds: z
      .array(z.object({ outcome: z.enum(['failed', 'skipped']), kind: z.string(), count: z.number().int() }))
      .describe('Errors by the first words of their reason; errorCodes is the grouping that stays when words change.'),
    errorCodes: z
      .array(z.object({ outcome: z.enum(['failed', 'skipped']), code: outcomeCode, count: z.number().int() }))
      .describe('Errors by code, most first: the same whatever the words of their reasons.'),
    hosts: z.array(z.object({ host: z.string(), pages: z.number().int() })),
    traps: z
      .object({
        rules: z
          .array(z.object({ rule: z.enum(TRAP_RULES), pattern: z.string() }))
          .describe('The traps the rules found as the crawl went: a URL pattern, a parameter, a path that echoes.'),
        skipped: z
          .array(z.object({ reason: z.string(), count: z.number().int() }))
          .describe('URLs a trap rule kept out (code trap), by reason: `trap: <rule> (<pattern>)`, most first.'),
        overHostBudget: z
          .number()
          .int()
          .describe('Links not taken because their host had its maxPagesPerHost (not listed, as those past maxPages).'),
      })
      .describe('Crawler traps (docs/crawling.md, "Traps").'),
  })
  .meta({ id: 'CrawlStats' });

export const hostsSchema = z.object({
  hosts: z.array(
    z.object({
      host: z.string(),
      pages: z.number().int(),
      inflight: z.number().int(),
      nextSlotInMs: z.number(),
      blockedForMs: z.number(),
      requests: z.number().int(),
      robots: z.array(
        z.object({
          origin: z.string(),
          kind: z.enum(['rules', 'allow-all', 'unreachable']),
          reason: z.string().nullable(),
          failure: z.object({ kind: z.string(), message: z.string() }).nullable(),
          crawlDelayMs: z.number().nullable(),
          fetchedAt: z.number(),
          expiresAt: z.number(),
        }),
      ),
    }),
  ),
});

export const usageSchema = z
  .object({
    id: z.uuid(),
    pages: z.number().int().describe('Pages fetched.'),
    operations: z.record(z.string(), z.number()).describe('Billed operations counted, by kind.'),
    renders: z.number().int().describe('Pages sent to a browser.'),
    storage: z.object({ r2Bytes: z.number().int() }),
    model: z
      .object({
        calls: z.number().int().describe('Requests to the model (an answer asked again counts twice).'),
        cached: z.number().int().describe('Pages given an earlier answer for the same request: no call.'),
        selectorPages: z.number().int().describe('Pages read by selectors the model wrote (learnSelectors): no call.'),
        tokensIn: z.number().int(),
        tokensOut: z.number().int(),
        usd: z.number().describe("The calls' price (a model the price table does not know counts 0)."),
      })
      .describe('The language model (formats json and summary): docs/models.md.'),
    estimate: z.object({
      usd: z.number(),
      usdPerMillionPages: z
        .number()
        .nullable()
        .describe(
          "usd per page fetched, times a million: about 4.55 for a bulk crawl, more for a crawl paced at 1 request/s per host or a small one, whose batches hold few pages (docs/scale.md, 'Paced and small crawls').",
        ),
      breakdown: z.record(z.string(), z.number()),
      r2StorageUsdPerMonth: z.number(),
      prices: z.record(z.string(), z.unknown()),
    }),
  })
  .meta({ id: 'CrawlUsage' });

export const warcExportSchema = z.object({
  format: z.literal('warc'),
  key: z.string().describe('The R2 object written.'),
  file: z.string(),
  records: z.number().int(),
  bytes: z.number().int(),
  missing: z.array(z.string()).describe('Pages whose stored body was gone: not in the file.'),
  download: z.string().describe('Where to GET the file.'),
});

export const scheduleSchema = z
  .object({
    id: z.uuid(),
    cron: z.string().nullable(),
    everySeconds: z.number().int().nullable(),
    crawl: shownConfigSchema,
    createdAt: isoTime,
    nextRunAt: isoTime,
    lastRunAt: isoTime.nullable(),
    lastCrawlId: z.uuid().nullable(),
  })
  .meta({ id: 'Schedule' });

export const scheduleListSchema = z.object({ schedules: z.array(scheduleSchema), cursor });
export const scheduleDeletedSchema = z.object({ id: z.string(), deleted: z.literal(true) });
export const healthSchema = z.object({ ok: z.literal(true) });
export const exportListSchema = z.object({
  exports: z.array(z.object({ file: z.string(), bytes: z.number().int(), createdAt: isoTime, download: z.string() })),
});

/**
 * The answers' types, for programs written against the API. The dashboard's JSDoc imports them through the
 * declarations `npm run typecheck` writes to .types/, which knip does not see: hence @public.
 */
export type CrawlView = z.output<typeof crawlSchema>;
/** @public */
export type CrawlList = z.output<typeof crawlListSchema>;
/** @public */
export type CrawlStats = z.output<typeof statsSchema>;
/** @public */
export type HostList = z.output<typeof hostsSchema>;
export type PageList = z.output<typeof pageListSchema>;
/** @public */
export type ErrorList = z.output<typeof errorListSchema>;
/** @public */
export type CrawlUsage = z.output<typeof usageSchema>;
/** @public */
export type WarcExport = z.output<typeof warcExportSchema>;
/** @public */
export type ScheduleList = z.output<typeof scheduleListSchema>;

export const changeListSchema = z.object({
  previousCrawlId: z.uuid().nullable().describe("The crawl compared with; null for a schedule's first run."),
  provisional: z.boolean().describe('A crawl of the two still runs: the kinds may still change.'),
  changes: z.array(z.object({ url: z.string(), kind: z.enum(CHANGE_KINDS), title: z.string().nullable() })),
  cursor,
});

export const diffSchema = z.object({
  url: z.string(),
  previousCrawlId: z.uuid(),
  kind: z.enum(['new', 'changed', 'unchanged', 'gone']),
  format: z.enum(['markdown', 'text']),
  added: z.number().int().describe('Lines added.'),
  removed: z.number().int().describe('Lines removed.'),
  tooLarge: z.boolean().describe('More than 1,000 lines differ: no diff is given, only the counts of lines.'),
  diff: z.string().describe('Unified diff, 3 lines of context; empty when nothing changed.'),
  fields: z
    .array(z.object({ name: z.string(), before: z.unknown(), after: z.unknown() }))
    .describe('Declared fields whose value changed.'),
});
/** @public */
export type ChangeList = z.output<typeof changeListSchema>;
/** @public */
export type PageDiff = z.output<typeof diffSchema>;
/** @public */
export type PageDetail = z.output<typeof pageDetailSchema>;

/** What is wrong with a request: the path of the field (as in the body) and why. */
const validationIssueSchema = z.object({
  path: z
    .array(z.union([z.string(), z.number()]))
    .describe('The field, from the body\'s root: ["extract", "formats", 0].'),
  message: z.string(),
});
const invalidSchema = z.object({
  valid: z.literal(false),
  issues: z.array(validationIssueSchema).describe('Every issue found (at most 50), in the order of the fields.'),
});
export const crawlValidationSchema = z
  .union([
    z.object({
      valid: z.literal(true),
      config: shownConfigSchema.describe('The crawl as it would start: every setting, defaults filled in.'),
    }),
    invalidSchema,
  ])
  .meta({ id: 'CrawlValidation' });
export const scheduleValidationSchema = z
  .union([
    z.object({
      valid: z.literal(true),
      config: z.object({
        cron: z.string().nullable(),
        everySeconds: z.number().int().nullable(),
        crawl: shownConfigSchema,
      }),
      nextRuns: z.array(isoTime).describe('The next three runs, were it created now (UTC).'),
    }),
    invalidSchema,
  ])
  .meta({ id: 'ScheduleValidation' });
/** @public */
export type CrawlValidation = z.output<typeof crawlValidationSchema>;
/** @public */
export type ScheduleValidation = z.output<typeof scheduleValidationSchema>;
