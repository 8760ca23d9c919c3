import type { UsageMeter } from '../domain/crawl/usage';
import type { CrawlStatus } from '../types';

/** How long an isolate trusts a crawl's status it last heard before it asks again. */
const STATUS_TTL_MS = 250;

/** What this isolate last heard of each crawl's status, and when (shared by the invocations it runs). */
const heard = new Map<string, { at: number; status: Promise<CrawlStatus | null> }>();

/** The coordinator said (claim, complete) what the crawl's status is. */
export function heardStatus(crawlId: string, status: CrawlStatus): void {
  if (heard.size >= 1024 && !heard.has(crawlId)) heard.clear();
  heard.set(crawlId, { at: Date.now(), status: Promise.resolve(status) });
}

/**
 * What a claimed URL's fetch asks right before it goes out (PipelineDeps.beforeFetch): a reason to hand the URL back
 * unfetched, or null. The claim's lease must outlast the fetch (else another message may have the URL by then), and
 * the crawl must still run: a cancel stops new fetches within STATUS_TTL_MS. An isolate asks the coordinator at most
 * once per STATUS_TTL_MS per crawl, and only while fetches start; claims and completions refresh it for free.
 */
export function fetchGuard(
  crawlId: string,
  askStatus: () => Promise<CrawlStatus | null>,
  leaseUntil: number,
  fetchTimeoutMs: number,
  meter: UsageMeter,
): () => Promise<string | null> {
  return async () => {
    const now = Date.now();
    if (now + fetchTimeoutMs > leaseUntil) return 'lease ran out before the fetch';
    let last = heard.get(crawlId);
    if (!last || now - last.at >= STATUS_TTL_MS) {
      meter.count('durableObjectRequests');
      last = { at: now, status: askStatus().catch((): CrawlStatus => 'running') };
      heard.set(crawlId, last);
    }
    return (await last.status) === 'running' ? null : 'cancelled';
  };
}
