import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { columnsOf, PAGE_FIELDS, readPage } from '../../src/storage/d1/page-rows';
import { pageUpserts } from '../../src/storage/d1/page-upserts';
import type { PageRecord } from '../../src/types';

const page: PageRecord = {
  url: 'https://example.com/a',
  status: 200,
  contentType: 'text/html',
  title: 'A',
  depth: 2,
  bytes: 1234,
  fetchedAt: 1_700_000_000_000,
  bodyAt: { key: 'crawls/x/segments/1', offset: 10, length: 1234 },
  redirectTo: null,
  etag: '"e1"',
  lastModified: 'Tue, 01 Oct 2024 00:00:00 GMT',
  change: 'changed',
  contentHash: 'abc',
  description: 'about A',
  language: 'en',
  wordCount: 321,
  warnings: ['too large to parse'],
  recordAt: { key: 'crawls/x/segments/1', offset: 1244, length: 99 },
  linksAt: { key: 'crawls/x/segments/2', offset: 0, length: 42 },
  rendered: 'auto: empty-app-root',
  fetchedBodyAt: { key: 'crawls/x/segments/2', offset: 42, length: 512 },
  screenshotAt: { key: 'crawls/x/segments/2', offset: 554, length: 20_000 },
  exchangeAt: { offset: 1343, length: 300 },
  cachedFrom: 'scrape',
  duplicateOf: 'https://example.com/canonical',
  duplicateReason: 'canonical',
  similarity: null,
};

async function written(record: PageRecord): Promise<Record<string, unknown>> {
  const crawlId = crypto.randomUUID();
  await env.DB.batch(pageUpserts(env.DB, crawlId, [record]));
  const row = await env.DB.prepare(`SELECT ${columnsOf(PAGE_FIELDS)} FROM pages WHERE crawl_id = ?`)
    .bind(crawlId)
    .first();
  if (!row) throw new Error('no row written');
  return row;
}

describe('the pages table mapping', () => {
  it('reads back every field of a page record as it was written, each from its own columns', async () => {
    expect(readPage(await written(page), PAGE_FIELDS)).toEqual(page);
  });

  it('reads absent optional fields as null, a body of a whole object with a null offset', async () => {
    const bare: PageRecord = {
      ...page,
      bodyAt: { key: 'crawls/x/bodies/a', offset: null, length: null },
      redirectTo: 'https://example.com/b',
    };
    for (const field of [
      'etag',
      'lastModified',
      'change',
      'contentHash',
      'description',
      'language',
      'wordCount',
      'recordAt',
      'linksAt',
      'rendered',
      'fetchedBodyAt',
      'screenshotAt',
      'exchangeAt',
      'cachedFrom',
      'duplicateOf',
      'duplicateReason',
      'similarity',
    ] as const)
      delete bare[field];
    delete bare.warnings;
    expect(readPage(await written(bare), PAGE_FIELDS)).toEqual({
      ...bare,
      etag: null,
      lastModified: null,
      change: null,
      contentHash: null,
      description: null,
      language: null,
      wordCount: null,
      warnings: [],
      recordAt: null,
      linksAt: null,
      rendered: null,
      fetchedBodyAt: null,
      screenshotAt: null,
      exchangeAt: null,
      cachedFrom: null,
      duplicateOf: null,
      duplicateReason: null,
      similarity: null,
    });
  });

  it("reads a near-duplicate back as 'similar', with its similarity (its column's CHECK knows 'content')", async () => {
    const near: PageRecord = { ...page, duplicateReason: 'similar', similarity: 0.984375 };
    const row = await written(near);
    expect(row).toMatchObject({ duplicate_reason: 'content', similarity: 0.984375 });
    expect(readPage(row, PAGE_FIELDS)).toEqual(near);
  });

  it('reads only the fields a query selected, and refuses a value its column does not store', () => {
    expect(readPage({ url: 'https://example.com/', status: 200 }, ['url', 'status'] as const)).toEqual({
      url: 'https://example.com/',
      status: 200,
    });
    expect(() => readPage({ url: 'https://example.com/' }, ['url', 'status'] as const)).toThrow();
    expect(() => readPage({ url: 'https://example.com/', status: '200' }, ['url', 'status'] as const)).toThrow(
      /pages\.status/,
    );
    expect(() => readPage({ change: 'moved' }, ['change'] as const)).toThrow(/pages\.change/);
  });
});
