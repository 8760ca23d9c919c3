import { Hono } from 'hono';
import { credentialsOf, scrapeAccess } from '../../credentials';
import { type ScrapeResult, scrape } from '../../jobs/scrape';
import { ApiError } from '../errors';
import { json, routeDoc } from '../openapi/route-doc';
import { errorSchema, scrapeResultSchema } from '../responses';
import { MAX_BODY_BYTES, scrapeSchema } from '../schemas';
import { assertScrapeAllowed, jsonInput, limitBody } from '../validate';

/**
 * A page the site answered with an error status (a 4xx, a 5xx) is an answer, not a failure of the scrape: 200, with
 * the page's status and nothing extracted (an error page is not kept), as Firecrawl's scrape answers it (its
 * metadata.statusCode). Any other refusal (robots.txt, a private address, no answer) is an error.
 */
function errorPage(url: string, refused: Extract<ScrapeResult, { kind: 'refused' }>) {
  const { httpStatus, finalUrl } = refused;
  if (httpStatus === undefined) throw new ApiError(refused.status, refused.code, refused.message);
  return {
    url,
    finalUrl: finalUrl ?? url,
    status: httpStatus,
    contentType: null,
    fetchedAt: new Date().toISOString(),
    cached: false,
    rendered: null,
    screenshot: null,
    warnings: [`the site answered HTTP ${httpStatus}: nothing extracted (an error page is not kept)`],
  };
}

/** POST /v1/scrape: one URL fetched (or taken from the page cache) and extracted now, answered inline. */
export const scrapeRoutes = new Hono<{ Bindings: Env }>().post(
  '/',
  routeDoc({
    summary: 'Scrape one URL now',
    description:
      'Fetched (rendered when needed or asked), extracted, and answered inline. Robots.txt and the host rate limit apply. A page any crawl or scrape stored within maxAge seconds (default 300) is answered from that copy, re-extracted, with no request to the site (cached: true); a page fetched is stored for the next scrapes.',
    tag: 'Scrape',
    responses: {
      200: json(
        "The page. One the site answered with an error status (4xx, or 5xx) is answered too, with that status, nothing extracted and a warning: the status is the page's, not a failure of the scrape",
        scrapeResultSchema,
      ),
      403: json('Refused by robots.txt', errorSchema),
      422: json(
        'A private network address (private_address; ALLOW_PRIVATE_NETWORKS allows them), or an action that could not be done (action_failed: no element matches its selector, a wait ran out; the message names it)',
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
    assertScrapeAllowed(c.env, url, extract);
    // Actions are done in the browser: a page given actions is rendered.
    const result = await scrape(c.env, url, {
      spec: extract,
      render: actions.length > 0 ? 'always' : render,
      waitFor,
      actions,
      maxAge,
      access: scrapeAccess(credentials, url),
    });
    if (result.kind === 'refused') return c.json(errorPage(url, result));
    // The title is the model's (and the record's metadata, when asked for); the body is Firecrawl's rawHtml.
    const { kind: _kind, record, outputs, body: _body, title: _title, ...page } = result;
    return c.json({ ...page, ...(record ?? { warnings: ['not an HTML page: nothing extracted'] }), ...outputs });
  },
);
