import { Hono } from 'hono';
import { credentialsOf, scrapeAccess } from '../../credentials';
import { scrape } from '../../jobs/scrape';
import { ApiError } from '../errors';
import { json, routeDoc } from '../openapi/route-doc';
import { errorSchema, scrapeResultSchema } from '../responses';
import { MAX_BODY_BYTES, scrapeSchema } from '../schemas';
import { assertRequestAllowed, jsonInput, limitBody } from '../validate';

/** POST /v1/scrape: one URL fetched (or taken from the page cache) and extracted now, answered inline. */
export const scrapeRoutes = new Hono<{ Bindings: Env }>().post(
  '/',
  routeDoc({
    summary: 'Scrape one URL now',
    description:
      'Fetched (rendered when needed or asked), extracted, and answered inline. Robots.txt and the host rate limit apply. A page any crawl or scrape stored within maxAge seconds (default 300) is answered from that copy, re-extracted, with no request to the site (cached: true); a page fetched is stored for the next scrapes.',
    tag: 'Scrape',
    responses: {
      200: json('The page', scrapeResultSchema),
      403: json('Refused by robots.txt', errorSchema),
      422: json(
        'Not a page to read (e.g. an HTTP error status), or an action that could not be done (action_failed: no element matches its selector, a wait ran out; the message names it)',
        errorSchema,
      ),
      502: json(
        'The site could not be reached, or the page not rendered to do its actions (render_failed)',
        errorSchema,
      ),
      503: json('Busy or not configured', errorSchema),
      504: json('The site did not answer in time', errorSchema),
    },
  }),
  limitBody(MAX_BODY_BYTES),
  jsonInput(scrapeSchema),
  async (c) => {
    const { credentials, rest } = credentialsOf(c.req.valid('json'));
    const { url, extract, render, waitFor, actions, maxAge } = rest;
    assertRequestAllowed(c.env, { seeds: [url], webhook: null, extract });
    // Actions are done in the browser: a page given actions is rendered.
    const result = await scrape(c.env, url, {
      spec: extract,
      render: actions.length > 0 ? 'always' : render,
      waitFor,
      actions,
      maxAge,
      access: scrapeAccess(credentials, url),
    });
    if (result.kind === 'refused') throw new ApiError(result.status, result.code, result.message);
    // The title is the model's (and the record's metadata, when asked for); the body is Firecrawl's rawHtml.
    const { kind: _kind, record, outputs, body: _body, title: _title, ...page } = result;
    return c.json({ ...page, ...(record ?? { warnings: ['not an HTML page: nothing extracted'] }), ...outputs });
  },
);
