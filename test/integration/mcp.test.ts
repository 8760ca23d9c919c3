/**
 * The MCP server at /mcp, inside workerd: its auth and methods, and the tools it lists (the system test,
 * test/system/mcp.test.ts, drives every tool against wrangler dev).
 */

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { api, checkedFetch, createCrawl, namespace, site, waitForCrawl } from '../support/api';

/** An MCP client connected to the Worker's /mcp, its answers checked against the published document. */
async function connected(): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL('http://edgecrawl.test/mcp'), {
    requestInit: { headers: { authorization: 'Bearer test-token' } },
    fetch: (input, init) => checkedFetch(new Request(input, init)),
  });
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

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
    const client = await connected();
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
    const client = await connected();
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
    const client = await connected();
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

  it('scrape and crawl take headers, cookies and basic credentials; no answer of any tool shows their values', async () => {
    const ns = namespace();
    const base = `${site()}/t/${ns}/private/`;
    const basic = btoa(`user-${ns}:pass-${ns}`);
    const secrets = [`key-${ns}`, `sess-${ns}`, `pass-${ns}`, basic, `wrong-${ns}`];
    const client = await connected();
    const { tools } = await client.listTools();
    for (const name of ['scrape', 'crawl'])
      expect(Object.keys(tools.find((t) => t.name === name)?.inputSchema.properties ?? {}), name).toEqual(
        expect.arrayContaining(['headers', 'cookies', 'authenticate', 'credentialsFor']),
      );
    const answers: unknown[] = [];
    const call = async (name: string, args: Record<string, unknown>) => {
      const result = await client.callTool({ name, arguments: args });
      answers.push(result);
      return result;
    };

    const scraped = await call('scrape', { url: `${base}header/c.html`, headers: { 'X-Api-Key': `key-${ns}` } });
    expect(scraped.isError).toBeFalsy();
    expect(JSON.stringify(scraped.content)).toContain('Header page header/c.html');

    const credentials = {
      headers: { 'X-Api-Key': `key-${ns}` },
      cookies: [{ name: 'session', value: `sess-${ns}` }],
      authenticate: { username: `user-${ns}`, password: `pass-${ns}` },
    };
    const started = await call('crawl', { seeds: [base], maxPages: 20, ...credentials });
    expect(started.isError, JSON.stringify(started.content)).toBeFalsy();
    const { id } = JSON.parse((started.content as { text: string }[])[0]?.text ?? '{}') as { id: string };
    expect((await waitForCrawl(id)).status).toBe('completed');
    const status = await call('crawl_status', { crawlId: id });
    expect(JSON.parse((status.content as { text: string }[])[0]?.text ?? '{}')).toMatchObject({
      credentials: {
        hosts: [new URL(base).hostname],
        headers: ['X-Api-Key'],
        cookies: ['session'],
        authenticate: true,
      },
    });
    const found = await call('search_pages', { crawlId: id, limit: 50 });
    for (const path of ['header/c.html', 'basic/b.html', 'cookie/a.html']) {
      expect(JSON.stringify(found.content)).toContain(`${base}${path}`);
      const page = await call('get_page', { crawlId: id, url: `${base}${path}` });
      expect(page.isError, path).toBeFalsy();
      expect(JSON.stringify(page.content), path).toMatch(/(Header|Basic|Cookie) page/);
    }

    // A key the site refuses: crawl_status says so, in `access`.
    const wrong = await call('crawl', { seeds: [`${base}header/c.html`], headers: { 'X-Api-Key': `wrong-${ns}` } });
    const wrongId = (JSON.parse((wrong.content as { text: string }[])[0]?.text ?? '{}') as { id: string }).id;
    await waitForCrawl(wrongId);
    const refusedStatus = await call('crawl_status', { crawlId: wrongId });
    expect(JSON.parse((refusedStatus.content as { text: string }[])[0]?.text ?? '{}')).toMatchObject({
      access: { refused: 1, sessionExpired: false, message: expect.stringMatching(/credentials were refused/) },
    });

    // Refused requests name the field, never the value.
    const refused = await call('crawl', { seeds: [base], cookies: [{ name: 'session', value: `sess-${ns} x` }] });
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toMatch(/cookies\.0\.value/);
    const named = await call('scrape', { url: base, headers: { 'User-Agent': `key-${ns}` } });
    expect(JSON.stringify(named.content)).toMatch(/User-Agent cannot be set/);

    const text = JSON.stringify(answers);
    for (const secret of secrets) expect(text.includes(secret), secret).toBe(false);
    await client.close();
  });
});
