import { z } from 'zod';
import { MAX_CACHE_AGE_SECONDS } from '../crawl/page-cache';
import { edgecrawlFormats, type FirecrawlFormats, formatsSchema, readFormats } from './formats';
import { credentialsOfHeaders, type HeaderCredentials } from './headers';
import { ignoredWarning } from './ignored';

/** Which of Firecrawl's API versions a request came by: their defaults differ (maxAge, map's answer). */
export type FirecrawlVersion = 1 | 2;

/** Firecrawl's scrape options that edgecrawl reads (the rest are passed through to be named as ignored). */
const modelOptions = z.looseObject({
  schema: z.record(z.string(), z.unknown()).optional(),
  prompt: z.string().optional(),
});
export const scrapeOptionsSchema = z.looseObject({
  formats: formatsSchema.optional(),
  onlyMainContent: z.boolean().optional(),
  includeTags: z.array(z.string()).max(50).optional(),
  excludeTags: z.array(z.string()).max(50).optional(),
  waitFor: z.number().int().min(0).optional(),
  actions: z
    .array(z.looseObject({ type: z.string() }))
    .max(50)
    .optional(),
  maxAge: z.number().int().min(0).optional(),
  timeout: z.number().int().min(1).optional(),
  headers: z.record(z.string(), z.string()).optional(),
  parsers: z.array(z.union([z.string(), z.looseObject({ type: z.string() })])).optional(),
  jsonOptions: modelOptions.optional(),
  extract: modelOptions.optional(),
  changeTrackingOptions: z
    .looseObject({ modes: z.array(z.enum(['git-diff', 'json'])).optional(), tag: z.string().nullable().optional() })
    .optional(),
});
export type ScrapeOptionsInput = z.output<typeof scrapeOptionsSchema>;

/** The options this module reads: any other key given is named in the warning (ignored.ts). */
export const SCRAPE_KEYS = new Set([...Object.keys(scrapeOptionsSchema.shape), 'url', 'urls']);

/** Firecrawl's maxAge when a request gives none: two days in /v2, always fetched in /v1 (milliseconds). */
const DEFAULT_MAX_AGE_MS: Record<FirecrawlVersion, number> = { 1: 0, 2: 172_800_000 };

/** What edgecrawl does for a Firecrawl scrape: its extraction and rendering, and the document's formats. */
export interface ScrapeTranslation {
  /** The body of edgecrawl's own scrape, checked by its schema (api/schemas.ts scrapeSchema). */
  scrape: {
    extract: Record<string, unknown>;
    render: 'auto' | 'always';
    waitFor: number | null;
    actions: Record<string, unknown>[];
    maxAge: number;
  };
  /** Firecrawl's `headers` as edgecrawl's credential fields (headers.ts): secrets, never in a warning. */
  credentials: HeaderCredentials;
  formats: FirecrawlFormats;
  timeoutMs: number | null;
  warnings: string[];
}

export type Translated<T> = { ok: true; value: T } | { ok: false; message: string };

/** A Firecrawl action as edgecrawl's, or why it cannot be done. */
function actionOf(action: { type: string } & Record<string, unknown>): Record<string, unknown> | string {
  const { type, ...rest } = action;
  if (type === 'wait' || type === 'write' || type === 'press') return action;
  if (type === 'click') {
    if (rest.all === true) return 'the click action with all: true is not supported (click one element)';
    return { type, selector: rest.selector };
  }
  if (type === 'scroll') {
    if (rest.selector !== undefined) return 'the scroll action with a selector is not supported (the page scrolls)';
    return rest.direction === undefined ? { type } : { type, direction: rest.direction };
  }
  const instead = type === 'screenshot' ? ' (ask for the screenshot format instead)' : '';
  return `the ${type} action is not supported by edgecrawl${instead}`;
}

function actionsOf(actions: ScrapeOptionsInput['actions']): Translated<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  for (const action of actions ?? []) {
    const read = actionOf(action);
    if (typeof read === 'string') return { ok: false, message: read };
    out.push(read);
  }
  return { ok: true, value: out };
}

/** maxAge in Firecrawl's milliseconds as edgecrawl's seconds (at most its 30 days, said when cut). */
function maxAgeOf(options: ScrapeOptionsInput, version: FirecrawlVersion, warnings: string[]): number {
  const seconds = Math.floor((options.maxAge ?? DEFAULT_MAX_AGE_MS[version]) / 1000);
  if (seconds <= MAX_CACHE_AGE_SECONDS) return seconds;
  warnings.push(`maxAge cut to ${MAX_CACHE_AGE_SECONDS * 1000} ms (30 days), the page cache's longest`);
  return MAX_CACHE_AGE_SECONDS;
}

/** The extraction spec (edgecrawl's) of Firecrawl's scrape options. */
function extractOf(options: ScrapeOptionsInput, formats: FirecrawlFormats): Record<string, unknown> {
  const json = formats.json ? { schema: formats.json.schema, prompt: formats.json.prompt } : undefined;
  return {
    formats: edgecrawlFormats(formats),
    mainContent: options.onlyMainContent ?? true,
    include: options.includeTags ?? [],
    exclude: options.excludeTags ?? [],
    ...(json ? { json } : {}),
  };
}

/** Firecrawl's scrape options (of a scrape, a batch or a crawl's scrapeOptions) as edgecrawl's. */
export function translateScrape(
  options: ScrapeOptionsInput,
  version: FirecrawlVersion,
  handled: ReadonlySet<string> = SCRAPE_KEYS,
): Translated<ScrapeTranslation> {
  const read = readFormats(options.formats, options);
  if (!read.ok) return read;
  const actions = actionsOf(options.actions);
  if (!actions.ok) return actions;
  const warnings: string[] = [];
  const parsers = options.parsers?.map((p) => (typeof p === 'string' ? p : p.type));
  if (parsers && !parsers.includes('pdf')) warnings.push('parsers: PDFs are always read as text by edgecrawl');
  const ignored = ignoredWarning(options, handled);
  if (ignored) warnings.push(ignored);
  const headers = credentialsOfHeaders(options.headers);
  warnings.push(...headers.warnings);
  const formats = read.formats;
  if (formats.changeTracking?.tag) warnings.push('changeTracking tag ignored: a page is compared with its last scrape');
  const waitFor = options.waitFor && options.waitFor > 0 ? options.waitFor : null;
  // A page is compared with its last scrape, not with a stored copy of itself.
  const maxAge = formats.changeTracking ? 0 : maxAgeOf(options, version, warnings);
  const render = waitFor !== null || actions.value.length > 0 ? 'always' : 'auto';
  return {
    ok: true,
    value: {
      scrape: { extract: extractOf(options, formats), render, waitFor, actions: actions.value, maxAge },
      credentials: headers.credentials,
      formats,
      timeoutMs: options.timeout ?? null,
      warnings,
    },
  };
}
