import { DurableObject } from 'cloudflare:workers';
import { type FetchFailure, isHostUnreachable, parseFailureKind } from '../domain/fetch-failure';
import { planSlot } from '../domain/reservation';
import { ALLOW_ALL, DISALLOW_ALL, parseRobots, type Robots } from '../domain/robots';
import { sleep } from '../lib/sleep';
import { fetchRobots, type RobotsFetch } from '../page/robots-fetch';
import { readSettings, type Settings } from '../settings';
import { migrateSchema, type SchemaStep } from './sqlite-schema';

/** How long robots.txt answers are trusted (RFC 9309: no more than 24 hours). */
const ROBOTS_TTL_MS = 24 * 60 * 60_000;
/** An unreachable robots.txt (5xx, network error) is asked again after this long. */
const ROBOTS_RETRY_MS = 30_000;
/** A granted slot not released by then is taken back (its consumer died). */
const SLOT_GRACE_MS = 30_000;
/**
 * Pacing state is written at most this often (SQLite rows written are billed: one per request would cost more than
 * the rest of a page). A restarted object, which may have lost up to this much, starts conservatively: its first
 * paced request waits a whole interval.
 */
const PERSIST_EVERY_MS = 1000;
/** Back-off for a 429 without Retry-After. */
export const DEFAULT_429_BACKOFF_MS = 10_000;

export type Admission =
  /**
   * Fetch at startAt (epoch ms; waitMs from when it was granted), then release the slot. When paced
   * (an interval applies), call begin() first.
   */
  | { kind: 'go'; slot: string; startAt: number; waitMs: number; spacing: number; robotsSitemaps?: string[] }
  /** No slot within the caller's wait budget (or too many in flight): ask again later. */
  | { kind: 'wait'; retryInMs: number }
  /**
   * No slot within the caller's wait budget (asked with `reserve`): one is reserved at startAt (epoch ms) on the
   * host's timeline. Come back then and present it as `reservedAt`.
   */
  | { kind: 'reserved'; startAt: number }
  | { kind: 'disallowed'; robotsSitemaps?: string[] }
  /**
   * robots.txt could not be fetched: assume complete disallow for now. With `failure`, the host itself cannot be
   * reached (its name does not resolve, or nothing listens): no URL of the origin can be fetched either.
   */
  | { kind: 'unreachable'; reason: string; retryInMs: number; failure?: FetchFailure };

export interface AdmitRequest {
  url: string;
  /** The crawl's own minimum gap for this host (0 for none). */
  minIntervalMs: number;
  /** The crawl's own cap on requests in flight to the host (the host's cap still applies). */
  maxConcurrency?: number;
  /** Grant only a slot that starts within this long. */
  maxWaitMs: number;
  /** Also answer the Sitemap URLs of the origin's robots.txt. */
  wantRobotsSitemaps?: boolean;
  /** Beyond the wait budget, reserve a slot later on the host's timeline ('reserved') rather than answer 'wait'. */
  reserve?: boolean;
  /** The start of a slot reserved for this URL earlier: granted without a new place on the timeline once it is near. */
  reservedAt?: number;
}

interface RobotsState {
  origin: string;
  kind: 'rules' | 'allow-all' | 'unreachable';
  reason: string | null;
  /** Why the host could not be reached at all (dns, refused), when that is why robots.txt is unreachable. */
  failure: FetchFailure | null;
  crawlDelayMs: number | null;
  fetchedAt: number;
  expiresAt: number;
}

interface HostState {
  inflight: number;
  nextSlotInMs: number;
  blockedForMs: number;
  requests: number;
  robots: RobotsState[];
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

interface RobotsEntry extends RobotsState {
  robots: Robots;
}

/** The interval plus a small margin (1%, 1 to 20 ms) for clocks that tick at different moments. */
function spacingFor(intervalMs: number): number {
  return intervalMs <= 0 ? 0 : intervalMs + Math.min(20, Math.max(1, Math.ceil(intervalMs * 0.01)));
}

/** The host's SQLite schema, step by step (see migrateSchema). */
const SCHEMA: SchemaStep[] = [
  // 1: pacing state and the robots.txt of each origin. IF NOT EXISTS: objects made before versioning have them.
  `CREATE TABLE IF NOT EXISTS pacing (k TEXT PRIMARY KEY, v INTEGER NOT NULL);
   CREATE TABLE IF NOT EXISTS robots (
     origin TEXT PRIMARY KEY, kind TEXT NOT NULL, body TEXT, reason TEXT,
     fetched_at INTEGER NOT NULL, expires_at INTEGER NOT NULL
   );`,
  // 2: why the host could not be reached, when robots.txt is unreachable because of it.
  `ALTER TABLE robots ADD COLUMN failure_kind TEXT;
   ALTER TABLE robots ADD COLUMN failure_message TEXT;`,
];

/**
 * One per host name, shared by every consumer and every crawl: robots.txt (fetched once, cached per
 * origin) and the rate limiter. A request may start only `max(host minimum, crawl minimum,
 * Crawl-delay)` after the previous one to the host, with at most `hostMaxConcurrency` in flight, and
 * not before a Retry-After back-off has passed. Slots are reserved up front; callers wait for their
 * slot's start themselves, so waiting costs no queue retry.
 */
export class HostGate extends DurableObject<Env> {
  private readonly sql: SqlStorage;
  private readonly settings: Settings;
  private readonly robotsCache = new Map<string, RobotsEntry>();
  private readonly robotsFetches = new Map<string, Promise<RobotsEntry>>();
  /** Granted slots: when each is taken back if never released, and the spacing it was granted with. */
  private readonly inflight = new Map<string, { expiresAt: number; spacing: number }>();
  private nextFree: number;
  /** The earliest start of the next presented reservation (see planSlot). */
  private reservedCursor = 0;
  /** Paced requests under way: begun and not yet released. */
  private readonly begun = new Set<string>();
  private readonly releaseWaiters: (() => void)[] = [];
  /** When the last paced request began, and when the last one finished (its slot was released). */
  private lastBegin: number;
  private lastDone: number;
  private blockedUntil: number;
  /** Requests granted since the object was made (the persisted count included). */
  private requests: number;
  private persistedAt = 0;
  private dirty = false;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.settings = readSettings(env);
    migrateSchema(this.sql, SCHEMA);
    const now = Date.now();
    this.nextFree = this.pacing('next_free');
    this.blockedUntil = this.pacing('blocked_until');
    this.lastBegin = this.pacing('last_begin');
    this.requests = this.pacing('requests');
    // The last second of pacing may not have been written: a host seen before is paced from now.
    this.lastDone = this.requests > 0 ? Math.max(this.pacing('last_done'), now) : 0;
  }

  // ---- RPC ----

  /** admit() for several URLs of the host at once: one round trip and one storage commit for a batch. */
  async admitMany(requests: AdmitRequest[]): Promise<Admission[]> {
    // robots.txt of every origin first. Its fetch waits for a slot like any request to the host, and slots
    // granted by this call are used only once the call has returned: asked for after them, a robots.txt of a
    // second origin of the host (http and https, another port) would wait for slots that cannot free up.
    const origins = new Map<string, number>();
    for (const request of requests) {
      const origin = new URL(request.url).origin;
      origins.set(origin, Math.max(origins.get(origin) ?? 0, request.minIntervalMs));
    }
    await Promise.all([...origins].map(([origin, minIntervalMs]) => this.robotsFor(origin, minIntervalMs)));
    const admissions: Admission[] = [];
    for (const request of requests) admissions.push(await this.admit(request));
    this.persist();
    return admissions;
  }

  /**
   * An origin's robots.txt as the gate knows it, fetched first if need be: for a caller that checks many URLs at once
   * (a map), with the same rules admit() applies.
   */
  async robotsRules(origin: string): Promise<{ kind: RobotsState['kind']; body: string | null }> {
    const entry = await this.robotsFor(origin, 0);
    const row = this.sql.exec<{ body: string | null }>('SELECT body FROM robots WHERE origin = ?', origin).toArray()[0];
    return { kind: entry.kind, body: entry.kind === 'rules' ? (row?.body ?? '') : null };
  }

  async admit(request: AdmitRequest): Promise<Admission> {
    const origin = new URL(request.url).origin;
    const entry = await this.robotsFor(origin, request.minIntervalMs);
    const now = Date.now();
    if (entry.kind === 'unreachable') {
      const retryInMs = Math.max(1000, entry.expiresAt - now);
      return {
        kind: 'unreachable',
        reason: entry.reason ?? 'robots.txt unreachable',
        retryInMs,
        ...(entry.failure ? { failure: entry.failure } : {}),
      };
    }
    const sitemaps = request.wantRobotsSitemaps ? { robotsSitemaps: entry.robots.sitemaps } : {};
    if (!entry.robots.isAllowed(request.url, this.settings.userAgent)) return { kind: 'disallowed', ...sitemaps };
    const admission = this.reserve(request.minIntervalMs, entry.crawlDelayMs ?? 0, request);
    return admission.kind === 'go' ? { ...admission, ...sitemaps } : admission;
  }

  /**
   * Called by the holder of a paced slot when its start has come, right before it sends the request;
   * resolves when it may send. Gaps are measured from when the previous request finished, not from
   * when it was meant to start: a busy isolate may send a request later than it called fetch(), but its
   * response always arrives after the server saw it, so a gap counted from the response can never come
   * out short at the server. Paced requests therefore go one at a time.
   */
  async begin(slot: string, spacing: number): Promise<void> {
    const gap = this.inflight.get(slot)?.spacing ?? spacing;
    for (;;) {
      const now = Date.now();
      this.expireSlots(now);
      const other = [...this.begun].find((s) => s !== slot);
      if (other !== undefined) {
        // Wake when it is released, or when its slot would expire.
        await Promise.race([this.released(), sleep(Math.max(10, (this.inflight.get(other)?.expiresAt ?? now) - now))]);
        continue;
      }
      const earliest = Math.max(this.lastDone + gap, this.lastBegin + gap, this.blockedUntil);
      if (now < earliest) {
        await sleep(earliest - now);
        continue;
      }
      this.begun.add(slot);
      this.lastBegin = now;
      this.dirty = true;
      this.persist();
      return;
    }
  }

  /**
   * The request of a slot is over. `respondedAt`, when the holder knows it, is when its response began
   * to arrive; the next paced request is measured from then (never before the request began).
   */
  release(slot: string, respondedAt?: number): void {
    if (this.begun.delete(slot)) {
      const now = Date.now();
      this.lastDone = respondedAt === undefined ? now : Math.min(now, Math.max(respondedAt, this.lastBegin));
      this.dirty = true;
      const waiters = this.releaseWaiters.splice(0);
      for (const wake of waiters) wake();
    }
    this.inflight.delete(slot);
  }

  /** release() for several slots at once. */
  releaseMany(slots: { slot: string; respondedAt?: number }[]): void {
    for (const { slot, respondedAt } of slots) this.release(slot, respondedAt);
    this.persist();
  }

  private released(): Promise<void> {
    return new Promise((resolve) => this.releaseWaiters.push(resolve));
  }

  /** The host asked us to slow down (429, or 503 with Retry-After): no request starts before then. */
  backoff(retryAfterMs: number): number {
    const until = Date.now() + Math.min(Math.max(0, retryAfterMs), this.settings.hostMaxDelayMs);
    if (until > this.blockedUntil) {
      this.blockedUntil = until;
      this.setPacing('blocked_until', until);
    }
    return this.blockedUntil;
  }

  state(): HostState {
    const now = Date.now();
    this.expireSlots(now);
    return {
      inflight: this.inflight.size,
      nextSlotInMs: Math.max(0, this.nextFree - now),
      blockedForMs: Math.max(0, this.blockedUntil - now),
      requests: this.requests,
      robots: this.sql
        .exec<RobotsRow>('SELECT * FROM robots ORDER BY origin')
        .toArray()
        .map((row) => {
          const { robots: _robots, ...rest } = this.entryFromRow(row);
          return rest;
        }),
    };
  }

  // ---- pacing ----

  private reserve(
    minIntervalMs: number,
    crawlDelayMs: number,
    request: Omit<AdmitRequest, 'url' | 'minIntervalMs'>,
  ): Admission {
    const now = Date.now();
    this.expireSlots(now);
    const spacing = spacingFor(
      Math.max(this.settings.hostMinIntervalMs, minIntervalMs, Math.min(crawlDelayMs, this.settings.hostMaxDelayMs)),
    );
    const cap = Math.min(this.settings.hostMaxConcurrency, request.maxConcurrency ?? Number.POSITIVE_INFINITY);
    const timeline = {
      now,
      nextFree: this.nextFree,
      blockedUntil: this.blockedUntil,
      reservedCursor: this.reservedCursor,
      spacing,
    };
    const plan = planSlot({ ...timeline, full: this.inflight.size >= cap }, request);
    if (plan.kind === 'wait') return plan;
    this.dirty = true;
    if (plan.kind === 'reserve' || plan.advance) this.nextFree = plan.start + spacing;
    else this.reservedCursor = plan.start + spacing;
    if (plan.kind === 'reserve') return { kind: 'reserved', startAt: plan.start };
    const slot = crypto.randomUUID();
    this.inflight.set(slot, { expiresAt: plan.start + this.settings.fetchTimeoutMs + SLOT_GRACE_MS, spacing });
    this.requests += 1;
    return { kind: 'go', slot, startAt: plan.start, waitMs: plan.start - now, spacing };
  }

  private expireSlots(now: number): void {
    for (const [slot, { expiresAt }] of this.inflight) {
      if (expiresAt <= now) {
        this.inflight.delete(slot);
        this.begun.delete(slot);
      }
    }
  }

  /** Writes the pacing state, at most once per PERSIST_EVERY_MS (see there). */
  private persist(): void {
    const now = Date.now();
    if (!this.dirty || now - this.persistedAt < PERSIST_EVERY_MS) return;
    this.dirty = false;
    this.persistedAt = now;
    const state = {
      next_free: this.nextFree,
      last_begin: this.lastBegin,
      last_done: this.lastDone,
      requests: this.requests,
    };
    for (const [key, value] of Object.entries(state)) this.setPacing(key, value);
  }

  private pacing(key: string): number {
    return this.sql.exec<{ v: number }>('SELECT v FROM pacing WHERE k = ?', key).toArray()[0]?.v ?? 0;
  }

  private setPacing(key: string, value: number): void {
    this.sql.exec('INSERT INTO pacing (k, v) VALUES (?, ?) ON CONFLICT (k) DO UPDATE SET v = excluded.v', key, value);
  }

  // ---- robots.txt ----

  private async robotsFor(origin: string, minIntervalMs: number): Promise<RobotsEntry> {
    const now = Date.now();
    const cached = this.robotsCache.get(origin);
    if (cached && cached.expiresAt > now) return cached;
    const row = this.sql.exec<RobotsRow>('SELECT * FROM robots WHERE origin = ?', origin).toArray()[0];
    if (row && row.expires_at > now) {
      const entry = this.entryFromRow(row);
      this.robotsCache.set(origin, entry);
      return entry;
    }
    let pending = this.robotsFetches.get(origin);
    if (!pending) {
      pending = this.refreshRobots(origin, minIntervalMs).finally(() => this.robotsFetches.delete(origin));
      this.robotsFetches.set(origin, pending);
    }
    return pending;
  }

  /**
   * Fetches robots.txt as a request to the host like any other: it takes a slot and keeps the pace
   * of the crawl that asked. Once its Crawl-delay is known, the next request waits that long after it.
   */
  private async refreshRobots(origin: string, minIntervalMs: number): Promise<RobotsEntry> {
    const anyWait = { maxWaitMs: Number.POSITIVE_INFINITY };
    let admission = this.reserve(minIntervalMs, 0, anyWait);
    while (admission.kind === 'wait') {
      await sleep(admission.retryInMs);
      admission = this.reserve(minIntervalMs, 0, anyWait);
    }
    if (admission.kind !== 'go') throw new Error('unexpected admission');
    await sleep(admission.waitMs);
    await this.begin(admission.slot, admission.spacing);
    let result: RobotsFetch;
    try {
      result = await fetchRobots(origin, this.settings);
    } finally {
      this.release(admission.slot);
    }
    const entry = this.storeRobots(origin, result);
    this.robotsCache.set(origin, entry);
    const delayed =
      Date.now() +
      spacingFor(
        Math.max(
          this.settings.hostMinIntervalMs,
          minIntervalMs,
          Math.min(entry.crawlDelayMs ?? 0, this.settings.hostMaxDelayMs),
        ),
      );
    if (delayed > this.nextFree) {
      this.nextFree = delayed;
      this.setPacing('next_free', delayed);
    }
    return entry;
  }

  /** Writes what fetching an origin's robots.txt told us, and makes its cache entry. */
  private storeRobots(origin: string, result: RobotsFetch): RobotsEntry {
    const fetchedAt = Date.now();
    const expiresAt = fetchedAt + (result.kind === 'unreachable' ? ROBOTS_RETRY_MS : ROBOTS_TTL_MS);
    const body = result.kind === 'rules' ? result.body : null;
    const reason = result.kind === 'rules' ? null : result.reason;
    const failure = result.kind === 'unreachable' && isHostUnreachable(result.failure) ? result.failure : null;
    const row: RobotsRow = {
      origin,
      kind: result.kind,
      body,
      reason,
      failure_kind: failure?.kind ?? null,
      failure_message: failure?.message ?? null,
      fetched_at: fetchedAt,
      expires_at: expiresAt,
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
    return this.entryFromRow(row);
  }

  private entryFromRow(row: RobotsRow): RobotsEntry {
    const robots =
      row.kind === 'rules' ? parseRobots(row.body ?? '') : row.kind === 'allow-all' ? ALLOW_ALL : DISALLOW_ALL;
    const delay = robots.crawlDelay(this.settings.userAgent);
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
