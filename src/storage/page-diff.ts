import { diffLines, type LineDiff } from '../domain/output/line-diff';
import { getStoredPage } from './d1/stored-page';
import { readRecord, type StoredRecord } from './records';

export type DiffFormat = 'markdown' | 'text';

/** What a page of a recrawl can be diffed as: a kind with a version on each side that exists (or is gone). */
export type DiffKind = 'new' | 'changed' | 'unchanged' | 'gone';

/** A page of a recrawl against the previous crawl's version of it. */
export interface PageDiff extends Omit<LineDiff, 'unified'> {
  kind: DiffKind;
  diff: string;
  fields: { name: string; before: unknown; after: unknown }[];
}

/** A page's record in a crawl, or null when the crawl stored none for it. */
async function recordIn(db: D1Database, bucket: R2Bucket, crawlId: string, url: string): Promise<StoredRecord | null> {
  const page = await getStoredPage(db, crawlId, url);
  return page?.recordAt ? readRecord(bucket, page.recordAt) : null;
}

/** Declared fields whose value differs between two records (top-level, compared as JSON). */
function changedFields(before: StoredRecord | null, after: StoredRecord | null): PageDiff['fields'] {
  const a = before?.record.fields ?? {};
  const b = after?.record.fields ?? {};
  return [...new Set([...Object.keys(a), ...Object.keys(b)])]
    .filter((name) => JSON.stringify(a[name] ?? null) !== JSON.stringify(b[name] ?? null))
    .map((name) => ({ name, before: a[name] ?? null, after: b[name] ?? null }));
}

/**
 * The unified diff of a page's markdown (or text) from the previous crawl's record to this crawl's, and its fields
 * that changed; `kind` is the page's when known (D1 says it, see storage/d1/changes.ts; else it is read from the
 * records: a page event of this crawl's own). `missing`: neither crawl has a record of it; `no-format`: a record
 * lacks that output.
 */
export async function diffPage(
  db: D1Database,
  bucket: R2Bucket,
  page: { crawlId: string; previousCrawlId: string; url: string; format: DiffFormat; kind?: DiffKind },
): Promise<PageDiff | 'missing' | 'no-format'> {
  const [before, after] = await Promise.all([
    recordIn(db, bucket, page.previousCrawlId, page.url),
    recordIn(db, bucket, page.crawlId, page.url),
  ]);
  if (!before && !after) return 'missing';
  if ([before, after].some((r) => r && r.outputs[page.format] === undefined)) return 'no-format';
  const { unified, ...counts } = diffLines(before?.outputs[page.format] ?? '', after?.outputs[page.format] ?? '');
  const fields = changedFields(before, after);
  const kind =
    page.kind ?? (!before ? 'new' : !after ? 'gone' : unified === '' && !fields.length ? 'unchanged' : 'changed');
  return { kind, ...counts, diff: unified, fields };
}
