import { type Limit, limiter } from '../lib/limit';
import type { Span } from '../types';
import { readRecord, type StoredRecord } from './records';
import { readSpan, spanKey } from './spans';

/**
 * The R2 reads of one answer, `concurrency` at a time, each location read once: a duplicate and its kept page in the
 * same answer (two URLs of one page, listed side by side) share their reads.
 */
export class SpanReads {
  private readonly limit: Limit;
  private readonly records = new Map<string, Promise<StoredRecord | null>>();
  private readonly spans = new Map<string, Promise<Uint8Array | null>>();

  constructor(
    private readonly bucket: R2Bucket,
    concurrency: number,
  ) {
    this.limit = limiter(concurrency);
  }

  record(at: Span): Promise<StoredRecord | null> {
    return once(this.records, at, () => this.limit(() => readRecord(this.bucket, at)));
  }

  span(at: Span): Promise<Uint8Array | null> {
    return once(this.spans, at, () => this.limit(() => readSpan(this.bucket, at)));
  }
}

function once<T>(reads: Map<string, Promise<T>>, at: Span, read: () => Promise<T>): Promise<T> {
  const known = reads.get(spanKey(at)) ?? read();
  reads.set(spanKey(at), known);
  return known;
}
