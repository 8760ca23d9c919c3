import { Hono } from 'hono';
import { scrape } from '../../jobs/scrape';
import { ApiError } from '../errors';
import { MAX_BODY_BYTES, scrapeSchema } from '../schemas';
import { assertRequestAllowed, jsonInput, limitBody } from '../validate';

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
