import type { FrontierEntry } from '../../domain/crawl/url-life';
import { hostKey } from '../../domain/url/normalize';

/**
 * maxPagesPerHost: the pages a crawl takes of one host name (any scheme or port). Counts are kept in memory, read once
 * per wake from the seen-set (every page URL, by host: rows read, none written) the first time the budget is asked,
 * so the budget is exact without a row written per page.
 */
export class HostBudget {
  /** Pages taken by host: null until read after a wake. */
  private taken: Map<string, number> | null = null;

  /** `pages`: hands its argument each page URL of the crawl's seen-set (SeenSet.eachPage). */
  constructor(private readonly pages: (row: (url: string) => void) => void) {}

  /** Of the entries (pages the seen-set has not had), those within their host's budget, in order. */
  within(entries: readonly FrontierEntry[], max: number | null, isNew: (url: string) => boolean): FrontierEntry[] {
    if (max === null) return [...entries];
    return entries.filter((entry) => {
      if (entry.kind === 'sitemap' || !isNew(entry.url)) return true;
      const [host, taken] = [hostKey(entry.url), this.counts()];
      const count = taken.get(host) ?? 0;
      if (count >= max) return false;
      taken.set(host, count + 1);
      return true;
    });
  }

  /** Entries within() let through that the seen-set then refused (the crawl's cap): their places are given back. */
  giveBack(urls: readonly string[]): void {
    const taken = this.counts();
    for (const url of urls) {
      const host = hostKey(url);
      const count = taken.get(host);
      if (count !== undefined && count > 0) taken.set(host, count - 1);
    }
  }

  forget(): void {
    this.taken = null;
  }

  /** The pages of each host, read from the seen-set once per wake. */
  private counts(): Map<string, number> {
    if (this.taken) return this.taken;
    const taken = new Map<string, number>();
    this.pages((url) => {
      const host = hostKey(url);
      taken.set(host, (taken.get(host) ?? 0) + 1);
    });
    this.taken = taken;
    return taken;
  }
}
