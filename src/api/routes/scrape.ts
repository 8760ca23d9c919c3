import { Hono } from 'hono';
import { z } from 'zod';
import { OUTPUT_FORMATS } from '../../domain/extract/spec';
import { scrape } from '../../jobs/scrape';
import { ApiError } from '../errors';
import {
  actionsSchema,
  extractSpecSchema,
  MAX_BODY_BYTES,
  renderFields,
  SCREENSHOT_NEEDS_BROWSER,
  screenshotNeedsBrowser,
  seedUrlSchema,
} from '../schemas';
import { assertRequestAllowed, jsonInput, limitBody } from '../validate';

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
  })
  .strict();

const scrapeSchema = scrapeRequestObject
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
  .refine(screenshotNeedsBrowser, SCREENSHOT_NEEDS_BROWSER);

/** POST /v1/scrape: one URL fetched and extracted now, its record and outputs in the answer; nothing stored. */
export const scrapeRoutes = new Hono<{ Bindings: Env }>().post(
  '/',
  limitBody(MAX_BODY_BYTES),
  jsonInput(scrapeSchema),
  async (c) => {
    const { url, extract, render, waitFor, actions } = c.req.valid('json');
    assertRequestAllowed(c.env, { seeds: [url], webhook: null });
    // Actions are done in the browser: a page given actions is rendered.
    const result = await scrape(c.env, url, extract, {
      render: actions.length > 0 ? 'always' : render,
      waitFor,
      actions,
    });
    if (result.kind === 'refused') throw new ApiError(result.status, result.code, result.message);
    const { kind: _kind, record, outputs, ...page } = result;
    return c.json({ ...page, ...(record ?? { warnings: ['not an HTML page: nothing extracted'] }), ...outputs });
  },
);
