import { DurableObject } from 'cloudflare:workers';
import { z } from 'zod';
import { parseStoredConfig } from '../crawl-config';
import { addUsage, emptyUsage, type Operations, type Usage, UsageMeter } from '../domain/usage';
import { log } from '../log';
import { enqueueTasks } from '../queues/frontier';
import { emitWebhookEvents, webhookEvent } from '../queues/webhook-events';
import { readSettings, type Settings } from '../settings';
import { setCrawlStatus } from '../storage/d1/crawls';
import {
  type Claim,
  type Counts,
  type CrawlConfig,
  type CrawlSnapshot,
  type CrawlStatus,
  type FrontierEntry,
  type Outcome,
  reasonOf,
  type TaskKind,
} from '../types';
import { hasColumn, migrateSchema, type SchemaStep } from './sqlite-schema';

/**
 * URL states in the seen-set. QUEUED is pending (a URL handed to a consumer stays QUEUED in storage: its lease is
 * kept in memory); INFLIGHT only in rows written before leases moved to memory, and is read like QUEUED.
 */
enum State {
  Queued = 0,
  Inflight = 1,
  Stored = 2,
  Failed = 3,
  Skipped = 4,
}

const FINAL_STATE = { stored: State.Stored, failed: State.Failed, skipped: State.Skipped } as const;

/** How long a claimed URL stays reserved for its consumer before the sweeper may hand it out again. */
const LEASE_MS = 3 * 60_000;
/** Backstop: a URL queued this long past its expected delivery has its message re-sent, even while the crawl is busy. */
const REQUEUE_AFTER_MS = 60 * 60_000;
/** The backstop's scan of the whole seen-set (there is no index to keep cheap writes cheap) runs at most this often. */
const BACKSTOP_EVERY_MS = 10 * 60_000;
const SWEEP_LIMIT = 1000;

type CounterName = keyof Counts | 'pending';

const countsSchema = z.object({
  counters: z.object({
    discovered: z.number(),
    fetched: z.number(),
    stored: z.number(),
    failed: z.number(),
    skipped: z.number(),
    pending: z.number(),
  }),
  usage: z.object({
    operations: z.object({
      workerInvocations: z.number(),
      queueOperations: z.number(),
      durableObjectRequests: z.number(),
      durableObjectRowsRead: z.number(),
      durableObjectRowsWritten: z.number(),
      d1RowsRead: z.number(),
      d1RowsWritten: z.number(),
      r2ClassA: z.number(),
      r2ClassB: z.number(),
    }) satisfies z.ZodType<Operations>,
    r2Bytes: z.number(),
  }),
});
type StoredCounts = z.infer<typeof countsSchema>;

/** The crawl's SQLite schema, step by step (see migrateSchema). */
const SCHEMA: SchemaStep[] = [
  // 1: the seen-set, its counters and the crawl's settings. Objects made before the schema was versioned have
  // these tables already, with or without the kind column.
  (sql) => {
    sql.exec(`
      CREATE TABLE IF NOT EXISTS meta (k TEXT PRIMARY KEY, v TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS counters (name TEXT PRIMARY KEY, n INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS urls (
        url TEXT PRIMARY KEY,
        depth INTEGER NOT NULL,
        hops INTEGER NOT NULL,
        state INTEGER NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        lease_until INTEGER,
        enqueued_at INTEGER NOT NULL,
        reason TEXT
      ) WITHOUT ROWID;
      CREATE INDEX IF NOT EXISTS urls_pending ON urls (state, enqueued_at) WHERE state < 2;
    `);
    if (!hasColumn(sql, 'urls', 'kind')) sql.exec("ALTER TABLE urls ADD COLUMN kind TEXT NOT NULL DEFAULT 'page'");
  },
  // 2: a URL costs two rows written (offered, then finished): no index (each entry was one more row written on
  // every change of state), leases in memory, and the counters one JSON row (meta 'counts') written once per call.
  (sql) => {
    sql.exec('DROP INDEX IF EXISTS urls_pending');
    const counters = Object.fromEntries(
      sql
        .exec<{ name: string; n: number }>('SELECT name, n FROM counters')
        .toArray()
        .map((r) => [r.name, r.n]),
    );
    const counts: StoredCounts = {
      counters: { discovered: 0, fetched: 0, stored: 0, failed: 0, skipped: 0, pending: 0, ...counters },
      usage: emptyUsage(),
    };
    sql.exec("INSERT OR REPLACE INTO meta (k, v) VALUES ('counts', ?)", JSON.stringify(counts));
    sql.exec('DROP TABLE counters');
  },
];

/** A URL handed to a consumer: until when, and the attempt it is. */
interface Lease {
  until: number;
  attempts: number;
}

/**
 * One per crawl (addressed by crawl id): the atomic seen-set and the crawl's frontier state.
 * A Durable Object runs one call at a time, and each method below does its SQLite work
 * synchronously, so "is this URL new?" and "mark it seen" can never interleave between consumers.
 *
 * Rows written are what a crawl pays for (SQLite rows written are billed), so a URL costs two: its insert when
 * offered and its update when it ends. Claims live in memory (`leases`): lost with the object, a claim only lets a
 * duplicate delivery fetch the URL again. Counters, usage and the activity stamp are kept in memory and the counters
 * written as one row at the end of each call that changed them. The object's storage exists only once the crawl has
 * started: a call for an unknown (or purged) crawl answers "no such crawl" and writes nothing.
 */
export class CrawlCoordinator extends DurableObject<Env> {
  private readonly sql: SqlStorage;
  private readonly settings: Settings;
  /** The crawl's config never changes once set; parsed once per instance. */
  private cachedConfig: CrawlConfig | null = null;
  private exists: boolean;
  private counts: StoredCounts = { counters: { discovered: 0, fetched: 0, stored: 0, failed: 0, skipped: 0, pending: 0 }, usage: emptyUsage() };
  private dirty = false;
  private statusValue: CrawlStatus = 'running';
  /** Last claim or completion; the sweeper treats a crawl quiet for STALL_AFTER_MS as stalled. */
  private activeAt = Date.now();
  /** When the backstop last scanned: never, for a fresh instance (its leases, if any, were lost with the last one). */
  private backstopAt = 0;
  /** URLs handed out and not finished (see Lease). Visible to tests, which expire them. */
  readonly leases = new Map<string, Lease>();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.settings = readSettings(env);
    this.exists = this.sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'").toArray().length > 0;
    if (this.exists) this.load();
  }

  private load(): void {
    migrateSchema(this.sql, SCHEMA);
    const raw = this.meta('counts');
    if (raw !== null) this.counts = countsSchema.parse(JSON.parse(raw));
    const status = this.meta('status');
    this.statusValue = status === 'completed' || status === 'cancelled' ? status : 'running';
  }

  // ---- RPC ----

  /** Starts the crawl with its seeds (idempotent). Returns the entries to enqueue. */
  async start(crawlId: string, config: CrawlConfig): Promise<FrontierEntry[]> {
    if (!this.exists) {
      this.load();
      this.exists = true;
    }
    if (this.meta('id') !== null) return [];
    this.setMeta('id', crawlId);
    this.setMeta('config', JSON.stringify(config));
    this.setStatus('running');
    this.request();
    const accepted = this.offer(config.seeds.map((url) => ({ url, depth: 0, hops: 0 })));
    this.finishIfDone();
    this.save();
    await this.ctx.storage.setAlarm(Date.now() + this.settings.sweepIntervalMs);
    return accepted;
  }

  /**
   * Reserves URLs for fetching: one call for a whole queue batch. A URL is handed out when it is queued and not
   * leased to another consumer (or its lease expired); otherwise (already done, taken, unknown, or the crawl is no
   * longer running) its slot is null and the message is to be acked without fetching. Writes nothing.
   */
  claim(urls: string[]): { status: CrawlStatus; config: CrawlConfig | null; claims: (Claim | null)[] } {
    const status = this.status();
    const config = this.config();
    if (status !== 'running' || config === null) return { status, config, claims: urls.map(() => null) };
    const now = Date.now();
    this.activeAt = now;
    this.request();
    const rows = this.urlRows<{ url: string; depth: number; hops: number; kind: TaskKind; state: number; attempts: number }>(
      'url, depth, hops, kind, state, attempts',
      urls,
    );
    const claims = urls.map((url): Claim | null => {
      const lease = this.leases.get(url);
      const row = rows.get(url);
      if ((lease && lease.until > now) || !row || row.state > State.Inflight) return null;
      const attempts = Math.max(row.attempts, lease?.attempts ?? 0) + 1;
      this.leases.set(url, { until: now + LEASE_MS, attempts });
      return { depth: row.depth, hops: row.hops, kind: row.kind, attempts };
    });
    this.save();
    return { status, config, claims };
  }

  /**
   * Records what became of claimed URLs and offers the links they found, all in one call.
   * Outcomes for URLs already final (a duplicate delivery finishing late) are ignored.
   * Returns the links newly accepted, to be enqueued by the caller.
   */
  complete(outcomes: Outcome[]): { accepted: FrontierEntry[]; failed: string[]; status: CrawlStatus } {
    const failed: string[] = [];
    if (!this.exists) return { accepted: [], failed, status: 'cancelled' };
    this.activeAt = Date.now();
    this.request();
    const pending = this.urlRows<{ url: string; state: number }>(
      'url, state',
      outcomes.map((o) => o.url),
    );
    // Final outcomes are written a statement per state and reason (a chunk is mostly 'stored', no reason).
    const finals = new Map<string, { state: State; reason: string | null; urls: string[] }>();
    const links: FrontierEntry[] = [];
    for (const outcome of outcomes) {
      const row = pending.get(outcome.url);
      if (!row || row.state > State.Inflight) continue;
      pending.delete(outcome.url);
      this.leases.delete(outcome.url);
      if (outcome.fetched) this.bump('fetched', 1);
      if (outcome.kind === 'retry' || outcome.kind === 'throttled') {
        this.requeued(outcome);
        continue;
      }
      const reason = reasonOf(outcome);
      const group = `${outcome.kind}\n${reason ?? ''}`;
      const final = finals.get(group) ?? { state: FINAL_STATE[outcome.kind], reason, urls: [] };
      final.urls.push(outcome.url);
      finals.set(group, final);
      this.bump(outcome.kind, 1);
      this.bump('pending', -1);
      if (outcome.kind === 'failed') failed.push(outcome.url);
      if (outcome.links) links.push(...outcome.links);
    }
    for (const { state, reason, urls } of finals.values()) {
      this.rows('UPDATE urls SET state = ?, reason = ? WHERE url IN (SELECT value FROM json_each(?))', state, reason, JSON.stringify(urls));
    }
    const accepted = this.status() === 'running' ? this.offer(links) : [];
    this.finishIfDone();
    this.save();
    return { accepted, failed, status: this.status() };
  }

  /** The seen-set's rows of `urls` (those it has), by URL: one statement. */
  private urlRows<T extends { url: string; [column: string]: SqlStorageValue }>(columns: string, urls: readonly string[]): Map<string, T> {
    const rows = this.rows<T>(`SELECT ${columns} FROM urls WHERE url IN (SELECT value FROM json_each(?))`, JSON.stringify(urls));
    return new Map(rows.map((row) => [row.url, row]));
  }

  /**
   * A retried URL counts its attempt; a throttled one does not (waiting for a host must not use up retries).
   * enqueued_at is when its message is due back, so the sweeper does not mistake a delayed message for a lost one.
   */
  private requeued(outcome: Extract<Outcome, { kind: 'retry' | 'throttled' }>): void {
    this.rows(
      'UPDATE urls SET state = ?, enqueued_at = ?, reason = ?, attempts = attempts + ? WHERE url = ?',
      State.Queued,
      Date.now() + (outcome.retryDelaySeconds ?? 0) * 1000,
      outcome.reason ?? null,
      outcome.kind === 'retry' ? 1 : 0,
      outcome.url,
    );
  }

  /**
   * Marks pending URLs failed for good (their messages were dead-lettered). URLs already final are
   * left as they are. Returns the URLs that were changed, with the attempts they had.
   */
  abandon(entries: { url: string; reason: string }[]): { url: string; attempts: number }[] {
    const changed: { url: string; attempts: number }[] = [];
    if (!this.exists) return changed;
    this.request();
    for (const { url, reason } of entries) {
      const row = this.rows<{ state: number; attempts: number }>('SELECT state, attempts FROM urls WHERE url = ?', url)[0];
      if (!row || row.state > State.Inflight) continue;
      this.rows('UPDATE urls SET state = ?, reason = ? WHERE url = ?', State.Failed, reason, url);
      this.bump('failed', 1);
      this.bump('pending', -1);
      changed.push({ url, attempts: Math.max(row.attempts, this.leases.get(url)?.attempts ?? 0) });
      this.leases.delete(url);
    }
    this.finishIfDone();
    this.save();
    return changed;
  }

  /** Offers candidate URLs directly (deduplicated; used for seeds and by tests of the seen-set). */
  offerUrls(entries: FrontierEntry[]): FrontierEntry[] {
    if (this.status() !== 'running' || !this.exists) return [];
    const accepted = this.offer(entries);
    this.save();
    return accepted;
  }

  /** Adds what a consumer counted of the crawl's operations (see UsageMeter); one row written per call at most. */
  recordUsage(usage: Usage): void {
    if (!this.exists || this.meta('id') === null) return;
    this.request();
    addUsage(this.counts.usage, usage);
    this.dirty = true;
    this.save();
  }

  /** The crawl's counted operations and pages fetched, or null for no such crawl. */
  usage(): { fetched: number; usage: Usage } | null {
    if (!this.exists || this.meta('id') === null) return null;
    return { fetched: this.counts.counters.fetched, usage: this.counts.usage };
  }

  /** Cancels the crawl: every URL not yet finished becomes skipped; nothing more is handed out. */
  async cancel(): Promise<CrawlSnapshot | null> {
    if (!this.exists || this.meta('id') === null) return null;
    if (this.status() === 'running') {
      this.request();
      const skipped = this.rows('UPDATE urls SET state = ?, reason = ? WHERE state <= ? RETURNING url', State.Skipped, 'cancelled', State.Inflight).length;
      this.leases.clear();
      this.bump('skipped', skipped);
      this.bump('pending', -skipped);
      this.setStatus('cancelled');
      this.save();
      await this.syncStatus();
    }
    return this.snapshot();
  }

  /** Deletes everything the object stored (the crawl's data is being purged); afterwards it knows no such crawl. */
  async purge(): Promise<void> {
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
    this.exists = false;
    this.cachedConfig = null;
    this.leases.clear();
    this.counts = { counters: { discovered: 0, fetched: 0, stored: 0, failed: 0, skipped: 0, pending: 0 }, usage: emptyUsage() };
    this.dirty = false;
    this.statusValue = 'running';
  }

  snapshot(): CrawlSnapshot | null {
    const id = this.exists ? this.meta('id') : null;
    if (id === null) return null;
    const c = this.counts.counters;
    return {
      id,
      status: this.status(),
      counts: { discovered: c.discovered, fetched: c.fetched, stored: c.stored, failed: c.failed, skipped: c.skipped },
      pending: c.pending,
    };
  }

  /**
   * Puts failed URLs back in the frontier (attempts start again) and reopens a completed crawl.
   * At most `limit` per call; returns them for enqueueing, and how many failed ones remain.
   */
  async retryFailed(limit: number, urls?: readonly string[]): Promise<{ entries: FrontierEntry[]; remaining: number; status: CrawlStatus } | null> {
    if (!this.exists || this.meta('id') === null) return null;
    if (this.status() === 'cancelled') return { entries: [], remaining: 0, status: 'cancelled' };
    this.request();
    const now = Date.now();
    const requeue = (where: string, ...args: (string | number)[]) =>
      this.rows<{ url: string; depth: number; hops: number; kind: TaskKind }>(
        `UPDATE urls SET state = ?, attempts = 0, lease_until = NULL, enqueued_at = ?, reason = NULL WHERE ${where} RETURNING url, depth, hops, kind`,
        State.Queued,
        now,
        ...args,
      ).map((r) => ({ url: r.url, depth: r.depth, hops: r.hops, kind: r.kind }));
    // Given URLs: those of them that failed (one statement each, so a long list needs no long SQL).
    const entries = urls
      ? urls.slice(0, limit).flatMap((url) => requeue('url = ? AND state = ?', url, State.Failed))
      : requeue('url IN (SELECT url FROM urls WHERE state = ? LIMIT ?)', State.Failed, limit);
    if (entries.length > 0) {
      this.bump('failed', -entries.length);
      this.bump('pending', entries.length);
      this.activeAt = now;
      if (this.status() === 'completed') {
        this.setStatus('running');
        await this.syncStatus();
      }
      await this.ctx.storage.setAlarm(Date.now() + this.settings.sweepIntervalMs);
    }
    this.save();
    const remaining = this.rows<{ n: number }>('SELECT COUNT(*) AS n FROM urls WHERE state = ?', State.Failed)[0]?.n ?? 0;
    return { entries, remaining, status: this.status() };
  }

  /**
   * Sweeps lost work. Queue messages can vanish (a Worker killed mid-batch, a failed send), so:
   * - a URL whose lease expired is handed out again (its consumer died);
   * - when the crawl has stalled (no claim or completion for STALL_AFTER_MS) while URLs are pending,
   *   the URLs queued since before the stall and not leased are sent again;
   * - a URL queued REQUEUE_AFTER_MS past its expected delivery is sent again in any case (checked every
   *   BACKSTOP_EVERY_MS: a scan of the seen-set).
   * Re-sending is safe: the seen-set hands each URL to one consumer, and duplicates are acked.
   */
  override async alarm(): Promise<void> {
    const id = this.exists ? this.meta('id') : null;
    if (id === null) return;
    this.request();
    if (this.meta('synced') !== this.status()) await this.syncStatus();
    if (this.status() !== 'running') return this.save();
    const stale = this.staleUrls(Date.now());
    if (stale.length > 0) {
      const now = Date.now();
      for (const row of stale) this.rows('UPDATE urls SET enqueued_at = ? WHERE url = ?', now, row.url);
      log('warn', 'sweeper re-sent lost URLs', { crawlId: id, count: stale.length });
      const meter = new UsageMeter();
      await enqueueTasks(this.env, id, this.config() ?? {}, stale, undefined, meter);
      addUsage(this.counts.usage, meter.usage);
      this.activeAt = now;
    }
    this.save();
    await this.ctx.storage.setAlarm(Date.now() + this.settings.sweepIntervalMs);
  }

  /** The URLs the sweeper re-sends now (see alarm); expired leases are dropped. */
  private staleUrls(now: number): FrontierEntry[] {
    const expired: string[] = [];
    for (const [url, lease] of this.leases) {
      if (lease.until <= now) {
        this.leases.delete(url);
        expired.push(url);
      }
    }
    type Row = { url: string; depth: number; hops: number; kind: TaskKind; state: number };
    const select = 'SELECT url, depth, hops, kind, state FROM urls';
    const found = expired.flatMap((url) => this.rows<Row>(`${select} WHERE url = ?`, url));
    const stallBefore = now - this.settings.stallAfterMs;
    const stalled = this.activeAt <= stallBefore && this.counts.counters.pending > 0;
    const backstop = now - this.backstopAt >= BACKSTOP_EVERY_MS;
    if (stalled || backstop) {
      if (backstop) this.backstopAt = now;
      const before = stalled ? stallBefore : now - REQUEUE_AFTER_MS;
      found.push(...this.rows<Row>(`${select} WHERE state <= ? AND enqueued_at <= ? LIMIT ?`, State.Inflight, before, SWEEP_LIMIT));
    }
    const seen = new Set<string>();
    return found
      .filter((r) => r.state <= State.Inflight && !this.leases.has(r.url) && !seen.has(r.url) && seen.add(r.url))
      .map((r) => ({ url: r.url, depth: r.depth, hops: r.hops, ...(r.kind === 'sitemap' ? { kind: 'sitemap' as const } : {}) }));
  }

  // ---- internals ----

  /**
   * Inserts the entries the seen-set does not have yet (up to maxPages discovered in all) and returns them, in the
   * order given. One statement for them all; near the cap, one per entry, so the cap is never passed.
   */
  private offer(entries: FrontierEntry[]): FrontierEntry[] {
    const cap = this.config()?.maxPages ?? Number.POSITIVE_INFINITY;
    const room = cap - this.counts.counters.discovered;
    if (entries.length === 0 || room <= 0) return [];
    const insert = 'INSERT INTO urls (url, depth, hops, kind, state, enqueued_at)';
    const conflict = 'ON CONFLICT (url) DO NOTHING RETURNING url';
    const now = Date.now();
    const inserted = new Set<string>();
    if (entries.length <= room) {
      const rows = JSON.stringify(entries.map((e) => [e.url, e.depth, e.hops, e.kind ?? 'page']));
      const sql = `${insert} SELECT value->>0, value->>1, value->>2, value->>3, ?, ? FROM json_each(?) WHERE true ${conflict}`;
      for (const row of this.rows<{ url: string }>(sql, State.Queued, now, rows)) inserted.add(row.url);
    } else {
      for (const e of entries) {
        if (inserted.size >= room) break;
        for (const row of this.rows<{ url: string }>(
          `${insert} VALUES (?, ?, ?, ?, ?, ?) ${conflict}`,
          e.url,
          e.depth,
          e.hops,
          e.kind ?? 'page',
          State.Queued,
          now,
        )) {
          inserted.add(row.url);
        }
      }
    }
    const accepted = entries.filter((e) => inserted.delete(e.url));
    this.bump('discovered', accepted.length);
    this.bump('pending', accepted.length);
    return accepted.map((e) => ({ url: e.url, depth: e.depth, hops: e.hops, ...(e.kind === 'sitemap' ? { kind: 'sitemap' as const } : {}) }));
  }

  private finishIfDone(): void {
    if (this.status() === 'running' && this.counts.counters.pending === 0) {
      this.setStatus('completed');
      this.ctx.waitUntil(this.syncStatus());
    }
  }

  /**
   * Mirrors the status into D1's crawls table and, when the crawl has ended and has a webhook, queues its
   * crawl.completed or crawl.cancelled event (once per ending: a crawl run again by retry-errors ends again).
   * The alarm retries whatever of this failed.
   */
  private async syncStatus(): Promise<void> {
    const id = this.meta('id');
    const status = this.status();
    if (id === null) return;
    const now = Date.now();
    try {
      await setCrawlStatus(this.env.DB, id, status, now);
      const notified = this.meta('notified') ?? 'running';
      if (status !== 'running' && notified !== status) {
        // Marked first, so a sync running beside this one (the alarm) does not send the event as well.
        this.setMeta('notified', status);
        const event = webhookEvent(
          status === 'completed' ? 'crawl.completed' : 'crawl.cancelled',
          id,
          { status, counts: this.snapshot()?.counts, finishedAt: new Date(now).toISOString() },
          now,
        );
        const meter = new UsageMeter();
        if (!(await emitWebhookEvents(this.env.WEBHOOKS, this.config() ?? {}, [event], meter))) {
          this.setMeta('notified', notified);
          throw new Error('webhook event not queued');
        }
        addUsage(this.counts.usage, meter.usage);
      } else this.setMeta('notified', status);
      this.setMeta('synced', status);
      this.save();
    } catch (error) {
      log('error', 'crawl status sync failed (D1, or the webhook event); the alarm retries', { crawlId: id, error: String(error) });
      await this.ctx.storage.setAlarm(Date.now() + 5_000);
    }
  }

  /** Runs a statement and counts the rows it read and wrote into the crawl's usage. */
  private rows<T extends Record<string, SqlStorageValue> = Record<string, SqlStorageValue>>(query: string, ...bindings: unknown[]): T[] {
    const cursor = this.sql.exec<T>(query, ...bindings);
    const rows = cursor.toArray();
    this.counts.usage.operations.durableObjectRowsRead += cursor.rowsRead;
    this.counts.usage.operations.durableObjectRowsWritten += cursor.rowsWritten;
    if (cursor.rowsWritten > 0) this.dirty = true;
    return rows;
  }

  /** A call served for the crawl's work (API reads of its state are not counted). */
  private request(): void {
    this.counts.usage.operations.durableObjectRequests += 1;
    this.dirty = true;
  }

  private bump(name: CounterName, by: number): void {
    if (by === 0) return;
    this.counts.counters[name] += by;
    this.dirty = true;
  }

  /** Writes the counters (and usage) as one row, when this call changed them. */
  private save(): void {
    if (!this.dirty || !this.exists) return;
    this.rows("INSERT INTO meta (k, v) VALUES ('counts', ?) ON CONFLICT (k) DO UPDATE SET v = excluded.v", JSON.stringify(this.counts));
    // Its own row is counted in the next save.
    this.dirty = false;
  }

  private status(): CrawlStatus {
    return this.statusValue;
  }

  private setStatus(status: CrawlStatus): void {
    this.statusValue = status;
    this.setMeta('status', status);
  }

  private config(): CrawlConfig | null {
    if (this.cachedConfig === null && this.exists) {
      const raw = this.meta('config');
      if (raw !== null) this.cachedConfig = parseStoredConfig(raw, `crawl ${this.meta('id') ?? '?'}`);
    }
    return this.cachedConfig;
  }

  private meta(key: string): string | null {
    return this.rows<{ v: string }>('SELECT v FROM meta WHERE k = ?', key)[0]?.v ?? null;
  }

  private setMeta(key: string, value: string): void {
    this.rows('INSERT INTO meta (k, v) VALUES (?, ?) ON CONFLICT (k) DO UPDATE SET v = excluded.v', key, value);
  }
}
