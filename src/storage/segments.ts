import { concatBytes } from '../domain/bytes';
import type { ExtractedPage, Processed } from '../types';

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

function segmentKey(crawlId: string): string {
  // Time first, so a crawl's segments list in the order they were written.
  return `crawls/${crawlId}/segments/${Date.now().toString(36).padStart(9, '0')}-${crypto.randomUUID()}`;
}

type WithBody = Processed & { body: Uint8Array; page: NonNullable<Processed['page']> };

const bytesOf = (r: WithBody) => r.body.byteLength + (r.record?.byteLength ?? 0);

/** Results in groups of about `targetBytes` each (a group holds at least one result). */
function groupsOf(results: readonly WithBody[], targetBytes: number): WithBody[][] {
  const groups: WithBody[][] = [];
  let size = Number.POSITIVE_INFINITY;
  let group: WithBody[] = [];
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

/** Writes one group as one object: every body, then every record, back to back; points each page at its ranges. */
async function writeGroup(bucket: R2Bucket, crawlId: string, group: WithBody[], concatMaxBytes: number): Promise<void> {
  const key = segmentKey(crawlId);
  const parts = [...group.map((r) => r.body), ...group.flatMap((r) => (r.record ? [r.record] : []))];
  const total = parts.reduce((sum, part) => sum + part.byteLength, 0);
  const value = total <= concatMaxBytes ? concatBytes(parts, total) : streamOf(parts, total);
  await bucket.put(key, value, { customMetadata: { crawlId, pages: String(group.length) } });
  let offset = 0;
  for (const r of group) {
    Object.assign(r.page, { r2Key: key, bodyOffset: offset, bodyLength: r.body.byteLength });
    offset += r.body.byteLength;
  }
  for (const r of group) {
    if (!r.record) continue;
    Object.assign(r.page, { recordKey: key, recordOffset: offset, recordLength: r.record.byteLength });
    offset += r.record.byteLength;
  }
}

/**
 * Writes the bodies of a chunk of results, and their extraction records, to R2 as few objects as possible (one,
 * unless they pass SEGMENT_TARGET_BYTES), large ones streamed so they are not copied into one buffer, and points
 * each page record at its byte ranges. One R2 write per chunk instead of one or two per page: the local simulator
 * spends most of a page's CPU on a put, and on Cloudflare each put is a billed Class A operation.
 */
export async function writeSegments(
  bucket: R2Bucket,
  crawlId: string,
  results: readonly Processed[],
  { targetBytes = SEGMENT_TARGET_BYTES, concatMaxBytes = CONCAT_MAX_BYTES }: { targetBytes?: number; concatMaxBytes?: number } = {},
): Promise<number> {
  const withBody = results.filter((r): r is WithBody => r.body !== undefined && r.page !== undefined);
  const groups = groupsOf(withBody, targetBytes);
  await Promise.all(groups.map((group) => writeGroup(bucket, crawlId, group, concatMaxBytes)));
  return groups.length;
}

/** Writes extraction records alone (a re-extraction: the bodies are stored already) as one object; points each page at its record. */
export async function writeRecordSegment(bucket: R2Bucket, crawlId: string, items: readonly { page: ExtractedPage; record: Uint8Array }[]): Promise<void> {
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
  let offset = 0;
  for (const { page, record } of items) {
    Object.assign(page, { recordKey: key, recordOffset: offset, recordLength: record.byteLength });
    offset += record.byteLength;
  }
}
