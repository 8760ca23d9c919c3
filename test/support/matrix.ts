/**
 * The read paths of a crawl, each read as a user reads it, and the rules every answer keeps (test/integration/
 * matrix.test.ts): a 2xx is never empty, an error is `{error: {code, message}}` and never a 5xx, and what one path
 * says agrees with what the others answer.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect } from 'vitest';
import { warcExportSchema } from '../../src/api/responses';
import { api, checkedFetch } from './api';
import { checkWarcStructure, parseWarcGz } from './warc';

/** One answer of one read path. */
export interface Cell {
  path: string;
  status: number;
  type: string;
  text: string;
  headers: Headers;
}

/** Reads `path` as bytes and text, and holds it to the rules every answer keeps. */
export async function read(path: string, init: RequestInit = {}): Promise<Cell> {
  const res = await api(path, init);
  const bytes = new Uint8Array(await res.arrayBuffer());
  const cell = {
    path,
    status: res.status,
    type: res.headers.get('content-type') ?? '',
    text: new TextDecoder().decode(bytes),
    headers: res.headers,
  };
  expect(cell.status, `${path} never answers a 5xx: ${cell.text.slice(0, 300)}`).toBeLessThan(500);
  if (cell.status < 300)
    expect(cell.text.trim().length, `${path} answered ${cell.status} with nothing in it`).toBeGreaterThan(0);
  else expect(errorMessage(cell), `${path} answered ${cell.status} without an error message`).not.toBe('');
  return cell;
}

/** The code and message of an error answer (empty when it is not one). */
function errorOf(cell: Cell): { code: string; message: string } {
  if (cell.status < 400) return { code: '', message: '' };
  try {
    const body = JSON.parse(cell.text) as { error?: { code?: unknown; message?: unknown } };
    const text = (v: unknown) => (typeof v === 'string' ? v : '');
    return { code: text(body.error?.code), message: text(body.error?.message) };
  } catch {
    return { code: '', message: '' };
  }
}

export const errorMessage = (cell: Cell): string => errorOf(cell).message;
export const errorCode = (cell: Cell): string => errorOf(cell).code;

export const json = <T>(cell: Cell): T => JSON.parse(cell.text) as T;

/** The WARC a crawl exports, written and read back, its structure checked; its records by type. */
export async function warcOf(id: string): Promise<Map<string, string[]>> {
  const started = await read(`/v1/crawls/${id}/exports`, { method: 'POST' });
  expect(started.status, started.text).toBe(201);
  const written = warcExportSchema.parse(json(started));
  expect(written.missing, 'every stored body is in the WARC').toEqual([]);
  const res = await api(written.download);
  expect(res.status).toBe(200);
  const records = parseWarcGz(new Uint8Array(await res.arrayBuffer()));
  expect(records).toHaveLength(written.records);
  checkWarcStructure(records);
  const byType = new Map<string, string[]>();
  for (const r of records) {
    const type = r.headers.get('WARC-Type') ?? '';
    byType.set(type, [...(byType.get(type) ?? []), r.headers.get('WARC-Target-URI') ?? '']);
  }
  return byType;
}

/** An MCP client of the Worker, in this isolate, its answers checked against the published document. */
export async function mcpClient(): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL('http://edgecrawl.test/mcp'), {
    requestInit: { headers: { authorization: 'Bearer test-token' } },
    fetch: (input, init) => checkedFetch(new Request(input, init)),
  });
  const client = new Client({ name: 'matrix', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

/** get_page's answer: its text, and whether it is an error. */
export async function getPage(client: Client, crawlId: string, url: string): Promise<{ error: boolean; text: string }> {
  const result = await client.callTool({ name: 'get_page', arguments: { crawlId, url } });
  const parts = Array.isArray(result.content) ? (result.content as { type: string; text?: string }[]) : [];
  return { error: result.isError === true, text: parts.map((p) => p.text ?? '').join('\n') };
}
