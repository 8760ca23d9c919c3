/**
 * The MCP server at /mcp of a real `wrangler dev`, driven by the official client (the SDK's Client over its
 * Streamable HTTP transport), as an agent would: list the tools, scrape a page, crawl a small site, follow it, find
 * a page and read it in parts. Runs in Node (vitest project "system").
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sites, startSites, startWorker, type Worker } from '../../scripts/lib/local.ts';

let sites: Sites;
let worker: Worker;
let client: Client;

beforeAll(async () => {
  sites = await startSites(0);
  worker = await startWorker({ HOST_MIN_INTERVAL_MS: '0', CHECK_RESPONSES: 'true' });
  client = new Client({ name: 'edgecrawl-system-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${worker.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${worker.token}` } },
    }),
  );
});

afterAll(async () => {
  await client?.close();
  await worker?.stop();
  await sites?.stop();
});

/** A tool's result: its text parts joined, and whether it is an error. */
async function call(name: string, args: Record<string, unknown>): Promise<{ text: string; isError: boolean }> {
  const result = await client.callTool({ name, arguments: args });
  const parts = Array.isArray(result.content) ? result.content : [];
  const text = parts.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
  return { text, isError: result.isError === true };
}

describe('MCP over Streamable HTTP against wrangler dev', () => {
  const ns = `mcp${Date.now().toString(36)}`;

  it('lists five tools, each described, its inputs described', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['scrape', 'map', 'crawl', 'crawl_status', 'search_pages', 'get_page']);
    for (const tool of tools) {
      expect(tool.description?.length, tool.name).toBeGreaterThan(100);
      expect(Object.keys(tool.inputSchema.properties ?? {}).length, tool.name).toBeGreaterThan(0);
    }
    const crawl = tools.find((t) => t.name === 'crawl');
    expect(crawl?.inputSchema.required).toEqual(['seeds']);
  });

  it('scrapes a page to markdown; a bad URL is a tool error with the API message', async () => {
    const page = await call('scrape', { url: `${sites.siteA}/t/${ns}/long-60/short.html` });
    expect(page.isError, page.text).toBe(false);
    expect(page.text).toContain('The short note says little.');
    expect(page.text).toContain('"title":"Short note"');
    const bad = await call('scrape', { url: 'not a url' });
    expect(bad).toEqual({
      isError: true,
      text: 'invalid_request (400): invalid request body: url: not an absolute http(s) URL: "not a url"',
    });
  });

  it("maps a site's URLs from its links without fetching them", async () => {
    const mapped = await call('map', { url: `${sites.siteA}/t/${ns}/long-60/` });
    expect(mapped.isError, mapped.text).toBe(false);
    expect(mapped.text).toMatch(/^\d+ URLs/);
    expect(mapped.text).toContain(`${sites.siteA}/t/${ns}/long-60/long.html`);
  });

  it('crawls a site, follows it to the end, finds a page by a title word and reads it in parts', async () => {
    const started = await call('crawl', { seeds: [`${sites.siteA}/t/${ns}/long-60/`], maxPages: 5, maxDepth: 1 });
    expect(started.isError, started.text).toBe(false);
    const id = (/"id":"([0-9a-f-]{36})"/.exec(started.text) ?? [])[1] ?? '';
    let status: { status: string; counts: { stored: number }; recentPages: { url: string }[] } | undefined;
    for (let i = 0; i < 120 && status?.status !== 'completed'; i++) {
      if (i > 0) await new Promise((resolve) => setTimeout(resolve, 500));
      status = JSON.parse((await call('crawl_status', { crawlId: id })).text);
    }
    expect(status?.status).toBe('completed');
    expect(status?.counts.stored).toBe(3);
    expect(status?.recentPages).toHaveLength(3);

    const found = JSON.parse((await call('search_pages', { crawlId: id, q: 'long READ' })).text);
    expect(found).toEqual({
      pages: [{ url: `${sites.siteA}/t/${ns}/long-60/long.html`, title: 'Long read', status: 200 }],
      cursor: null,
    });

    const url = found.pages[0].url;
    const parts: string[] = [];
    let offset = 0;
    for (;;) {
      const part = await call('get_page', { crawlId: id, url, offset });
      expect(part.isError, part.text).toBe(false);
      const cut = /\n\n\[cut: characters (\d+)–(\d+) of (\d+); for the rest, call get_page with offset: (\d+)\]$/.exec(
        part.text,
      );
      if (!cut) {
        parts.push(part.text.replace(/\n\n\[characters \d+–\d+ of \d+: the end\]$/, ''));
        break;
      }
      expect(Number(cut[2]) - Number(cut[1])).toBe(20_000);
      parts.push(part.text.slice(0, cut.index));
      offset = Number(cut[4]);
    }
    expect(parts.length).toBeGreaterThanOrEqual(3);
    const markdown = parts.join('');
    expect(markdown.startsWith('# Long read')).toBe(true);
    expect(markdown.trimEnd().endsWith('The end of the long read.')).toBe(true);
    const past = await call('get_page', { crawlId: id, url, offset: markdown.length });
    expect(past.isError).toBe(true);

    const missing = await call('get_page', { crawlId: id, url: `${sites.siteA}/t/${ns}/long-60/nowhere.html` });
    expect(missing).toMatchObject({ isError: true, text: expect.stringMatching(/^not_found \(404\): no page /) });
  });
});
