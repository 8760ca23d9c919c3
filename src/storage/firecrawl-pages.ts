import { Buffer } from 'node:buffer';
import { SCRAPE_CRAWL_ID } from '../domain/crawl/page-cache';
import type { PageVersion } from '../domain/firecrawl/change-tracking';
import type { PageFacts } from '../domain/firecrawl/document';
import type { FirecrawlFormats } from '../domain/firecrawl/formats';
import {
  type DocumentsFrom,
  documentRows,
  documentRowsOf,
  fetchTimesOf,
  type DocumentRow as Row,
} from './d1/firecrawl-documents';
import { getStoredPage } from './d1/stored-page';
import { readRecord } from './records';
import { SpanReads } from './span-reads';

// A crawl's pages as Firecrawl's documents read them: rows in URL order, with their records (and bodies or
// screenshots when the formats ask for them) from R2. A duplicate's row holds its kept page's locations
// (d1/firecrawl-documents.ts), so it reads that page's parts under its own URL.

/** R2 reads at once. */
const READS = 6;

async function factsOf(reads: SpanReads, row: Row, formats: FirecrawlFormats): Promise<PageFacts> {
  const [stored, body, screenshot] = await Promise.all([
    row.recordAt ? reads.record(row.recordAt) : null,
    formats.rawHtml && row.bodyAt ? reads.span(row.bodyAt) : null,
    formats.screenshot && row.screenshotAt ? reads.span(row.screenshotAt) : null,
  ]);
  return {
    url: row.url,
    finalUrl: row.url,
    status: row.status,
    contentType: row.contentType,
    title: row.title,
    fetchedAt: new Date(row.fetchedAt).toISOString(),
    cached: row.cachedFrom !== null,
    record: stored?.record ?? null,
    outputs: stored?.outputs ?? {},
    rawHtml: body ? new TextDecoder().decode(body) : null,
    screenshot: screenshot ? `data:image/png;base64,${Buffer.from(screenshot).toString('base64')}` : null,
  };
}

/**
 * Firecrawl's changeTracking of a crawl's documents (asked for with the format), against the crawl it was compared
 * with (its previousCrawlId; none: every page is new): the change its recrawl recorded, and when that crawl fetched
 * the page.
 */
async function withChangeTracking(
  db: D1Database,
  rows: readonly Row[],
  pages: PageFacts[],
  previousCrawlId: string | null,
): Promise<PageFacts[]> {
  const times =
    previousCrawlId === null
      ? new Map<string, number>()
      : await fetchTimesOf(
          db,
          previousCrawlId,
          rows.map((r) => r.url),
        );
  return pages.map((page, i) => {
    const at = times.get(page.url);
    const change = rows[i]?.change ?? null;
    const changeStatus =
      at === undefined || change === null || change === 'new' ? 'new' : change === 'unchanged' ? 'same' : 'changed';
    const previousScrapeAt = changeStatus === 'new' || at === undefined ? null : new Date(at).toISOString();
    return { ...page, changeTracking: { previousScrapeAt, changeStatus, visibility: 'visible' } };
  });
}

/** The pages of `rows` as documents' facts, with their changeTracking when the formats ask for it. */
async function pagesOf(
  db: D1Database,
  bucket: R2Bucket,
  rows: readonly Row[],
  formats: FirecrawlFormats,
  previousCrawlId: string | null,
): Promise<PageFacts[]> {
  const reads = new SpanReads(bucket, READS);
  const pages = await Promise.all(rows.map((row) => factsOf(reads, row, formats)));
  return formats.changeTracking ? withChangeTracking(db, rows, pages, previousCrawlId) : pages;
}

/**
 * A page of a crawl's documents, in URL order: `limit` of them from `from`, and whether more follow (one row more
 * is read to know). `previousCrawlId`: the crawl they are compared with (changeTracking).
 */
export async function readDocuments(
  db: D1Database,
  bucket: R2Bucket,
  crawlId: string,
  page: { from: DocumentsFrom; limit: number; formats: FirecrawlFormats; previousCrawlId?: string | null },
): Promise<{ pages: PageFacts[]; more: boolean }> {
  const rows = await documentRows(db, crawlId, page.from, page.limit + 1);
  const pages = await pagesOf(db, bucket, rows.slice(0, page.limit), page.formats, page.previousCrawlId ?? null);
  return { pages, more: rows.length > page.limit };
}

/** The documents of some of a crawl's pages, by URL (a webhook's crawl.page events); pages without one are left out. */
export async function documentsOf(
  db: D1Database,
  bucket: R2Bucket,
  crawlId: string,
  urls: readonly string[],
  formats: FirecrawlFormats,
  previousCrawlId: string | null = null,
): Promise<PageFacts[]> {
  const rows = await documentRowsOf(db, crawlId, urls);
  return pagesOf(db, bucket, rows, formats, previousCrawlId);
}

/** The last stored copy of a URL that a scrape read (the page cache's), as changeTracking compares it; null: none. */
export async function lastScrape(db: D1Database, bucket: R2Bucket, url: string): Promise<PageVersion | null> {
  const page = await getStoredPage(db, SCRAPE_CRAWL_ID, url);
  if (!page?.recordAt) return null;
  const stored = await readRecord(bucket, page.recordAt);
  if (!stored) return null;
  return {
    fetchedAt: new Date(page.fetchedAt).toISOString(),
    contentHash: stored.record.contentHash,
    markdown: stored.outputs.markdown ?? null,
  };
}

export type { DocumentsFrom };
