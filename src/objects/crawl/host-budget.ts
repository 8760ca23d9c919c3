import type { FrontierEntry } from '../../domain/crawl/url-life';
import { hostKey } from '../../domain/url/normalize';
import type { Ledger } from './ledger';

/**
 * maxPagesPerHost: the pages a crawl takes of one host name (any scheme or port). Counts are kept in memory, each read
 * once per wake from the seen-set by its key's ranges (http and https, with and without a port: rows read, none
 * written), so the budget is exact without a row written per page.
 */
export class HostBudget {
  private readonly taken = new Map<string, number>();

  constructor(private readonly ledger: Ledger) {}

  /** Of the entries (pages the seen-set has not had), those within their host's budget, in order. */
  within(entries: readonly FrontierEntry[], max: number | null, isNew: (url: string) => boolean): FrontierEntry[] {
    if (max === null) return [...entries];
    return entries.filter((entry) => {
      if (entry.kind === 'sitemap' || !isNew(entry.url)) return true;
      const host = hostKey(entry.url);
      const count = this.countOf(host);
      if (count >= max) return false;
      this.taken.set(host, count + 1);
      return true;
    });
  }

  /** Entries within() let through that the seen-set then refused (the crawl's cap): their places are given back. */
  giveBack(urls: readonly string[]): void {
    for (const url of urls) {
      const host = hostKey(url);
      const count = this.taken.get(host);
      if (count !== undefined && count > 0) this.taken.set(host, count - 1);
    }
  }

  forget(): void {
    this.taken.clear();
  }

  private countOf(host: string): number {
    const known = this.taken.get(host);
    if (known !== undefined) return known;
    const ranges = ['http', 'https'].flatMap((scheme) => [`${scheme}://${host}/`, `${scheme}://${host}:`]);
    const [row] = this.ledger.exec<{ n: number }>(
      `SELECT COUNT(*) AS n FROM urls WHERE kind = 'page' AND code IS NOT 'trap' AND (
         (url >= ? AND url < ?) OR (url >= ? AND url < ?) OR (url >= ? AND url < ?) OR (url >= ? AND url < ?))`,
      ...ranges.flatMap((prefix) => [prefix, `${prefix}\u{10FFFF}`]),
    );
    const count = row?.n ?? 0;
    this.taken.set(host, count);
    return count;
  }
}
