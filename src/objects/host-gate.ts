import { DurableObject } from 'cloudflare:workers';
import type { FetchFailure } from '../domain/fetch/failure';
import { planSlot, RESERVE_HORIZON_MS } from '../domain/politeness/reservation';
import { ahead, book, firstFree, type Run, withoutOwner } from '../domain/politeness/timeline';
import { within } from '../lib/sleep';
import { Wakeups } from '../lib/wakeups';
import { log } from '../log';
import { fetchRobots } from '../page/robots-fetch';
import { readSettings, type Settings } from '../settings';
import { loadPacing, PACING_TABLE, savePacing } from './host-pacing';
import { type RobotsEntry, type RobotsState, RobotsStore } from './host-robots';
import { migrateSchema, type SchemaStep } from './sqlite-schema';

/** An admission for an origin whose robots.txt is being fetched, and has not come within the budget, asks again then. */
const ROBOTS_PENDING_RETRY_MS = 1000;
/** A granted slot not released by then is taken back (its consumer died). */
const SLOT_GRACE_MS = 30_000;
/**
 * Pacing state is written at most this often (SQLite rows written are billed: one per request would cost more than
 * the rest of a page), but at once when slots are reserved or given back. A restarted object, which may have lost up
 * to this much, starts conservatively: its first paced request waits a whole interval.
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
  | { kind: 'unreachable'; reason: string; retryInMs: number; failure?: FetchFailure }
  /** The crawl that asked has ended, and gave its slots back (releaseCrawl): nothing is to be fetched for it. */
  | { kind: 'ended' };

const endedAnswer: Admission = { kind: 'ended' };

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
  /** The crawl asking: what is booked for it is its own, given back when it ends (releaseCrawl). None: a scrape, a map. */
  crawlId?: string;
}

interface HostState {
  inflight: number;
  nextSlotInMs: number;
  blockedForMs: number;
  requests: number;
  robots: RobotsState[];
}

/** A granted slot: when it is taken back if never released, the spacing it was granted with, and whose it is. */
interface Held {
  expiresAt: number;
  spacing: number;
  owner: string | null;
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
  // 3: the pacing state and the timeline's runs with their crawls, in one row (host-pacing.ts); `pacing` is read once.
  PACING_TABLE,
];

/**
 * One per host name, shared by every consumer and every crawl: robots.txt (fetched once, cached per
 * origin) and the rate limiter. A request may start only `max(host minimum, crawl minimum,
 * Crawl-delay)` after the previous one to the host, with at most `hostMaxConcurrency` in flight, and
 * not before a Retry-After back-off has passed. Slots are booked up front on the host's timeline, each in the name of
 * the crawl that asked (given back when it ends); callers wait for their slot's start themselves, so waiting costs
 * no queue retry.
 */
export class HostGate extends DurableObject<Env> {
  private readonly sql: SqlStorage;
  private readonly settings: Settings;
  private readonly robots: RobotsStore;
  private readonly robotsFetches = new Map<string, Promise<RobotsEntry>>();
  private readonly inflight = new Map<string, Held>();
  /** Slots taken back from a crawl that ended before they began: begin() answers false, once. */
  private readonly voided = new Map<string, number>();
  /** Crawls that ended (releaseCrawl), until when they are remembered: their late admissions answer 'ended'. */
  private readonly ended = new Map<string, number>();
  /** What is booked ahead: granted slots and reservations, in runs of one crawl each (domain/politeness/timeline.ts). */
  private runs: Run[];
  /** The earliest start of the next presented reservation (see planSlot). */
  private reservedCursor = 0;
  /** Paced requests under way: begun and not yet released. */
  private readonly begun = new Set<string>();
  /** begin() calls waiting for a release, or for their time. */
  private readonly wakeups = new Wakeups();
  /** When the last paced request began, and when the last one finished (its slot was released). */
  private lastBegin: number;
  private lastDone: number;
  private blockedUntil: number;
  /** Requests granted since the object was made (the persisted count included). */
  private requests: number;
  private persistedAt = 0;
  private dirty = false;
  /** Slots were reserved: written with the next persist() however soon (a reservation must outlive the object). */
  private reservedSince = false;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.settings = readSettings(env);
    migrateSchema(this.sql, SCHEMA);
    this.robots = new RobotsStore(this.sql, this.settings.userAgent);
    const now = Date.now();
    const pacing = loadPacing(this.sql, now);
    this.runs = ahead(pacing.runs, now);
    this.blockedUntil = pacing.blockedUntil;
    this.lastBegin = pacing.lastBegin;
    this.requests = pacing.requests;
    // The last second of pacing may not have been written: a host seen before is paced from now.
    this.lastDone = this.requests > 0 ? Math.max(pacing.lastDone, now) : 0;
  }

  // ---- RPC ----

  /** admit() for several URLs of the host at once: one round trip and one storage commit for a batch. */
  async admitMany(requests: AdmitRequest[]): Promise<Admission[]> {
    const now = Date.now();
    const live = new Set(requests.filter((r) => r.crawlId === undefined || !this.hasEnded(r.crawlId, now)));
    // robots.txt of every origin first. Its fetch is a request to the host, and slots granted by this call are used
    // only once the call has returned: asked for after them, a robots.txt of a second origin of the host (http and
    // https, another port) would wait for slots that cannot free up.
    const known = await this.robotsOf([...live]);
    const admissions = requests.map((request) =>
      live.has(request) ? this.admitWith(request, known.get(new URL(request.url).origin) ?? null) : endedAnswer,
    );
    this.persist();
    return admissions;
  }

  async admit(request: AdmitRequest): Promise<Admission> {
    return (await this.admitMany([request]))[0] ?? { kind: 'wait', retryInMs: ROBOTS_PENDING_RETRY_MS };
  }

  /**
   * An origin's robots.txt as the gate knows it, fetched first if need be: for a caller that checks many URLs at once
   * (a map), with the same rules admit() applies.
   */
  async robotsRules(origin: string): Promise<{ kind: RobotsState['kind']; body: string | null }> {
    const entry = await this.robotsWithin(origin, 0, Number.POSITIVE_INFINITY);
    if (!entry) throw new Error(`robots.txt of ${origin} not fetched`);
    return { kind: entry.kind, body: entry.kind === 'rules' ? (this.robots.body(origin) ?? '') : null };
  }

  /**
   * Called by the holder of a paced slot when its start has come, right before it sends the request;
   * resolves true when it may send, false when its crawl ended meanwhile (the slot is gone: send nothing). Gaps are
   * measured from when the previous request finished, not from when it was meant to start: a busy isolate may send
   * a request later than it called fetch(), but its response always arrives after the server saw it, so a gap
   * counted from the response can never come out short at the server. Paced requests therefore go one at a time.
   */
  async begin(slot: string, spacing: number): Promise<boolean> {
    const gap = this.inflight.get(slot)?.spacing ?? spacing;
    for (;;) {
      if (this.voided.delete(slot)) return false;
      const now = Date.now();
      this.expireSlots(now);
      const other = [...this.begun].find((s) => s !== slot);
      if (other !== undefined) {
        // Wake when it is released, or when its slot would expire.
        await this.wakeups.wait(Math.max(10, (this.inflight.get(other)?.expiresAt ?? now) - now));
        continue;
      }
      const earliest = Math.max(this.lastDone + gap, this.lastBegin + gap, this.blockedUntil);
      if (now < earliest) {
        await this.wakeups.wait(earliest - now);
        continue;
      }
      this.begun.add(slot);
      this.lastBegin = now;
      this.dirty = true;
      this.persist();
      return true;
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
    }
    this.inflight.delete(slot);
    this.voided.delete(slot);
    this.wakeups.wakeAll();
  }

  /** release() for several slots at once. */
  releaseMany(slots: { slot: string; respondedAt?: number }[]): void {
    for (const { slot, respondedAt } of slots) this.release(slot, respondedAt);
    this.persist();
  }

  /**
   * A crawl is over (cancelled, purged, completed): what the host's timeline holds for it is given back at once, its
   * paced slots granted and not yet begun too (their begin() answers false; an unpaced slot is not asked again
   * before it is used, so it stays counted until it is released). `ended`: it will not run again (cancelled,
   * purged), so what it still asks for answers 'ended'; a completed crawl may be reopened (retry-errors).
   * Requests of it already under way finish as they are. Returns the slots it had booked on the timeline (granted
   * or reserved), and how many granted ones were taken back before they began.
   */
  releaseCrawl(crawlId: string, ended: boolean): { booked: number; taken: number } {
    const now = Date.now();
    const { runs, slots } = withoutOwner(ahead(this.runs, now), crawlId);
    this.runs = runs;
    let taken = 0;
    for (const [slot, held] of this.inflight) {
      if (held.owner !== crawlId || held.spacing === 0 || this.begun.has(slot)) continue;
      this.inflight.delete(slot);
      this.voided.set(slot, held.expiresAt);
      taken += 1;
    }
    if (ended) this.ended.set(crawlId, now + RESERVE_HORIZON_MS);
    if (slots + taken > 0) {
      this.wakeups.wakeAll();
      this.dirty = true;
      this.persist(true);
    }
    return { booked: slots, taken };
  }

  /** The host asked us to slow down (429, or 503 with Retry-After): no request starts before then. */
  backoff(retryAfterMs: number): number {
    const until = Date.now() + Math.min(Math.max(0, retryAfterMs), this.settings.hostMaxDelayMs);
    if (until > this.blockedUntil) {
      this.blockedUntil = until;
      this.dirty = true;
      this.persist(true);
    }
    return this.blockedUntil;
  }

  state(): HostState {
    const now = Date.now();
    this.expireSlots(now);
    const free = firstFree(this.runs, now, spacingFor(this.settings.hostMinIntervalMs));
    return {
      inflight: this.inflight.size,
      nextSlotInMs: Math.max(0, free - now),
      blockedForMs: Math.max(0, this.blockedUntil - now),
      requests: this.requests,
      robots: this.robots.all(),
    };
  }

  // ---- admission ----

  /** One request, with its origin's robots.txt as known (null: still being fetched). */
  private admitWith(request: AdmitRequest, entry: RobotsEntry | null): Admission {
    // Given back while robots.txt was fetched: nothing more is booked for it.
    if (request.crawlId !== undefined && this.hasEnded(request.crawlId, Date.now())) return endedAnswer;
    if (!entry) return { kind: 'wait', retryInMs: ROBOTS_PENDING_RETRY_MS };
    if (entry.kind === 'unreachable') {
      const retryInMs = Math.max(1000, entry.expiresAt - Date.now());
      return {
        kind: 'unreachable',
        reason: entry.reason ?? 'robots.txt unreachable',
        retryInMs,
        ...(entry.failure ? { failure: entry.failure } : {}),
      };
    }
    const sitemaps = request.wantRobotsSitemaps ? { robotsSitemaps: entry.robots.sitemaps } : {};
    if (!entry.robots.isAllowed(request.url, this.settings.userAgent)) return { kind: 'disallowed', ...sitemaps };
    const admission = this.reserve(request, entry.crawlDelayMs ?? 0);
    return admission.kind === 'go' ? { ...admission, ...sitemaps } : admission;
  }

  private hasEnded(crawlId: string, now: number): boolean {
    return (this.ended.get(crawlId) ?? 0) > now;
  }

  // ---- pacing ----

  private reserve(request: AdmitRequest, crawlDelayMs: number): Admission {
    const now = Date.now();
    this.expireSlots(now);
    const spacing = spacingFor(
      Math.max(
        this.settings.hostMinIntervalMs,
        request.minIntervalMs,
        Math.min(crawlDelayMs, this.settings.hostMaxDelayMs),
      ),
    );
    const cap = Math.min(this.settings.hostMaxConcurrency, request.maxConcurrency ?? Number.POSITIVE_INFINITY);
    const timeline = {
      now,
      nextFree: firstFree(this.runs, Math.max(now, this.blockedUntil), spacing),
      blockedUntil: this.blockedUntil,
      reservedCursor: this.reservedCursor,
      spacing,
    };
    const plan = planSlot({ ...timeline, full: this.inflight.size >= cap }, request);
    if (plan.kind === 'wait') return plan;
    if (plan.kind === 'kept') return { kind: 'reserved', startAt: plan.start };
    const owner = request.crawlId ?? null;
    this.dirty = true;
    if (plan.kind === 'reserve' || plan.advance) this.runs = book(this.runs, owner, plan.start, spacing);
    else this.reservedCursor = plan.start + spacing;
    if (plan.kind === 'reserve') {
      this.reservedSince = true;
      return { kind: 'reserved', startAt: plan.start };
    }
    const slot = crypto.randomUUID();
    this.inflight.set(slot, { expiresAt: plan.start + this.settings.fetchTimeoutMs + SLOT_GRACE_MS, spacing, owner });
    this.requests += 1;
    return { kind: 'go', slot, startAt: plan.start, waitMs: plan.start - now, spacing };
  }

  /** Takes back slots never released (their consumer died), and forgets what is over. */
  private expireSlots(now: number): void {
    for (const [slot, { expiresAt }] of this.inflight) {
      if (expiresAt <= now) {
        this.inflight.delete(slot);
        this.begun.delete(slot);
      }
    }
    for (const [slot, expiresAt] of this.voided) if (expiresAt <= now) this.voided.delete(slot);
    for (const [crawlId, until] of this.ended) if (until <= now) this.ended.delete(crawlId);
    if (this.runs[0] !== undefined && this.runs[0].start < now) this.runs = ahead(this.runs, now);
  }

  /**
   * Writes the pacing state: at once when `now` (slots given back, a back-off) or slots were reserved, else at most
   * once per PERSIST_EVERY_MS.
   */
  private persist(now = false): void {
    const at = Date.now();
    if (!this.dirty || (!now && !this.reservedSince && at - this.persistedAt < PERSIST_EVERY_MS)) return;
    this.dirty = false;
    this.reservedSince = false;
    this.persistedAt = at;
    savePacing(this.sql, {
      lastBegin: this.lastBegin,
      lastDone: this.lastDone,
      blockedUntil: this.blockedUntil,
      requests: this.requests,
      runs: ahead(this.runs, at),
    });
  }

  // ---- robots.txt ----

  /** The robots.txt of each origin the requests are for, each waited for at most its requests' budget. */
  private async robotsOf(requests: AdmitRequest[]): Promise<Map<string, RobotsEntry | null>> {
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
          [origin, await this.robotsWithin(origin, minIntervalMs, budgetMs)] as const,
      ),
    );
    return new Map(known);
  }

  /**
   * An origin's robots.txt: as known while fresh; else fetched again, its old rules served meanwhile when they may be
   * (see RobotsStore.known), or waited for at most `budgetMs`. Null: not known within the budget (ask again).
   */
  private async robotsWithin(origin: string, minIntervalMs: number, budgetMs: number): Promise<RobotsEntry | null> {
    const known = this.robots.known(origin, Date.now());
    if (known?.fresh && known.entry) return known.entry;
    const fetching = this.refreshRobots(origin, minIntervalMs);
    fetching.catch((error: unknown) => log('warn', 'robots.txt fetch failed', { origin, error: String(error) }));
    return known?.entry ?? within(fetching, budgetMs);
  }

  /** The origin's robots.txt fetched again, once however many ask at the same time. */
  private refreshRobots(origin: string, minIntervalMs: number): Promise<RobotsEntry> {
    let pending = this.robotsFetches.get(origin);
    if (!pending) {
      pending = this.fetchRobotsNow(origin, minIntervalMs).finally(() => this.robotsFetches.delete(origin));
      this.robotsFetches.set(origin, pending);
    }
    return pending;
  }

  /**
   * Fetches robots.txt as a request to the host: within its cap on requests in flight and its measured pace
   * (begin(), after the previous request by the interval of the crawl that asked), but not behind the slots booked
   * on its timeline, which may run an hour ahead: it is one request, and the origin's admissions wait for it. The
   * slots booked start at most an interval later for it.
   */
  private async fetchRobotsNow(origin: string, minIntervalMs: number): Promise<RobotsEntry> {
    const spacing = spacingFor(Math.max(this.settings.hostMinIntervalMs, minIntervalMs));
    const slot = await this.robotsSlot(spacing);
    let result: Awaited<ReturnType<typeof fetchRobots>>;
    try {
      await this.begin(slot, spacing);
      result = await fetchRobots(origin, this.settings);
    } finally {
      this.release(slot);
    }
    return this.robots.store(origin, result);
  }

  /** A slot for a robots.txt fetch, once the host has fewer than its cap in flight. */
  private async robotsSlot(spacing: number): Promise<string> {
    for (;;) {
      const now = Date.now();
      this.expireSlots(now);
      if (this.inflight.size < this.settings.hostMaxConcurrency) {
        const slot = crypto.randomUUID();
        this.inflight.set(slot, {
          expiresAt: now + this.settings.fetchTimeoutMs + SLOT_GRACE_MS,
          spacing,
          owner: null,
        });
        this.requests += 1;
        return slot;
      }
      await this.wakeups.wait(1000);
    }
  }
}
