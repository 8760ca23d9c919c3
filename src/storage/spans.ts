import type { UsageMeter } from '../domain/crawl/usage';
import type { Span } from '../types';

/** The R2 range of a span: none for a whole object (null offset). */
function rangeOf(span: Span): R2Range | undefined {
  if (span.offset === null) return undefined;
  return span.length === null ? { offset: span.offset } : { offset: span.offset, length: span.length };
}

/** A span as a key (two rows naming the same bytes have the same key): to read them once. */
export const spanKey = (span: Span): string => `${span.key}\n${span.offset ?? ''}\n${span.length ?? ''}`;

/** The bytes of a span (one read, counted), or null when its object is gone. */
export async function readSpan(bucket: R2Bucket, span: Span, usage?: UsageMeter): Promise<Uint8Array | null> {
  // An empty range is not a valid R2 range read.
  if (span.offset !== null && span.length === 0) return new Uint8Array(0);
  usage?.count('r2ClassB');
  const range = rangeOf(span);
  const object = await (range ? bucket.get(span.key, { range }) : bucket.get(span.key));
  return object ? new Uint8Array(await object.arrayBuffer()) : null;
}
