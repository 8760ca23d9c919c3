import type { UsageMeter } from '../domain/crawl/usage';
import { concatBytes } from '../domain/util/bytes';
import type { ExtractedPage, Processed, SegmentRange, Span } from '../types';
import { encodeLinks } from './links';

/** A segment is closed at this size and the next body starts a new one. */
const SEGMENT_TARGET_BYTES = 32 * 1024 * 1024;

/** Segments up to this size are put as one buffer (one copy, no stream); larger ones are streamed. */
const CONCAT_MAX_BYTES = 8 * 1024 * 1024;

/** The bodies back to back as a stream of known length, without copying them into one buffer. */
function streamOf(parts: Uint8Array[], total: number): ReadableStream {
  const { readable, writable } = new FixedLengthStream(total);
  const writer = writable.getWriter();
  void (async () => {
    for (const part of parts) if (part.byteLength > 0) await writer.write(part);
    await writer.close();
  })().catch((error: unknown) => writer.abort(error).catch(() => undefined));
  return readable;
}

const segmentPrefix = (crawlId: string) => `crawls/${crawlId}/segments/`;
const timeKey = (at: number) => at.toString(36).padStart(9, '0');

function segmentKey(crawlId: string): string {
  // Time first, so a crawl's segments list in the order they were written.
  return `${segmentPrefix(crawlId)}${timeKey(Date.now())}-${crypto.randomUUID()}`;
}

/**
 * Deletes a crawl's segments written before `before` (epoch ms; their keys start with their time, so they list
 * first), up to `pages` listings of 1,000 keys; true once none is left.
 */
export async function deleteSegmentsBefore(
  bucket: R2Bucket,
  crawlId: string,
  before: number,
  pages: number,
): Promise<boolean> {
  const prefix = segmentPrefix(crawlId);
  const last = `${prefix}${timeKey(before)}`;
  for (let page = 0; page < pages; page++) {
    const listing = await bucket.list({ prefix, limit: 1000 });
    const keys = listing.objects.map((o) => o.key).filter((key) => key < last);
    if (keys.length > 0) await bucket.delete(keys);
    if (keys.length < listing.objects.length || !listing.truncated) return true;
  }
  return false;
}

/** A result with something to store: its body (a 2xx), its extraction record, or the links it found. */
type Stored = Processed & { page: NonNullable<Processed['page']> };

const toStore = (r: Processed): r is Stored =>
  r.page !== undefined && (r.body !== undefined || (r.links?.length ?? 0) > 0);

/** One result's parts, as they go into a segment. */
interface Parts {
  r: Stored;
  links: Uint8Array | null;
}

const bytesOf = ({ r, links }: Parts) =>
  (r.body?.byteLength ?? 0) +
  (r.record?.byteLength ?? 0) +
  (links?.byteLength ?? 0) +
  (r.fetchedBody?.byteLength ?? 0) +
  (r.screenshot?.byteLength ?? 0) +
  (r.exchange?.byteLength ?? 0);

/** Results in groups of about `targetBytes` each (a group holds at least one result). */
function groupsOf(results: readonly Parts[], targetBytes: number): Parts[][] {
  const groups: Parts[][] = [];
  let size = Number.POSITIVE_INFINITY;
  let group: Parts[] = [];
  for (const r of results) {
    if (size >= targetBytes) {
      group = [];
      groups.push(group);
      size = 0;
    }
    group.push(r);
    size += bytesOf(r);
  }
  return groups;
}

/**
 * Writes one group as one object: every body, then every record, every page's links, every rendered page's HTML as
 * fetched, every screenshot and every HTTP exchange, back to back; points each page at its ranges.
 */
async function writeGroup(
  bucket: R2Bucket,
  crawlId: string,
  group: Parts[],
  concatMaxBytes: number,
  usage?: UsageMeter,
): Promise<void> {
  const key = segmentKey(crawlId);
  const bodies = group.flatMap(({ r }) => (r.body ? [r.body] : []));
  const records = group.flatMap(({ r }) => (r.record ? [r.record] : []));
  const links = group.flatMap((p) => (p.links ? [p.links] : []));
  const fetched = group.flatMap(({ r }) => (r.fetchedBody ? [r.fetchedBody] : []));
  const screenshots = group.flatMap(({ r }) => (r.screenshot ? [r.screenshot] : []));
  // An exchange is kept only beside a body (its range is in the body's object).
  const exchanges = group.flatMap(({ r }) => (r.exchange && r.body ? [r.exchange] : []));
  const parts = [...bodies, ...records, ...links, ...fetched, ...screenshots, ...exchanges];
  const total = parts.reduce((sum, part) => sum + part.byteLength, 0);
  const value = total <= concatMaxBytes ? concatBytes(parts, total) : streamOf(parts, total);
  await bucket.put(key, value, { customMetadata: { crawlId, pages: String(group.length) } });
  usage?.r2Put(total);
  const next = spansIn(key);
  for (const { r } of group) if (r.body) r.page.bodyAt = next(r.body);
  for (const { r } of group) if (r.record) r.page.recordAt = next(r.record);
  for (const p of group) if (p.links) p.r.page.linksAt = next(p.links);
  for (const { r } of group) if (r.fetchedBody) r.page.fetchedBodyAt = next(r.fetchedBody);
  for (const { r } of group) if (r.screenshot) r.page.screenshotAt = next(r.screenshot);
  for (const { r } of group) if (r.exchange && r.body) r.page.exchangeAt = rangeOf(next(r.exchange));
}

const rangeOf = ({ offset, length }: SegmentRange): SegmentRange => ({ offset, length });

/** The spans of parts written back to back into the object `key`: each call, the next part's. */
function spansIn(key: string): (part: Uint8Array) => Span & SegmentRange {
  let offset = 0;
  return (part) => {
    const span = { key, offset, length: part.byteLength };
    offset += part.byteLength;
    return span;
  };
}

/**
 * Writes the bodies of a chunk of results, their extraction records and their links, to R2 as few objects as possible (one,
 * unless they pass SEGMENT_TARGET_BYTES), large ones streamed so they are not copied into one buffer, and points
 * each page record at its byte ranges. One R2 write per chunk instead of one or two per page: the local simulator
 * spends most of a page's CPU on a put, and on Cloudflare each put is a billed Class A operation.
 */
export async function writeSegments(
  bucket: R2Bucket,
  crawlId: string,
  results: readonly Processed[],
  {
    targetBytes = SEGMENT_TARGET_BYTES,
    concatMaxBytes = CONCAT_MAX_BYTES,
    usage,
  }: { targetBytes?: number; concatMaxBytes?: number; usage?: UsageMeter } = {},
): Promise<number> {
  const stored = results
    .filter(toStore)
    .map((r): Parts => ({ r, links: r.links && r.links.length > 0 ? encodeLinks(r.links) : null }));
  const groups = groupsOf(stored, targetBytes);
  await Promise.all(groups.map((group) => writeGroup(bucket, crawlId, group, concatMaxBytes, usage)));
  return groups.length;
}

/** Writes extraction records alone (a re-extraction: the bodies are stored already) as one object; points each page at its record. */
export async function writeRecordSegment(
  bucket: R2Bucket,
  crawlId: string,
  items: readonly { page: Pick<ExtractedPage, 'recordAt'>; record: Uint8Array }[],
  usage?: UsageMeter,
): Promise<void> {
  if (items.length === 0) return;
  const key = segmentKey(crawlId);
  const total = items.reduce((sum, item) => sum + item.record.byteLength, 0);
  await bucket.put(
    key,
    concatBytes(
      items.map((item) => item.record),
      total,
    ),
    { customMetadata: { crawlId, records: String(items.length) } },
  );
  usage?.r2Put(total);
  const next = spansIn(key);
  for (const { page, record } of items) page.recordAt = next(record);
}
