import type { UsageMeter } from '../domain/crawl/usage';
import type { Span } from '../types';
import { readSpan } from './spans';

/** A page's links as stored with its chunk's segment: newline-separated URLs (a URL holds no newline). */
export const encodeLinks = (links: readonly string[]): Uint8Array => new TextEncoder().encode(links.join('\n'));

const decodeLinks = (bytes: Uint8Array): string[] => {
  const text = new TextDecoder().decode(bytes);
  return text === '' ? [] : text.split('\n');
};

/**
 * The outgoing links a crawl recorded for a page (one ranged R2 read); none for a page without links. Null when
 * the links are recorded but their object is gone.
 */
export async function readLinks(
  bucket: R2Bucket,
  at: Span | null | undefined,
  usage?: UsageMeter,
): Promise<string[] | null> {
  if (!at) return [];
  const bytes = await readSpan(bucket, at, usage);
  return bytes ? decodeLinks(bytes) : null;
}
