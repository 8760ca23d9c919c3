/**
 * URLs this isolate has already offered to a crawl's Durable Object, per crawl. The seen-set is permanent for
 * a crawl: a URL offered once is rejected every time after, and once maxPages is reached nothing is accepted
 * again. So a URL in here can be left out of the next offers without changing what the Durable Object does;
 * on a site where every page links to the same few hundred pages, most links never leave the consumer.
 * Bounded: past `capacity` URLs the oldest crawl's set is dropped (its URLs are then offered again, and
 * rejected by the Durable Object as before).
 */
export class OfferedUrls {
  private readonly crawls = new Map<string, Set<string>>();
  private size = 0;

  constructor(private readonly capacity = 50_000) {}

  /** Whether `url` was offered to `crawlId` by this isolate (and the offer was recorded). */
  has(crawlId: string, url: string): boolean {
    return this.crawls.get(crawlId)?.has(url) ?? false;
  }

  /** Remembers URLs whose offer the Durable Object has recorded. */
  add(crawlId: string, urls: Iterable<string>): void {
    const set = this.crawls.get(crawlId) ?? new Set<string>();
    this.crawls.set(crawlId, set);
    for (const url of urls) {
      if (set.has(url)) continue;
      set.add(url);
      this.size++;
    }
    while (this.size > this.capacity && this.crawls.size > 0) {
      const [oldest, urls] = this.crawls.entries().next().value as [string, Set<string>];
      this.crawls.delete(oldest);
      this.size -= urls.size;
      if (oldest === crawlId) break; // one crawl alone past the capacity: start it afresh
    }
  }
}
