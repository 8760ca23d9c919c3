import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import { log } from '../../log';
import type { ApiClient } from './api-client';
import { errorResult, ToolError } from './output';
import { listing, type Tool } from './tool';
import { crawlTool } from './tools/crawl';
import { crawlStatusTool } from './tools/crawl-status';
import { mapTool } from './tools/map';
import { getPageTool, searchPagesTool } from './tools/pages';
import { scrapeTool } from './tools/scrape';

const TOOLS: readonly Tool[] = [scrapeTool, mapTool, crawlTool, crawlStatusTool, searchPagesTool, getPageTool];

const INSTRUCTIONS =
  'edgecrawl fetches the web politely (robots.txt, per-host rate limits). scrape reads one URL now; map lists a ' +
  "site's URLs from its sitemaps and links; for a site, " +
  'crawl starts a crawl, crawl_status follows it, search_pages finds its pages and get_page reads one from storage.';

/** What a tool call answers: its result, or a tool error with the API's message. */
async function call(tool: Tool, args: Record<string, unknown>, api: ApiClient): Promise<CallToolResult> {
  try {
    return await tool.run(args, api);
  } catch (error) {
    if (error instanceof ToolError) return errorResult(error.message);
    log('error', 'mcp tool failed', { tool: tool.name, error: String(error) });
    return errorResult(`internal error in ${tool.name}`);
  }
}

/**
 * An MCP server of edgecrawl's tools, for one request (stateless: nothing is kept between requests). The SDK's
 * low-level Server is used rather than McpServer, whose tools validate their arguments themselves: here the API
 * does, so that an agent reads the API's defaults and messages (see tool.ts).
 */
export function mcpServer(api: ApiClient): Server {
  const server = new Server(
    { name: 'edgecrawl', version: '0.1.0' },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: TOOLS.map(listing) }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = TOOLS.find((t) => t.name === request.params.name);
    if (!tool)
      throw new McpError(
        ErrorCode.InvalidParams,
        `no tool ${JSON.stringify(request.params.name)}; the tools are ${TOOLS.map((t) => t.name).join(', ')}`,
      );
    return call(tool, request.params.arguments ?? {}, api);
  });
  return server;
}
