import type { RouterRoute } from 'hono/types';
import { type DocumentedRoute, documentedRoutes, openApiDocument } from './document';
import type { JsonObject } from './json-schema';

const INFO = {
  title: 'edgecrawl API',
  version: '1.0.0',
  description:
    'A polite, durable, fast web crawler on Cloudflare Workers. Every route but health and this document needs `Authorization: Bearer <API_TOKEN>`. Errors are always `{ "error": { "code", "message" } }`, with a 4xx status for anything the caller got wrong. Lists are paged with `cursor` (null at the end).',
};

const TAGS = [
  { name: 'Crawls', description: 'Start, list, show, cancel, purge, re-extract and retry crawls.' },
  { name: 'Pages', description: 'What a crawl fetched: pages, errors, bodies, extracted outputs, records, links.' },
  { name: 'Stats', description: 'Progress, rates, breakdowns, politeness state and cost.' },
  { name: 'Exports', description: 'Page records streamed as JSONL or CSV; WARC files written to R2.' },
  { name: 'Schedules', description: 'Recrawls started by the cron trigger.' },
  { name: 'Scrape', description: 'One URL fetched and extracted now.' },
  { name: 'Map', description: "A site's URLs from its sitemaps and links, without fetching its pages." },
  { name: 'MCP', description: 'The Model Context Protocol server, for AI agents.' },
  { name: 'Meta', description: 'Health and this document.' },
];

/** The app's routes and the document, computed once per isolate (routes do not change once the app is built). */
export class ApiDescription {
  private routes: RouterRoute[] = [];
  private documented: DocumentedRoute[] | null = null;
  private document: JsonObject | null = null;

  /** Called once the app is built, with its routes. */
  describe(routes: RouterRoute[]): void {
    this.routes = routes;
    this.documented = null;
    this.document = null;
  }

  get documentedRoutes(): DocumentedRoute[] {
    this.documented ??= documentedRoutes(this.routes);
    return this.documented;
  }

  get openApi(): JsonObject {
    this.document ??= openApiDocument(this.documentedRoutes, INFO, TAGS);
    return this.document;
  }
}
