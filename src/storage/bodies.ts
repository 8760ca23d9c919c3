import type { UsageMeter } from '../domain/crawl/usage';
import type { Span } from '../types';

export interface StoredBodyStream {
  body: ReadableStream | null;
  size: number;
  etag: string;
  contentType: string | null;
}

/** A stored body as a stream, or null when its object is missing. */
export async function openBody(bucket: R2Bucket, at: Span): Promise<StoredBodyStream | null> {
  if (at.offset !== null && at.length !== null) {
    // An empty range is not a valid R2 range read.
    if (at.length === 0) return { body: null, size: 0, etag: `"empty"`, contentType: null };
    const object = await bucket.get(at.key, { range: { offset: at.offset, length: at.length } });
    return object
      ? {
          body: object.body,
          size: at.length,
          etag: `"${object.etag}-${at.offset}"`,
          contentType: object.httpMetadata?.contentType ?? null,
        }
      : null;
  }
  const object = await bucket.get(at.key);
  return object
    ? {
        body: object.body,
        size: object.size,
        etag: object.httpEtag,
        contentType: object.httpMetadata?.contentType ?? null,
      }
    : null;
}

/** Segments up to this size are read once whole and sliced; larger ones page by page (ranged reads). */
const WHOLE_SEGMENT_MAX = 16 * 1024 * 1024;

/** Reads stored bodies in storage order, a segment at a time where it is small enough to hold. */
export class BodyReader {
  private segment: { key: string; bytes: Uint8Array } | null = null;
  constructor(
    private readonly bucket: R2Bucket,
    private readonly meter?: UsageMeter,
  ) {}

  /** A Class B read (get or head), counted. */
  private counted<T>(read: Promise<T>): Promise<T> {
    this.meter?.count('r2ClassB');
    return read;
  }

  async read(body: Span): Promise<Uint8Array | null> {
    const { key, offset, length } = body;
    if (offset === null || length === null) {
      const object = await this.counted(this.bucket.get(key));
      return object ? new Uint8Array(await object.arrayBuffer()) : null;
    }
    if (length === 0) return new Uint8Array(0);
    if (this.segment?.key !== key) {
      this.segment = null;
      const head = await this.counted(this.bucket.head(key));
      if (!head) return null;
      if (head.size <= WHOLE_SEGMENT_MAX) {
        const object = await this.counted(this.bucket.get(key));
        if (!object) return null;
        this.segment = { key, bytes: new Uint8Array(await object.arrayBuffer()) };
      }
    }
    if (this.segment) return this.segment.bytes.subarray(offset, offset + length);
    const object = await this.counted(this.bucket.get(key, { range: { offset, length } }));
    return object ? new Uint8Array(await object.arrayBuffer()) : null;
  }
}
