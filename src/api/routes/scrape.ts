import { Hono } from 'hono';
import { z } from 'zod';
import { scrape } from '../../jobs/scrape';
import { ApiError } from '../errors';
import { extractSpecSchema, MAX_BODY_BYTES, seedUrlSchema } from '../schemas';
import { assertRequestAllowed, jsonInput, limitBody } from '../validate';

const scrapeSchema = z
  .object({
    url: seedUrlSchema,
    extract: extractSpecSchema.default({
      formats: ['markdown', 'metadata'],
      mainContent: true,
      include: [],
      exclude: [],
      fields: {},
    }),
  })
  .strict();

/** POST /v1/scrape: one URL fetched and extracted now, its record and outputs in the answer; nothing stored. */
export const scrapeRoutes = new Hono<{ Bindings: Env }>().post(
  '/',
  limitBody(MAX_BODY_BYTES),
  jsonInput(scrapeSchema),
  async (c) => {
    const { url, extract } = c.req.valid('json');
    assertRequestAllowed(c.env, { seeds: [url], webhook: null });
    const result = await scrape(c.env, url, extract);
    if (result.kind === 'refused') throw new ApiError(result.status, result.code, result.message);
    const { kind: _kind, record, outputs, ...page } = result;
    return c.json({ ...page, ...(record ?? { warnings: ['not an HTML page: nothing extracted'] }), ...outputs });
  },
);
