import { Hono } from 'hono';
import { z } from 'zod';
import { translateBatch } from '../../domain/firecrawl/crawl-options';
import type { FirecrawlVersion } from '../../domain/firecrawl/scrape-options';
import { webhookInputSchema } from '../../domain/firecrawl/webhook-options';
import { normalizeUrl } from '../../domain/url/normalize';
import { badRequest } from '../errors';
import { MAX_BODY_BYTES } from '../schemas';
import { jsonInput, limitBody } from '../validate';
import { jobRoutes } from './jobs';
import { startJob } from './start';

const batchRequestSchema = z.looseObject({
  urls: z.array(z.string().max(8192)).min(1).max(1000, 'a batch scrape takes at most 1000 URLs'),
  webhook: webhookInputSchema.optional(),
  ignoreInvalidURLs: z.boolean().optional(),
  maxConcurrency: z.number().int().min(1).optional(),
});

/** Firecrawl's default of ignoreInvalidURLs: true in /v2, false in /v1. */
const IGNORE_INVALID: Record<FirecrawlVersion, boolean> = { 1: false, 2: true };

/** POST /batch/scrape (the URLs as the seeds of a crawl that follows no link), and a batch's status, cancel, errors. */
export const batchRoutes = (version: FirecrawlVersion) =>
  new Hono<{ Bindings: Env }>()
    .post('/', limitBody(MAX_BODY_BYTES), jsonInput(batchRequestSchema), (c) => {
      const request = c.req.valid('json');
      const normalized = request.urls.map((u) => ({ given: u, url: normalizeUrl(u) }));
      const invalid = normalized.filter((u) => u.url === null).map((u) => u.given);
      const ignore = request.ignoreInvalidURLs ?? IGNORE_INVALID[version];
      if (invalid.length > 0 && !ignore)
        throw badRequest(
          `not absolute http(s) URLs: ${invalid
            .slice(0, 5)
            .map((u) => JSON.stringify(u))
            .join(', ')}`,
        );
      const urls = normalized.flatMap((u) => (u.url === null ? [] : [u.given]));
      if (urls.length === 0) throw badRequest('no valid URL to scrape');
      const answer = invalid.length > 0 ? { invalidURLs: invalid } : {};
      return startJob(c, version, 'batch', translateBatch({ ...request, urls }, version), { answer });
    })
    .route('/', jobRoutes(version, 'batch'));
