import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { log } from '../../log';
import { ApiError } from '../errors';

/**
 * Errors in Firecrawl's shape, `{success: false, error, code?}`, as its clients read them (they show `error`). Routes
 * throw ApiErrors as edgecrawl's own do; this renders them on Firecrawl's routes.
 */

/** Firecrawl's codes for edgecrawl's where its clients look for one (a timeout must not carry a retry state). */
const CODES: Record<string, string> = {
  invalid_request: 'BAD_REQUEST',
  invalid_json: 'BAD_REQUEST',
  timeout: 'SCRAPE_TIMEOUT',
  not_supported: 'NOT_SUPPORTED',
};

function firecrawlErrorBody(message: string, code?: string) {
  return { success: false as const, error: message, ...(code ? { code } : {}) };
}

export const jobNotFound = () => new ApiError(404, 'not_found', 'Job not found');
export const notSupported = (what: string) =>
  new ApiError(
    404,
    'not_supported',
    `${what} is not supported by edgecrawl's Firecrawl-compatible API (see docs/firecrawl.md)`,
  );
export const timedOut = (ms: number) =>
  new ApiError(408, 'timeout', `the scrape did not finish within the timeout of ${ms} ms`);

/** onError of Firecrawl's routes (and of edgecrawl's middleware in front of them). */
export function renderFirecrawlError(err: Error, c: Context): Response {
  if (err instanceof HTTPException) {
    const code = err instanceof ApiError ? (CODES[err.code] ?? err.code.toUpperCase()) : undefined;
    return c.json(firecrawlErrorBody(err.message || 'error', code), err.status as ContentfulStatusCode);
  }
  log('error', 'unhandled error', { path: c.req.path, error: String(err), stack: err.stack });
  return c.json(firecrawlErrorBody('internal error', 'UNKNOWN_ERROR'), 500);
}

/**
 * Paths that only Firecrawl's API has (every /v2 and /firecrawl path; /v1's crawl, batch and the endpoints edgecrawl
 * has not).
 */
export const isFirecrawlPath = (path: string): boolean =>
  /^\/(v2|firecrawl)(\/|$)/.test(path) ||
  /^\/v1\/(crawl|batch|search|extract|deep-research|llmstxt|team)(\/|$)/.test(path);
