/**
 * Claims on a crawl's URLs, held in the coordinator's memory (a lease written to storage would cost a row per URL).
 * A lease belongs to the queue message that claimed the URL and says when it expires: until then no other message
 * gets the URL, while a redelivery of the same message (its consumer died, or it was retried) does. An expired
 * lease frees the URL for the sweeper to re-send. Lost with the object: a coordinator that wakes up after a restart
 * holds none (see the wake sweep in domain/crawl/sweep.ts).
 */
export interface Lease {
  /** The queue message (its id) that holds the URL; null: a holder that can never claim it again. */
  holder: string | null;
  /** Epoch ms. */
  until: number;
  /** The attempt this lease is (counted from the URL's recorded attempts). */
  attempts: number;
}

export class Leases {
  /** The leases by URL (tests age them through runInDurableObject). */
  readonly held = new Map<string, Lease>();

  /**
   * Leases `url` to `holder` until `until` if no live lease of another holder has it; returns the attempt it is
   * (one more than the URL's recorded attempts or than the lease it replaces), or null.
   */
  grant(url: string, holder: string | null, recordedAttempts: number, now: number, until: number): number | null {
    const lease = this.held.get(url);
    if (lease && lease.until > now && (holder === null || lease.holder !== holder)) return null;
    const attempts = Math.max(recordedAttempts, lease?.attempts ?? 0) + 1;
    this.held.set(url, { holder, until, attempts });
    return attempts;
  }

  /** Ends a URL's lease (its outcome is in); returns it. */
  release(url: string): Lease | undefined {
    const lease = this.held.get(url);
    this.held.delete(url);
    return lease;
  }

  /** Whether a live lease holds the URL. */
  holds(url: string, now: number): boolean {
    const lease = this.held.get(url);
    return lease !== undefined && lease.until > now;
  }

  /** Ends and returns the leases that expired by `now`. */
  expire(now: number): string[] {
    const expired: string[] = [];
    for (const [url, lease] of this.held) {
      if (lease.until <= now) {
        this.held.delete(url);
        expired.push(url);
      }
    }
    return expired;
  }

  /** URLs under a live lease. */
  live(now: number): string[] {
    return [...this.held].filter(([, lease]) => lease.until > now).map(([url]) => url);
  }

  clear(): void {
    this.held.clear();
  }

  get size(): number {
    return this.held.size;
  }
}

/** The slack a lease leaves past the longest its batch can take: recording the results, a busy isolate. */
const LEASE_MARGIN_MS = 60_000;

/**
 * How long a call's claims are leased: the wait for a host slot, then the claimed pages' fetches, as many rounds of
 * the invocation's connections as they need, each up to the fetch timeout, and a margin. A consumer starts no fetch
 * whose lease would run out before its timeout (it hands the URL back instead), so an expired lease never means
 * two fetches of one URL at once.
 */
export function leaseMs(
  claimed: number,
  limits: { hostMaxWaitMs: number; fetchTimeoutMs: number; connections: number },
): number {
  const rounds = Math.max(1, Math.ceil(claimed / Math.max(1, limits.connections)));
  return limits.hostMaxWaitMs + rounds * limits.fetchTimeoutMs + LEASE_MARGIN_MS;
}
