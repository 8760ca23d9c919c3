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
