import type { UsageMeter } from '../domain/usage';

/** Where a page's body lives: an R2 object, or a byte range of one (a segment). */
export interface BodyLocation {
  r2Key: string;
  /** The body's byte range in the object; null: the whole object. */
  bodyOffset: number | null;
  bodyLength: number | null;
}

export interface StoredBodyStream {
  body: ReadableStream | null;
  size: number;
  etag: string;
  contentType: string | null;
}

/** A stored body as a stream, or null when its object is missing. */
export async function openBody(bucket: R2Bucket, at: BodyLocation): Promise<StoredBodyStream | null> {
  if (at.bodyOffset !== null && at.bodyLength !== null) {
    // An empty range is not a valid R2 range read.
    if (at.bodyLength === 0) return { body: null, size: 0, etag: `"empty"`, contentType: null };
    const object = await bucket.get(at.r2Key, { range: { offset: at.bodyOffset, length: at.bodyLength } });
    return object
      ? { body: object.body, size: at.bodyLength, etag: `"${object.etag}-${at.bodyOffset}"`, contentType: object.httpMetadata?.contentType ?? null }
      : null;
  }
  const object = await bucket.get(at.r2Key);
  return object ? { body: object.body, size: object.size, etag: object.httpEtag, contentType: object.httpMetadata?.contentType ?? null } : null;
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

  async read(page: BodyLocation): Promise<Uint8Array | null> {
    if (page.bodyOffset === null || page.bodyLength === null) {
      const object = await this.counted(this.bucket.get(page.r2Key));
      return object ? new Uint8Array(await object.arrayBuffer()) : null;
    }
    if (page.bodyLength === 0) return new Uint8Array(0);
    if (this.segment?.key !== page.r2Key) {
      this.segment = null;
      const head = await this.counted(this.bucket.head(page.r2Key));
      if (!head) return null;
      if (head.size <= WHOLE_SEGMENT_MAX) {
        const object = await this.counted(this.bucket.get(page.r2Key));
        if (!object) return null;
        this.segment = { key: page.r2Key, bytes: new Uint8Array(await object.arrayBuffer()) };
      }
    }
    if (this.segment) return this.segment.bytes.subarray(page.bodyOffset, page.bodyOffset + page.bodyLength);
    const object = await this.counted(this.bucket.get(page.r2Key, { range: { offset: page.bodyOffset, length: page.bodyLength } }));
    return object ? new Uint8Array(await object.arrayBuffer()) : null;
  }
}
