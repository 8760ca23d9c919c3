import { z } from 'zod';
import { type Placement, planSlot, RESERVE_HORIZON_MS } from '../domain/politeness/reservation';
import { spacingFor } from '../domain/politeness/spread';
import { ahead, book, firstFree, type Run, withoutOwner } from '../domain/politeness/timeline';
import { Wakeups } from '../lib/wakeups';
import { log } from '../log';
import type { Settings } from '../settings';

/** A granted slot not released by then is taken back (its consumer died). */
const SLOT_GRACE_MS = 30_000;
/**
 * Pacing state is written at most this often (SQLite rows written are billed: one per request would cost more than
 * the rest of a page), but at once when slots are reserved or given back. A restarted object, which may have lost up
 * to this much, starts conservatively: its first paced request waits a whole interval.
 */
const PERSIST_EVERY_MS = 1000;

/**
 * What a host's gate keeps across restarts: when the last paced request began and ended, the back-off, the requests
 * granted, and its timeline (the runs of slots each crawl has booked, so that a crawl that ends after a restart still
 * gives its own back). One row, rewritten as a whole: a row written is billed whatever its size.
 */
interface Pacing {
  lastBegin: number;
  lastDone: number;
  blockedUntil: number;
  requests: number;
  runs: Run[];
}

/** The step of the gate's schema (see migrateSchema) that makes its row. */
export const PACING_TABLE = 'CREATE TABLE IF NOT EXISTS gate (k INTEGER PRIMARY KEY CHECK (k = 1), v TEXT NOT NULL)';

const runSchema = z.tuple([z.string().nullable(), z.number(), z.number().positive(), z.number().int().positive()]);
const pacingSchema = z.object({
  lastBegin: z.number(),
  lastDone: z.number(),
  blockedUntil: z.number(),
  requests: z.number(),
  runs: z.array(runSchema),
});

/** An older gate's state, a row per value in `pacing` (next_free: the end of its timeline, whose owners it did not keep). */
function legacyPacing(sql: SqlStorage, now: number): Pacing {
  const value = (key: string) => sql.exec<{ v: number }>('SELECT v FROM pacing WHERE k = ?', key).toArray()[0]?.v ?? 0;
  const nextFree = value('next_free');
  return {
    lastBegin: value('last_begin'),
    lastDone: value('last_done'),
    blockedUntil: value('blocked_until'),
    requests: value('requests'),
    // Held for no crawl in particular: given back by none, over when its time has passed.
    runs: nextFree > now ? [{ owner: null, start: now, spacing: nextFree - now, count: 1 }] : [],
  };
}

/** The stored row as JSON, checked; null when it is not what savePacing writes. */
function parsePacing(text: string): z.infer<typeof pacingSchema> | null {
  try {
    const parsed = pacingSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function loadPacing(sql: SqlStorage, now: number): Pacing {
  const row = sql.exec<{ v: string }>('SELECT v FROM gate WHERE k = 1').toArray()[0];
  if (!row) return legacyPacing(sql, now);
  const stored = parsePacing(row.v);
  if (!stored) {
    log('error', "a host gate's stored pacing is unreadable: it starts afresh, its first request a whole interval on");
    return { lastBegin: 0, lastDone: now, blockedUntil: 0, requests: 1, runs: [] };
  }
  const { runs, ...rest } = stored;
  return { ...rest, runs: runs.map(([owner, start, spacing, count]) => ({ owner, start, spacing, count })) };
}

function savePacing(sql: SqlStorage, pacing: Pacing): void {
  const runs = pacing.runs.map((run) => [run.owner, run.start, run.spacing, run.count]);
  sql.exec(
    'INSERT INTO gate (k, v) VALUES (1, ?) ON CONFLICT (k) DO UPDATE SET v = excluded.v',
    JSON.stringify({ ...pacing, runs }),
  );
}

/** What pacing asks of a request for a slot (admit's request, less the URL and what robots.txt answers). */
export interface SlotRequest extends Placement {
  /** The crawl's own minimum gap for this host (0 for none). */
  minIntervalMs: number;
  /** The crawl's own cap on requests in flight to the host (the host's cap still applies). */
  maxConcurrency?: number;
  /** The crawl asking: what is booked for it is its own, given back when it ends (releaseCrawl). None: a scrape, a map. */
  crawlId?: string;
}

/** What pacing answers a request for a slot (see Admission, in host-gate.ts). */
export type SlotAnswer =
  | { kind: 'go'; slot: string; startAt: number; waitMs: number; spacing: number }
  | { kind: 'wait'; retryInMs: number }
  | { kind: 'reserved'; startAt: number };

/** A granted slot: when it is taken back if never released, the spacing it was granted with, and whose it is. */
interface Held {
  expiresAt: number;
  spacing: number;
  owner: string | null;
}

/**
 * A host's rate limiter, as its gate runs it: a request may start only `max(host minimum, crawl minimum,
 * Crawl-delay)` after the previous one to the host, with at most `hostMaxConcurrency` in flight, and not before a
 * Retry-After back-off has passed. Slots are booked up front on the host's timeline, each in the name of the crawl
 * that asked (given back when it ends). Its state is kept in memory and in one SQLite row (the table PACING_TABLE
 * makes).
 */
export class HostPacing {
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

  /** Reads the stored state (the schema's tables exist: see migrateSchema). */
  constructor(
    private readonly sql: SqlStorage,
    private readonly settings: Settings,
  ) {
    const now = Date.now();
    const pacing = loadPacing(this.sql, now);
    this.runs = ahead(pacing.runs, now);
    this.blockedUntil = pacing.blockedUntil;
    this.lastBegin = pacing.lastBegin;
    this.requests = pacing.requests;
    // The last second of pacing may not have been written: a host seen before is paced from now.
    this.lastDone = this.requests > 0 ? Math.max(pacing.lastDone, now) : 0;
  }

  /** See HostGate.begin. */
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

  /** See HostGate.release. */
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

  /** See HostGate.releaseCrawl. */
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

  /** See HostGate.backoff. */
  backoff(retryAfterMs: number): number {
    const until = Date.now() + Math.min(Math.max(0, retryAfterMs), this.settings.hostMaxDelayMs);
    if (until > this.blockedUntil) {
      this.blockedUntil = until;
      this.dirty = true;
      this.persist(true);
    }
    return this.blockedUntil;
  }

  /** The pacing part of HostGate.state. */
  state(): { inflight: number; nextSlotInMs: number; blockedForMs: number; requests: number } {
    const now = Date.now();
    this.expireSlots(now);
    const free = firstFree(this.runs, now, spacingFor(this.settings.hostMinIntervalMs));
    return {
      inflight: this.inflight.size,
      nextSlotInMs: Math.max(0, free - now),
      blockedForMs: Math.max(0, this.blockedUntil - now),
      requests: this.requests,
    };
  }

  /** Whether the crawl ended (releaseCrawl, `ended`) and is still remembered: what it asks for answers 'ended'. */
  hasEnded(crawlId: string, now: number): boolean {
    return (this.ended.get(crawlId) ?? 0) > now;
  }

  /** A slot for a request, its spacing that of the crawl, the host and its robots.txt's Crawl-delay. */
  reserve(request: SlotRequest, crawlDelayMs: number): SlotAnswer {
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

  /**
   * Runs `request` (a robots.txt fetch) as a request to the host: within its cap on requests in flight and its
   * measured pace (begin(), after the previous request by `minIntervalMs` or the host's interval), but not behind the
   * slots booked on its timeline, which may run an hour ahead: it is one request, and the origin's admissions wait
   * for it. The slots booked start at most an interval later for it.
   */
  async paced<T>(minIntervalMs: number, request: () => Promise<T>): Promise<T> {
    const spacing = spacingFor(Math.max(this.settings.hostMinIntervalMs, minIntervalMs));
    const slot = await this.unbookedSlot(spacing);
    try {
      await this.begin(slot, spacing);
      return await request();
    } finally {
      this.release(slot);
    }
  }

  /** A slot off the timeline, once the host has fewer than its cap in flight. */
  private async unbookedSlot(spacing: number): Promise<string> {
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
  persist(now = false): void {
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
}
