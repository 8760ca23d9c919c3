import { concatBytes } from '../domain/bytes';
import type { Processed } from '../types';

/** A segment is closed at this size and the next body starts a new one. */
const SEGMENT_TARGET_BYTES = 32 * 1024 * 1024;

/** Where a page's body lives: a byte range of an R2 object. */
interface BodyRef {
  r2Key: string;
  bodyOffset: number;
  bodyLength: number;
}

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

/**
 * Writes the bodies of a consumer batch to R2 as few objects as possible (one, unless the bodies pass
 * SEGMENT_TARGET_BYTES), large ones streamed so the bodies are not copied into one buffer, and points each page
 * record at its byte range. One R2 write per batch instead of one per page: the local simulator spends
 * most of a page's CPU on a put, and on Cloudflare each put is a billed Class A operation.
 */
export async function writeSegments(
  bucket: R2Bucket,
  crawlId: string,
  results: readonly Processed[],
  { targetBytes = SEGMENT_TARGET_BYTES, concatMaxBytes = CONCAT_MAX_BYTES }: { targetBytes?: number; concatMaxBytes?: number } = {},
): Promise<number> {
  const withBody = results.filter(
    (r): r is Processed & { body: Uint8Array; page: NonNullable<Processed['page']> } => r.body !== undefined && r.page !== undefined,
  );
  const groups: (typeof withBody)[] = [];
  let size = Number.POSITIVE_INFINITY;
  let group: typeof withBody = [];
  for (const r of withBody) {
    if (size >= targetBytes) {
      group = [];
      groups.push(group);
      size = 0;
    }
    group.push(r);
    size += r.body.byteLength;
  }
  await Promise.all(
    groups.map(async (group) => {
      const key = segmentKey(crawlId);
      const total = group.reduce((sum, r) => sum + r.body.byteLength, 0);
      await bucket.put(
        key,
        total <= concatMaxBytes
          ? concatBytes(
              group.map((r) => r.body),
              total,
            )
          : streamOf(
              group.map((r) => r.body),
              total,
            ),
        {
          customMetadata: { crawlId, pages: String(group.length) },
        },
      );
      let offset = 0;
      for (const r of group) {
        Object.assign(r.page, { r2Key: key, bodyOffset: offset, bodyLength: r.body.byteLength } satisfies BodyRef);
        offset += r.body.byteLength;
      }
    }),
  );
  return groups.length;
}
