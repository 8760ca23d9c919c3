import { exports } from 'cloudflare:workers';
import { expect, inject } from 'vitest';
import {
  type CrawlView,
  crawlCreatedSchema,
  crawlSchema,
  type PageList,
  pageListSchema,
} from '../../src/api/responses';
import { type PublishedDocument, publishedDocument, publishedProblem } from './published-schema';

const TOKEN = 'test-token';

export type { CrawlView };

/** Calls the Worker's fetch handler (the real Hono app, in this isolate); its JSON answer must be as published. */
export function api(path: string, init: RequestInit & { token?: string | null } = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  if (init.token !== null) headers.set('authorization', `Bearer ${init.token ?? TOKEN}`);
  if (typeof init.body === 'string' && !headers.has('content-type')) headers.set('content-type', 'application/json');
  return checkedFetch(new Request(`http://edgecrawl.test${path}`, { ...init, headers }));
}

let published: Promise<PublishedDocument> | null = null;

/** The document GET /v1/openapi.json publishes, read once per test file. */
function publishedApi(): Promise<PublishedDocument> {
  published ??= exports.default
    .fetch(new Request('http://edgecrawl.test/v1/openapi.json'))
    .then(async (res) => publishedDocument(await res.json()));
  return published;
}

/**
 * The Worker's answer to `request`, after checking that a JSON answer validates against the published OpenAPI
 * document (test/support/published-schema.ts): a test that gets an answer unlike the document fails, saying why.
 */
export async function checkedFetch(request: Request): Promise<Response> {
  const res = await exports.default.fetch(request);
  if (res.status >= 500 || !/^application\/json\b/i.test(res.headers.get('content-type') ?? '')) return res;
  const { pathname } = new URL(request.url);
  const problem = publishedProblem(
    await publishedApi(),
    request.method,
    pathname,
    res.status,
    await res.clone().json(),
  );
  if (problem !== null)
    throw new Error(
      `${request.method} ${pathname} answered ${res.status} unlike the published OpenAPI document: ${problem}`,
    );
  return res;
}

export async function createCrawl(request: Record<string, unknown>): Promise<string> {
  const res = await api('/v1/crawls', { method: 'POST', body: JSON.stringify(request) });
  const raw: unknown = await res.json();
  expect(res.status, JSON.stringify(raw)).toBe(201);
  return crawlCreatedSchema.parse(raw).id;
}

export async function getCrawl(id: string): Promise<CrawlView> {
  const res = await api(`/v1/crawls/${id}`);
  expect(res.status).toBe(200);
  return crawlSchema.parse(await res.json());
}

/** Polls until the crawl is no longer running. */
export async function waitForCrawl(id: string, timeoutMs = 80_000): Promise<CrawlView> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const crawl = await getCrawl(id);
    if (crawl.status !== 'running') return crawl;
    if (Date.now() > deadline) throw new Error(`crawl ${id} still running: ${JSON.stringify(crawl)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export async function allPages(id: string, limit = 100): Promise<PageList['pages']> {
  const pages: PageList['pages'] = [];
  let cursor: string | null = null;
  do {
    const res = await api(`/v1/crawls/${id}/pages?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
    expect(res.status).toBe(200);
    const body = pageListSchema.parse(await res.json());
    pages.push(...body.pages);
    cursor = body.cursor;
  } while (cursor);
  return pages;
}

/** A fresh namespace for the test site, so each test reads only its own requests. */
export function namespace(): string {
  return crypto.randomUUID().replace(/-/g, '').slice(0, 12);
}

export function site(which: 'A' | 'B' = 'A'): string {
  return inject(which === 'A' ? 'siteA' : 'siteB');
}

/** "host path" of every request the test site received for `ns`, in order. */
export async function siteLog(ns: string): Promise<string[]> {
  const res = await fetch(`${site()}/__log/${ns}`);
  return ((await res.json()) as { entries: string[] }).entries;
}

export function countBy<T>(items: readonly T[]): Map<T, number> {
  const counts = new Map<T, number>();
  for (const item of items) counts.set(item, (counts.get(item) ?? 0) + 1);
  return counts;
}
