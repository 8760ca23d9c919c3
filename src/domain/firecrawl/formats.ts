import { z } from 'zod';

/**
 * Firecrawl's `formats` (strings, or objects with a `type` in /v2), read into what a Firecrawl document carries and
 * what edgecrawl extracts for it. A format edgecrawl cannot make is refused (a 400 that names it), never dropped.
 */

/** What a Firecrawl document is asked to carry, normalized (and stored so, with its crawl: storage/d1/firecrawl-jobs.ts). */
export const firecrawlFormatsSchema = z.object({
  markdown: z.boolean(),
  html: z.boolean(),
  rawHtml: z.boolean(),
  links: z.boolean(),
  images: z.boolean(),
  summary: z.boolean(),
  screenshot: z.enum(['viewport', 'fullPage']).nullable(),
  /** `json` (v2, v1 "json" with jsonOptions) or v1 `extract`: where the model's answer goes. */
  json: z
    .object({
      schema: z.record(z.string(), z.unknown()).optional(),
      prompt: z.string().optional(),
      key: z.enum(['json', 'extract']),
    })
    .nullable(),
  changeTracking: z.object({ modes: z.array(z.enum(['git-diff', 'json'])), tag: z.string().nullable() }).nullable(),
});
export type FirecrawlFormats = z.output<typeof firecrawlFormatsSchema>;

const NO_FORMATS: FirecrawlFormats = {
  markdown: false,
  html: false,
  rawHtml: false,
  links: false,
  images: false,
  summary: false,
  screenshot: null,
  json: null,
  changeTracking: null,
};

const SIMPLE = ['markdown', 'html', 'rawHtml', 'links', 'images', 'summary'] as const;
type Simple = (typeof SIMPLE)[number];
const isSimple = (name: string): name is Simple => (SIMPLE as readonly string[]).includes(name);

const jsonSchemaValue = z.record(z.string(), z.unknown());
const jsonObject = z.looseObject({
  type: z.literal('json'),
  schema: jsonSchemaValue.optional(),
  prompt: z.string().max(10_000).optional(),
});
const screenshotObject = z.looseObject({ type: z.literal('screenshot'), fullPage: z.boolean().optional() });
const changeObject = z.looseObject({
  type: z.literal('changeTracking'),
  modes: z.array(z.enum(['git-diff', 'json'])).optional(),
  tag: z.string().max(200).nullable().optional(),
});
const formatItem = z.union([z.string().max(100), z.looseObject({ type: z.string().max(100) })]);
export const formatsSchema = z.array(formatItem).max(20);
export type FormatsInput = z.input<typeof formatsSchema>;

/** v1's side options of its formats. */
export interface V1FormatOptions {
  jsonOptions?: { schema?: Record<string, unknown>; prompt?: string };
  extract?: { schema?: Record<string, unknown>; prompt?: string };
  changeTrackingOptions?: { modes?: ('git-diff' | 'json')[]; tag?: string | null };
}

export type FormatsRead = { ok: true; formats: FirecrawlFormats } | { ok: false; message: string };

const unsupported = (name: string) =>
  `format ${JSON.stringify(name)} is not supported by edgecrawl (supported: markdown, html, rawHtml, links, images, screenshot, summary, json, changeTracking)`;

/** One format item into the formats read so far, or why it is refused. */
function readItem(
  item: z.output<typeof formatItem>,
  v1: V1FormatOptions,
  formats: FirecrawlFormats,
): FirecrawlFormats | string {
  const type = typeof item === 'string' ? item : item.type;
  if (isSimple(type)) return { ...formats, [type]: true };
  if (type === 'screenshot' || type === 'screenshot@fullPage') {
    const full = type === 'screenshot@fullPage' || screenshotObject.safeParse(item).data?.fullPage === true;
    return { ...formats, screenshot: full ? 'fullPage' : 'viewport' };
  }
  if (type === 'json' || type === 'extract') {
    const options = typeof item === 'string' ? (type === 'json' ? v1.jsonOptions : v1.extract) : jsonObject.parse(item);
    if (!options || (options.schema === undefined && options.prompt === undefined))
      return `format ${type} needs a schema or a prompt`;
    return { ...formats, json: { schema: options.schema, prompt: options.prompt, key: type } };
  }
  if (type === 'changeTracking') {
    const options = typeof item === 'string' ? (v1.changeTrackingOptions ?? {}) : changeObject.parse(item);
    return { ...formats, changeTracking: { modes: options.modes ?? [], tag: options.tag ?? null } };
  }
  return unsupported(type);
}

/** Reads `formats` (default: markdown), with v1's jsonOptions, extract and changeTrackingOptions. */
export function readFormats(input: FormatsInput | undefined, v1: V1FormatOptions = {}): FormatsRead {
  const items = input === undefined || input.length === 0 ? ['markdown'] : input;
  let formats = NO_FORMATS;
  for (const item of items) {
    try {
      const read = readItem(item, v1, formats);
      if (typeof read === 'string') return { ok: false, message: read };
      formats = read;
    } catch (error) {
      if (error instanceof z.ZodError)
        return { ok: false, message: `formats: ${error.issues[0]?.message ?? 'invalid'}` };
      throw error;
    }
  }
  if (formats.changeTracking && !formats.markdown)
    return { ok: false, message: 'the changeTracking format needs markdown in formats' };
  return { ok: true, formats };
}

/** The edgecrawl output formats that make these Firecrawl ones (metadata always: every document has it). */
export function edgecrawlFormats(formats: FirecrawlFormats): string[] {
  const out = ['metadata'];
  if (formats.markdown || formats.changeTracking) out.push('markdown');
  if (formats.html) out.push('html');
  if (formats.links) out.push('links');
  if (formats.images) out.push('images');
  if (formats.screenshot) out.push(formats.screenshot === 'fullPage' ? 'screenshot@fullPage' : 'screenshot');
  if (formats.json) out.push('json');
  if (formats.summary) out.push('summary');
  return out;
}

/** The Firecrawl formats an edgecrawl spec makes (a crawl started through /v1/crawls, read through Firecrawl's API). */
export function formatsOfSpec(spec: { formats: readonly string[] } | null): FirecrawlFormats {
  const has = (f: string) => spec?.formats.includes(f) ?? false;
  return {
    ...NO_FORMATS,
    // A plain crawl (no spec) has no markdown: its documents carry the page as fetched.
    markdown: has('markdown'),
    html: has('html'),
    rawHtml: spec === null,
    links: has('links'),
    images: has('images'),
    summary: has('summary'),
    screenshot: has('screenshot@fullPage') ? 'fullPage' : has('screenshot') ? 'viewport' : null,
    json: has('json') ? { key: 'json' } : null,
  };
}

/** Formats as Firecrawl's requests name them (a crawl's scrapeOptions.formats in the active list). */
export function formatNames(formats: FirecrawlFormats): string[] {
  const names: string[] = (['markdown', 'html', 'rawHtml', 'links', 'images', 'summary'] as const).filter(
    (f) => formats[f],
  );
  if (formats.screenshot) names.push(formats.screenshot === 'fullPage' ? 'screenshot@fullPage' : 'screenshot');
  if (formats.json) names.push(formats.json.key);
  if (formats.changeTracking) names.push('changeTracking');
  return names;
}
