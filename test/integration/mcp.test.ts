/**
 * The MCP server at /mcp, inside workerd: its auth and methods, and the tools it lists (the system test,
 * test/system/mcp.test.ts, drives every tool against wrangler dev).
 */

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { api, checkedFetch, createCrawl, namespace, site, waitForCrawl } from '../support/api';

describe('/mcp', () => {
  it('needs the API token: 401 with the JSON error, as the API', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    for (const token of [null, 'wrong-token']) {
      const res = await api('/mcp', { method: 'POST', body, token });
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ error: { code: 'unauthorized' } });
    }
  });

  it('answers GET and DELETE with 405 (a stateless server: no stream, no session)', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await api('/mcp', { method, headers: { accept: 'text/event-stream' } });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
    }
  });

  it('lists its tools, their inputs described from the API schemas', async () => {
    const transport = new StreamableHTTPClientTransport(new URL('http://edgecrawl.test/mcp'), {
      requestInit: { headers: { authorization: 'Bearer test-token' } },
      fetch: (input, init) => checkedFetch(new Request(input, init)),
    });
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(transport);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['scrape', 'map', 'crawl', 'crawl_status', 'search_pages', 'get_page']);
    const scrape = tools.find((t) => t.name === 'scrape');
    expect(scrape?.inputSchema.required).toEqual(['url']);
    expect(Object.keys(scrape?.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining(['url', 'extract', 'formats', 'render', 'actions', 'offset']),
    );
    const crawl = tools.find((t) => t.name === 'crawl');
    expect(crawl?.inputSchema.properties?.maxPages).toMatchObject({ default: 100 });
    const result = await client.callTool({ name: 'crawl_status', arguments: { crawlId: 'nope' } });
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([{ type: 'text', text: 'not_found (404): no crawl with id "nope"' }]);
    await client.close();
  });

  it("get_page of a duplicate reads the kept page's content, and says which page that is", async () => {
    const base = `${site()}/t/${namespace()}/shop/`;
    const id = await createCrawl({ seeds: [base], extract: { formats: ['markdown'] } });
    expect((await waitForCrawl(id)).counts).toMatchObject({ duplicates: 43 });
    const transport = new StreamableHTTPClientTransport(new URL('http://edgecrawl.test/mcp'), {
      requestInit: { headers: { authorization: 'Bearer test-token' } },
      fetch: (input, init) => checkedFetch(new Request(input, init)),
    });
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(transport);
    const read = (url: string) => client.callTool({ name: 'get_page', arguments: { crawlId: id, url } });
    const [duplicate, kept] = [await read(`${base}p/4.html`), await read(`${base}p/4.html?ref=canonical`)];
    expect(duplicate.isError).toBeFalsy();
    expect(duplicate.content).toEqual([
      {
        type: 'text',
        text: `${base}p/4.html is a duplicate of ${base}p/4.html?ref=canonical: the content below is that page's.`,
      },
      ...(kept.content as unknown[]),
    ]);
    expect(JSON.stringify(kept.content)).toContain('Product 4 is a fine thing');
    await client.close();
  });

  it('scrape with jsonSchema answers the JSON; get_page with format "json" reads a crawled page\'s', async () => {
    const base = `${site()}/t/${namespace()}/products/`;
    const schema = { type: 'object', properties: { name: { type: 'string' }, sku: { type: 'string' } } };
    const id = await createCrawl({ seeds: [base], extract: { formats: ['json'], json: { schema } } });
    expect((await waitForCrawl(id)).status).toBe('completed');
    const transport = new StreamableHTTPClientTransport(new URL('http://edgecrawl.test/mcp'), {
      requestInit: { headers: { authorization: 'Bearer test-token' } },
      fetch: (input, init) => checkedFetch(new Request(input, init)),
    });
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(transport);
    const scraped = await client.callTool({
      name: 'scrape',
      arguments: { url: `${base}p/5.html`, jsonSchema: schema },
    });
    expect(scraped.isError).toBeFalsy();
    expect(JSON.stringify(scraped.content)).toContain('SKU-0005');
    const page = await client.callTool({
      name: 'get_page',
      arguments: { crawlId: id, url: `${base}p/5.html`, format: 'json' },
    });
    expect(page.isError).toBeFalsy();
    expect(JSON.stringify(page.content)).toContain('model fake-model, answer: ');
    expect(JSON.stringify(page.content)).toContain('\\"sku\\": \\"SKU-0005\\"');
    // A crawl that did not ask for a summary: get_page says so, as a tool error.
    const none = await client.callTool({
      name: 'get_page',
      arguments: { crawlId: id, url: `${base}p/5.html`, format: 'summary' },
    });
    expect(none.isError).toBe(true);
    await client.close();
  });
});
