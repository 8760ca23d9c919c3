import type { UsageMeter } from '../domain/crawl/usage';
import { extractPage } from '../domain/extract';
import type { ExtractSpec } from '../domain/extract/spec-schema';
import { isHtml } from '../domain/html/page';
import type { PreviousVersion } from '../storage/d1/previous-versions';
import { readSpan } from '../storage/spans';

/**
 * The previous crawl's version of a page hashed the way this crawl hashes pages: a crawl compared with an earlier one
 * (previousCrawlId) may extract what that one did not (or the other way round), so a hash that differs is checked
 * again on the previous body itself. One ranged R2 read and one parse, only for pages whose hashes differ. Null: the
 * previous body is not there to read.
 */
export async function previousHash(
  bucket: R2Bucket,
  url: string,
  previous: PreviousVersion,
  spec: ExtractSpec,
  meter?: UsageMeter,
): Promise<string | null> {
  if (!previous.bodyAt || !isHtml(previous.contentType)) return null;
  const body = await readSpan(bucket, previous.bodyAt, meter);
  if (!body) return null;
  return (await extractPage(body, previous.contentType, url, spec)).record.contentHash;
}
