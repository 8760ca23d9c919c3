import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { type ExecutionContext, Hono } from 'hono';
import { bearerAuth } from '../auth';
import { bytes, routeDoc } from '../openapi/route-doc';
import { MAX_BODY_BYTES } from '../schemas';
import { apiClient } from './api-client';
import { mcpServer } from './server';

/** The Worker's app, called in-process: (request, env, ctx) as the fetch handler takes them. */
export type AppHandler = (request: Request, env: Env, ctx: ExecutionContext) => Response | Promise<Response>;

/**
 * POST /mcp: the MCP server over Streamable HTTP, stateless (a new server and transport per request; Workers keep no
 * session between requests, and no session id is given). JSON answers, not SSE streams: every tool answers at once.
 * GET and DELETE (a server-sent stream, ending a session) are 405s from the app's fallback, as the spec allows a
 * stateless server. The same bearer token as the API; its tools call the API with it.
 */
export function mcpRoutes(app: AppHandler) {
  return new Hono<{ Bindings: Env }>()
    .use(
      '/',
      bearerAuth((env) => env.API_TOKEN),
    )
    .post(
      '/',
      routeDoc({
        summary: 'The MCP server (Streamable HTTP, stateless)',
        description:
          'JSON-RPC messages of the Model Context Protocol: tools scrape, crawl, crawl_status, search_pages and get_page, which call this API with the same token. See docs/mcp.md.',
        tag: 'MCP',
        responses: {
          200: bytes('A JSON-RPC answer', 'application/json'),
          202: bytes('A notification or answer taken (no body)', 'application/json'),
        },
      }),
      async (c) => {
        const ctx = c.executionCtx;
        const api = apiClient(
          async (request) => app(request, c.env, ctx),
          new URL(c.req.url).origin,
          c.req.header('authorization') ?? '',
        );
        const server = mcpServer(api);
        const transport = new WebStandardStreamableHTTPServerTransport({
          enableJsonResponse: true,
          maxRequestBodySize: MAX_BODY_BYTES,
        });
        await server.connect(transport);
        return transport.handleRequest(c.req.raw);
      },
    );
}
