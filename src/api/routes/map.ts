import { Hono } from 'hono';
import { mapSite } from '../../jobs/map';
import { json, routeDoc } from '../openapi/route-doc';
import { mapResultSchema } from '../responses';
import { MAX_BODY_BYTES, mapSchema } from '../schemas';
import { assertMapAllowed, jsonInput, limitBody } from '../validate';

/** POST /v1/map: a site's URLs from its sitemaps and its start page's links, answered now; nothing stored. */
export const mapRoutes = new Hono<{ Bindings: Env }>().post(
  '/',
  routeDoc({
    summary: "Map a site's URLs",
    description:
      "The start page's links and the origin's sitemaps (robots.txt Sitemap lines, /sitemap.xml, indexes, gzip), normalized, in scope, each once, with its source and lastmod; pages are not fetched. Robots.txt and the host rate limit apply to every file read.",
    tag: 'Map',
    responses: { 200: json('The URLs', mapResultSchema) },
  }),
  limitBody(MAX_BODY_BYTES),
  jsonInput(mapSchema),
  async (c) => {
    const request = c.req.valid('json');
    assertMapAllowed(c.env, request.url);
    return c.json(await mapSite(c.env, request));
  },
);
