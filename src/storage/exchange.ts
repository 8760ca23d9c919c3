import { z } from 'zod';
import type { UsageMeter } from '../domain/crawl/usage';
import type { HttpExchange } from '../domain/output/warc';
import type { SegmentRange, Span } from '../types';
import { readSpan } from './spans';

/**
 * A fetch's HTTP exchange as stored in R2 (JSON, beside the body in the chunk's segment): the request as the crawler
 * made it and the response's status line and headers as received. What a WARC export writes as the page's request
 * and response records; GET /content?source=fetched answers the server's Content-Type from it.
 */
const headersSchema = z.array(z.tuple([z.string(), z.string()]));
const exchangeSchema = z.object({
  request: z.object({ method: z.string(), headers: headersSchema }),
  response: z.object({ status: z.number().int(), statusText: z.string(), headers: headersSchema }),
});

export function encodeExchange(exchange: HttpExchange): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(exchange));
}

/** A stored exchange read back, or null when the bytes are not one. */
export function decodeExchange(bytes: Uint8Array): HttpExchange | null {
  try {
    const parsed = exchangeSchema.safeParse(JSON.parse(new TextDecoder().decode(bytes)));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** A page's stored exchange (its range is in the object of its body), or null: none recorded, or it is gone. */
export async function readExchange(
  bucket: R2Bucket,
  page: { bodyAt: Span | null; exchangeAt: SegmentRange | null },
  meter?: UsageMeter,
): Promise<HttpExchange | null> {
  if (!page.bodyAt || !page.exchangeAt) return null;
  const bytes = await readSpan(bucket, { key: page.bodyAt.key, ...page.exchangeAt }, meter);
  return bytes ? decodeExchange(bytes) : null;
}
