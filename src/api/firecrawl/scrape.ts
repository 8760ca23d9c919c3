import { Hono } from 'hono';
import { z } from 'zod';
import { credentialsOf, scrapeAccess } from '../../credentials';
import { changeTrackingOf } from '../../domain/firecrawl/change-tracking';
import { firecrawlDocument } from '../../domain/firecrawl/document';
import type { FirecrawlFormats } from '../../domain/firecrawl/formats';
import { joinWarnings } from '../../domain/firecrawl/ignored';
import { type FirecrawlVersion, scrapeOptionsSchema, translateScrape } from '../../domain/firecrawl/scrape-options';
import { type ScrapeResult, scrape } from '../../jobs/scrape';
import { lastScrape } from '../../storage/firecrawl-pages';
import { ApiError, badRequest } from '../errors';
import { MAX_BODY_BYTES, scrapeSchema } from '../schemas';
import { assertScrapeAllowed, describeIssues, jsonInput, limitBody } from '../validate';
import { withTimeout } from './timeout';

const scrapeRequestSchema = scrapeOptionsSchema.extend({ url: z.string().max(8192) });
type ScrapeRequest = z.output<typeof scrapeRequestSchema>;
type Page = Extract<ScrapeResult, { kind: 'page' }>;

/**
 * Statuses of a refused scrape as Firecrawl's clients should see them: a timeout is Firecrawl's 408 (SCRAPE_TIMEOUT),
 * and a site that could not be reached a 500 (its SDK sends a 502 again, thrice, for a gateway's error).
 */
const REFUSED: Partial<Record<number, 408 | 500>> = { 504: 408, 502: 500 };

/** Firecrawl's scrape request read into edgecrawl's own (checked by its schema), or a 400 that says why. */
function edgecrawlScrape(request: ScrapeRequest, version: FirecrawlVersion) {
  const translated = translateScrape(request, version);
  if (!translated.ok) throw badRequest(translated.message);
  const { scrape, credentials } = translated.value;
  const parsed = scrapeSchema.safeParse({ url: request.url, ...scrape, ...credentials });
  if (!parsed.success) throw badRequest(`invalid request: ${describeIssues(parsed.error)}`);
  return { ...translated.value, request: parsed.data };
}

/** The document of a scraped page, with its changeTracking against the scrape before it, if asked. */
function documentOf(page: Page, formats: FirecrawlFormats, previous: Awaited<ReturnType<typeof lastScrape>>) {
  const markdown = page.outputs.markdown ?? null;
  const changeTracking = formats.changeTracking
    ? changeTrackingOf(
        previous,
        { contentHash: page.record?.contentHash ?? null, markdown },
        formats.changeTracking.modes,
      )
    : null;
  return firecrawlDocument(
    {
      url: page.url,
      finalUrl: page.finalUrl,
      status: page.status,
      contentType: page.contentType,
      fetchedAt: page.fetchedAt,
      cached: page.cached,
      record: page.record,
      outputs: page.outputs,
      rawHtml: page.body ? new TextDecoder().decode(page.body) : null,
      screenshot: page.screenshot,
      changeTracking,
      scrapeId: crypto.randomUUID(),
    },
    formats,
  );
}

/**
 * A page the site answered with an error status is a document, as Firecrawl's is (its statusCode and error, nothing
 * extracted); any other refusal is an error answer.
 */
function errorDocument(url: string, refused: Extract<ScrapeResult, { kind: 'refused' }>, formats: FirecrawlFormats) {
  const { httpStatus, finalUrl } = refused;
  if (httpStatus === undefined)
    throw new ApiError(REFUSED[refused.status] ?? refused.status, refused.code, refused.message);
  const now = new Date().toISOString();
  const page = { url, finalUrl: finalUrl ?? url, status: httpStatus, contentType: null, fetchedAt: now, cached: false };
  return firecrawlDocument({ ...page, record: null, outputs: {} }, formats);
}

/** POST /scrape: one page now, as Firecrawl's document. */
export const scrapeRoute = (version: FirecrawlVersion) =>
  new Hono<{ Bindings: Env }>().post('/', limitBody(MAX_BODY_BYTES), jsonInput(scrapeRequestSchema), async (c) => {
    const { request, formats, timeoutMs, warnings } = edgecrawlScrape(c.req.valid('json'), version);
    const { credentials, rest } = credentialsOf(request);
    const { url, extract, render, waitFor, actions, maxAge } = rest;
    assertScrapeAllowed(c.env, url, extract);
    const previous = formats.changeTracking ? await lastScrape(c.env.DB, c.env.BODIES, url) : null;
    // The page's own headers, cookies: sent to its host only, never kept (nor answered from the page cache).
    const options = { spec: extract, render, waitFor, actions, maxAge, access: scrapeAccess(credentials, url) };
    const result = await withTimeout(scrape(c.env, url, options), timeoutMs);
    const data = result.kind === 'page' ? documentOf(result, formats, previous) : errorDocument(url, result, formats);
    const warning = joinWarnings(warnings);
    return c.json({ success: true as const, data, ...(warning ? { warning } : {}) });
  });
