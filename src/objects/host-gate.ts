import { DurableObject } from 'cloudflare:workers';
import type { FetchFailure } from '../domain/fetch/failure';
import { type NotFoundAnswer, probeOf } from '../domain/traps/soft-404';
import { fetchNotFound } from '../page/not-found-probe';
import { fetchRobots } from '../page/robots-fetch';
import { readSettings, type Settings } from '../settings';
import { NotFoundCache } from './host-not-found';
import { HostPacing, PACING_TABLE, type SlotRequest } from './host-pacing';
import { RobotsCache, type RobotsEntry, type RobotsState } from './host-robots';
import { migrateSchema, type SchemaStep } from './sqlite-schema';

/** An admission for an origin whose robots.txt is being fetched, and has not come within the budget, asks again then. */
const ROBOTS_PENDING_RETRY_MS = 1000;
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

export interface AdmitRequest extends SlotRequest {
  url: string;
  /** Grant only a slot that starts within this long. */
  maxWaitMs: number;
  /** Also answer the Sitemap URLs of the origin's robots.txt. */
  wantRobotsSitemaps?: boolean;
  /** Beyond the wait budget, reserve a slot later on the host's timeline ('reserved') rather than answer 'wait'. */
  reserve?: boolean;
  /** The start of a slot reserved for this URL earlier: granted without a new place on the timeline once it is near. */
  reservedAt?: number;
}

interface HostState {
  inflight: number;
  nextSlotInMs: number;
  blockedForMs: number;
  requests: number;
  robots: RobotsState[];
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
  // 4: what each origin and section answers for a made-up path (soft 404s: host-not-found.ts).
  `CREATE TABLE IF NOT EXISTS not_found (
     key TEXT PRIMARY KEY, status INTEGER NOT NULL, reads_not_found INTEGER NOT NULL, sketch TEXT,
     expires_at INTEGER NOT NULL
   ) WITHOUT ROWID`,
];

/**
 * One per host name, shared by every consumer and every crawl: robots.txt (RobotsCache, host-robots.ts: fetched once,
 * cached per origin) and the rate limiter (HostPacing, host-pacing.ts). A request may start only `max(host minimum,
 * crawl minimum, Crawl-delay)` after the previous one to the host, with at most `hostMaxConcurrency` in flight, and
 * not before a Retry-After back-off has passed. Slots are booked up front on the host's timeline, each in the name of
 * the crawl that asked (given back when it ends); callers wait for their slot's start themselves, so waiting costs
 * no queue retry. The gate admits a request by its origin's robots.txt, then its pacing.
 */
export class HostGate extends DurableObject<Env> {
  private readonly settings: Settings;
  private readonly pacing: HostPacing;
  private readonly robots: RobotsCache;
  private readonly notFounds: NotFoundCache;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    const sql = ctx.storage.sql;
    this.settings = readSettings(env);
    migrateSchema(sql, SCHEMA);
    this.pacing = new HostPacing(sql, this.settings);
    // robots.txt is a request to the host: paced like the rest (see HostPacing.paced).
    this.robots = new RobotsCache(sql, this.settings.userAgent, (origin, minIntervalMs) =>
      this.pacing.paced(minIntervalMs, () => fetchRobots(origin, this.settings)),
    );
    // So is the made-up path a soft 404 is told by.
    this.notFounds = new NotFoundCache(sql, (url, minIntervalMs) =>
      this.pacing.paced(minIntervalMs, () => fetchNotFound(url, this.settings)),
    );
  }

  // ---- RPC ----

  /** admit() for several URLs of the host at once: one round trip and one storage commit for a batch. */
  async admitMany(requests: AdmitRequest[]): Promise<Admission[]> {
    const now = Date.now();
    const live = new Set(requests.filter((r) => r.crawlId === undefined || !this.pacing.hasEnded(r.crawlId, now)));
    // robots.txt of every origin first. Its fetch is a request to the host, and slots granted by this call are used
    // only once the call has returned: asked for after them, a robots.txt of a second origin of the host (http and
    // https, another port) would wait for slots that cannot free up.
    const known = await this.robots.forRequests([...live]);
    const admissions = requests.map((request) =>
      live.has(request) ? this.admitWith(request, known.get(new URL(request.url).origin) ?? null) : endedAnswer,
    );
    this.pacing.persist();
    return admissions;
  }

  async admit(request: AdmitRequest): Promise<Admission> {
    return (await this.admitMany([request]))[0] ?? { kind: 'wait', retryInMs: ROBOTS_PENDING_RETRY_MS };
  }

  /**
   * A crawl accepted its first URLs of these origins, due a spacing from now (domain/politeness/spread.ts): their
   * robots.txt is fetched now if it is not known, so that the URLs find it when they come (each origin's first request
   * is its robots.txt, paced like any other). Answers at once; the fetches go on in the background.
   */
  prefetchRobots(origins: string[], minIntervalMs: number): void {
    for (const origin of origins) {
      const fetching = this.robots.prefetch(origin, minIntervalMs);
      if (fetching) this.ctx.waitUntil(fetching);
    }
  }

  /**
   * An origin's robots.txt as the gate knows it, fetched first if need be: for a caller that checks many URLs at once
   * (a map), with the same rules admit() applies.
   */
  async robotsRules(origin: string): Promise<{ kind: RobotsState['kind']; body: string | null }> {
    return this.robots.rules(origin);
  }

  /**
   * What the host answers, for `pageUrl`'s origin and section, to a path it surely does not have (asked once a day
   * however many crawls ask, paced like any request to it): how a page that reads as not found is told a soft 404
   * (domain/traps/soft-404.ts). Null when it could not be asked.
   */
  async notFound(pageUrl: string, minIntervalMs: number): Promise<NotFoundAnswer | null> {
    const probe = probeOf(pageUrl, `edgecrawl-missing-${crypto.randomUUID().slice(0, 13)}`);
    return this.notFounds.answer(probe.key, probe.url, minIntervalMs);
  }

  /**
   * Called by the holder of a paced slot when its start has come, right before it sends the request;
   * resolves true when it may send, false when its crawl ended meanwhile (the slot is gone: send nothing). Gaps are
   * measured from when the previous request finished, not from when it was meant to start: a busy isolate may send
   * a request later than it called fetch(), but its response always arrives after the server saw it, so a gap
   * counted from the response can never come out short at the server. Paced requests therefore go one at a time.
   */
  async begin(slot: string, spacing: number): Promise<boolean> {
    return this.pacing.begin(slot, spacing);
  }

  /**
   * The request of a slot is over. `respondedAt`, when the holder knows it, is when its response began
   * to arrive; the next paced request is measured from then (never before the request began).
   */
  release(slot: string, respondedAt?: number): void {
    this.pacing.release(slot, respondedAt);
  }

  /** release() for several slots at once. */
  releaseMany(slots: { slot: string; respondedAt?: number }[]): void {
    for (const { slot, respondedAt } of slots) this.pacing.release(slot, respondedAt);
    this.pacing.persist();
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
    return this.pacing.releaseCrawl(crawlId, ended);
  }

  /** The host asked us to slow down (429, or 503 with Retry-After): no request starts before then. */
  backoff(retryAfterMs: number): number {
    return this.pacing.backoff(retryAfterMs);
  }

  state(): HostState {
    return { ...this.pacing.state(), robots: this.robots.all() };
  }

  // ---- admission ----

  /** One request, with its origin's robots.txt as known (null: still being fetched). */
  private admitWith(request: AdmitRequest, entry: RobotsEntry | null): Admission {
    // Given back while robots.txt was fetched: nothing more is booked for it.
    if (request.crawlId !== undefined && this.pacing.hasEnded(request.crawlId, Date.now())) return endedAnswer;
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
    const admission = this.pacing.reserve(request, entry.crawlDelayMs ?? 0);
    return admission.kind === 'go' ? { ...admission, ...sitemaps } : admission;
  }
}
