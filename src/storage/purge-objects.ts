/** R2 deletes take up to 1,000 keys per call; listings return up to 1,000 per page. */
const R2_BATCH = 1000;

/**
 * Deletes up to `pages` listing pages of a crawl's R2 objects (segments of bodies, records and links; exports), but
 * not those in `keep`. Returns the kept keys seen and whether the listing reached its end.
 */
export async function deleteCrawlObjects(
  bucket: R2Bucket,
  crawlId: string,
  keep: ReadonlySet<string>,
  pages: number,
): Promise<{ kept: string[]; done: boolean }> {
  const kept: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < pages; page++) {
    const listing = await bucket.list({ prefix: `crawls/${crawlId}/`, limit: R2_BATCH, ...(cursor ? { cursor } : {}) });
    const keys = listing.objects.map((o) => o.key);
    kept.push(...keys.filter((k) => keep.has(k)));
    const doomed = keys.filter((k) => !keep.has(k));
    if (doomed.length > 0) await bucket.delete(doomed);
    if (!listing.truncated) return { kept, done: true };
    cursor = listing.cursor;
  }
  return { kept, done: false };
}

/** Deletes the given objects, R2_BATCH per call. */
export async function deleteObjects(bucket: R2Bucket, keys: readonly string[]): Promise<void> {
  for (let i = 0; i < keys.length; i += R2_BATCH) await bucket.delete(keys.slice(i, i + R2_BATCH));
}
