import { type FetchFailure, isHostUnreachable, parseFailureKind } from '../domain/fetch/failure';
import { ALLOW_ALL, DISALLOW_ALL, parseRobots, type Robots } from '../domain/robots/robots';
import { within } from '../lib/sleep';
import { log } from '../log';
import type { RobotsFetch } from '../page/robots-fetch';

/** How long robots.txt answers are trusted (RFC 9309: no more than 24 hours). */
const ROBOTS_TTL_MS = 24 * 60 * 60_000;
/** An unreachable robots.txt (5xx, network error) is asked again after this long. */
const ROBOTS_RETRY_MS = 30_000;
/**
 * Rules past their expiry are still served while they are fetched again, for at most this long after it (an
 * unreachable answer is not: the host may be back).
 */
const ROBOTS_STALE_MS = 60 * 60_000;

export interface RobotsState {
  origin: string;
  kind: 'rules' | 'allow-all' | 'unreachable';
  reason: string | null;
  /** Why the host could not be reached at all (dns, refused), when that is why robots.txt is unreachable. */
  failure: FetchFailure | null;
  crawlDelayMs: number | null;
  fetchedAt: number;
  expiresAt: number;
}

export interface RobotsEntry extends RobotsState {
  robots: Robots;
}

type RobotsRow = {
  origin: string;
  kind: RobotsState['kind'];
  body: string | null;
  reason: string | null;
  failure_kind: string | null;
  failure_message: string | null;
  fetched_at: number;
  expires_at: number;
};

/**
 * How robots.txt is fetched: the gate's (it is a request to the host like any other, paced: see HostPacing.paced),
 * for a crawl whose own minimum gap is `minIntervalMs`.
 */
export type RobotsFetcher = (origin: string, minIntervalMs: number) => Promise<RobotsFetch>;

/** What an origin's robots.txt is asked for by: its requests' minimum gap, and how long they may wait for it. */
export interface RobotsAsk {
  url: string;
  minIntervalMs: number;
  maxWaitMs: number;
}

/**
 * The robots.txt of each origin of a host, as its gate knows it: in SQLite (table `robots`), and parsed in memory;
 * fresh for ROBOTS_TTL_MS (an unreachable one for ROBOTS_RETRY_MS), then fetched again, once however many ask at the
 * same time, its old rules served meanwhile when they may be.
 */
export class RobotsCache {
  private readonly cache = new Map<string, RobotsEntry>();
  private readonly fetches = new Map<string, Promise<RobotsEntry>>();

  constructor(
    private readonly sql: SqlStorage,
    private readonly userAgent: string,
    private readonly fetcher: RobotsFetcher,
  ) {}

  /** The robots.txt of each origin the requests are for, each waited for at most its requests' budget. */
  async forRequests(requests: readonly RobotsAsk[]): Promise<Map<string, RobotsEntry | null>> {
    const origins = new Map<string, { minIntervalMs: number; budgetMs: number }>();
    for (const { url, minIntervalMs, maxWaitMs } of requests) {
      const origin = new URL(url).origin;
      const seen = origins.get(origin) ?? { minIntervalMs: 0, budgetMs: 0 };
      origins.set(origin, {
        minIntervalMs: Math.max(seen.minIntervalMs, minIntervalMs),
        budgetMs: Math.max(seen.budgetMs, maxWaitMs),
      });
    }
    const known = await Promise.all(
      [...origins].map(
        async ([origin, { minIntervalMs, budgetMs }]) =>
          [origin, await this.within(origin, minIntervalMs, budgetMs)] as const,
      ),
    );
    return new Map(known);
  }

  /** An origin's robots.txt, fetched first if need be (waited for however long), and its text when it has rules. */
  async rules(origin: string): Promise<{ kind: RobotsState['kind']; body: string | null }> {
    const entry = await this.within(origin, 0, Number.POSITIVE_INFINITY);
    if (!entry) throw new Error(`robots.txt of ${origin} not fetched`);
    return { kind: entry.kind, body: entry.kind === 'rules' ? (this.body(origin) ?? '') : null };
  }

  /**
   * An origin's robots.txt: as known while fresh; else fetched again, its old rules served meanwhile when they may be
   * (see known()), or waited for at most `budgetMs`. Null: not known within the budget (ask again).
   */
  async within(origin: string, minIntervalMs: number, budgetMs: number): Promise<RobotsEntry | null> {
    const known = this.known(origin, Date.now());
    if (known?.fresh && known.entry) return known.entry;
    const fetching = this.refresh(origin, minIntervalMs);
    fetching.catch((error: unknown) => log('warn', 'robots.txt fetch failed', { origin, error: String(error) }));
    return known?.entry ?? within(fetching, budgetMs);
  }

  /**
   * Starts fetching an origin's robots.txt if it is not known fresh (a crawl will soon ask for a URL of it: see
   * HostGate.prefetchRobots); returns the fetch, or null when there is none to wait for.
   */
  prefetch(origin: string, minIntervalMs: number): Promise<unknown> | null {
    const known = this.known(origin, Date.now());
    if (known?.fresh) return null;
    return this.refresh(origin, minIntervalMs).catch((error: unknown) =>
      log('warn', 'robots.txt fetch failed', { origin, error: String(error) }),
    );
  }

  /** The origin's robots.txt fetched again and stored, once however many ask at the same time. */
  private refresh(origin: string, minIntervalMs: number): Promise<RobotsEntry> {
    let pending = this.fetches.get(origin);
    if (!pending) {
      pending = this.fetcher(origin, minIntervalMs)
        .then((result) => this.store(origin, result))
        .finally(() => this.fetches.delete(origin));
      this.fetches.set(origin, pending);
    }
    return pending;
  }

  /**
   * The origin's entry: `fresh` to be used as it is; or to be fetched again, meanwhile usable if `entry` is given
   * (rules or allow-all at most ROBOTS_STALE_MS past their expiry); null: never fetched.
   */
  private known(origin: string, now: number): { entry: RobotsEntry | null; fresh: boolean } | null {
    let entry = this.cache.get(origin);
    if (!entry) {
      const row = this.sql.exec<RobotsRow>('SELECT * FROM robots WHERE origin = ?', origin).toArray()[0];
      if (!row) return null;
      entry = this.entryFromRow(row);
      this.cache.set(origin, entry);
    }
    if (entry.expiresAt > now) return { entry, fresh: true };
    const usable = entry.kind !== 'unreachable' && now - entry.expiresAt < ROBOTS_STALE_MS;
    return { entry: usable ? entry : null, fresh: false };
  }

  /** The origin's robots.txt as it was fetched (null when it had no rules: allow-all or unreachable). */
  private body(origin: string): string | null {
    return (
      this.sql.exec<{ body: string | null }>('SELECT body FROM robots WHERE origin = ?', origin).toArray()[0]?.body ??
      null
    );
  }

  /** Every origin's state, for the gate's state(). */
  all(): RobotsState[] {
    return this.sql
      .exec<RobotsRow>('SELECT * FROM robots ORDER BY origin')
      .toArray()
      .map((row) => {
        const { robots: _robots, ...rest } = this.entryFromRow(row);
        return rest;
      });
  }

  /** Writes what fetching an origin's robots.txt told us, and makes its cache entry. */
  private store(origin: string, result: RobotsFetch): RobotsEntry {
    const fetchedAt = Date.now();
    const failure = result.kind === 'unreachable' && isHostUnreachable(result.failure) ? result.failure : null;
    const row: RobotsRow = {
      origin,
      kind: result.kind,
      body: result.kind === 'rules' ? result.body : null,
      reason: result.kind === 'rules' ? null : result.reason,
      failure_kind: failure?.kind ?? null,
      failure_message: failure?.message ?? null,
      fetched_at: fetchedAt,
      expires_at: fetchedAt + (result.kind === 'unreachable' ? ROBOTS_RETRY_MS : ROBOTS_TTL_MS),
    };
    this.sql.exec(
      `INSERT INTO robots (origin, kind, body, reason, failure_kind, failure_message, fetched_at, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (origin) DO UPDATE SET kind = excluded.kind, body = excluded.body, reason = excluded.reason,
       failure_kind = excluded.failure_kind, failure_message = excluded.failure_message,
       fetched_at = excluded.fetched_at, expires_at = excluded.expires_at`,
      row.origin,
      row.kind,
      row.body,
      row.reason,
      row.failure_kind,
      row.failure_message,
      row.fetched_at,
      row.expires_at,
    );
    const entry = this.entryFromRow(row);
    this.cache.set(origin, entry);
    return entry;
  }

  private entryFromRow(row: RobotsRow): RobotsEntry {
    const robots =
      row.kind === 'rules' ? parseRobots(row.body ?? '') : row.kind === 'allow-all' ? ALLOW_ALL : DISALLOW_ALL;
    const delay = robots.crawlDelay(this.userAgent);
    const failureKind = parseFailureKind(row.failure_kind);
    return {
      origin: row.origin,
      kind: row.kind,
      reason: row.reason,
      failure: failureKind && row.failure_message !== null ? { kind: failureKind, message: row.failure_message } : null,
      crawlDelayMs: delay === undefined ? null : Math.round(delay * 1000),
      fetchedAt: row.fetched_at,
      expiresAt: row.expires_at,
      robots,
    };
  }
}
