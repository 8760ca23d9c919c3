import type { UsageMeter } from '../domain/usage';
import type { CrawlStatus } from '../types';
import type { CrawlStub } from './settle';

/** How long a consumer trusts the crawl's status it last heard before it asks again. */
const STATUS_TTL_MS = 500;

/**
 * What a claimed URL's fetch asks right before it goes out (ProcessDeps.beforeFetch): a reason to hand the URL back
 * unfetched, or null. The claim's lease must outlast the fetch (else another message may have the URL by then), and
 * the crawl must still run: a cancel stops new fetches within STATUS_TTL_MS. The status is asked of the coordinator at
 * most once per STATUS_TTL_MS per group, and only while fetches start: a quick batch asks nothing past its claim.
 */
export function fetchGuard(stub: CrawlStub, leaseUntil: number, fetchTimeoutMs: number, meter: UsageMeter): () => Promise<string | null> {
  let checkedAt = Date.now();
  let status: Promise<CrawlStatus | null> = Promise.resolve('running');
  return async () => {
    const now = Date.now();
    if (now + fetchTimeoutMs > leaseUntil) return 'lease ran out before the fetch';
    if (now - checkedAt >= STATUS_TTL_MS) {
      checkedAt = now;
      meter.count('durableObjectRequests');
      status = stub.status().catch((): CrawlStatus => 'running');
    }
    return (await status) === 'running' ? null : 'cancelled';
  };
}
