import { Hono } from 'hono';
import { scrape } from '../../jobs/scrape';
import { ApiError } from '../errors';
import { json, routeDoc } from '../openapi/route-doc';
import { errorSchema, scrapeResultSchema } from '../responses';
import { MAX_BODY_BYTES, scrapeSchema } from '../schemas';
import { assertRequestAllowed, jsonInput, limitBody } from '../validate';

/** POST /v1/scrape: one URL fetched and extracted now, its record and outputs in the answer; nothing stored. */
export const scrapeRoutes = new Hono<{ Bindings: Env }>().post(
  '/',
  routeDoc({
    summary: 'Scrape one URL now',
    description:
      'Fetched (rendered when needed or asked), extracted, and answered inline: nothing is stored. Robots.txt and the host rate limit apply.',
    tag: 'Scrape',
    responses: {
      200: json('The page', scrapeResultSchema),
      403: json('Refused by robots.txt', errorSchema),
      422: json('Not a page to read (e.g. an HTTP error status)', errorSchema),
      502: json('The site could not be reached', errorSchema),
      503: json('Busy or not configured', errorSchema),
      504: json('The site did not answer in time', errorSchema),
    },
  }),
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
