import { DurableObject } from 'cloudflare:workers';
import { parseStoredConfig } from '../crawl-config';
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

/** URL states in the seen-set. QUEUED and INFLIGHT are pending; the rest are final. */
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
const SWEEP_LIMIT = 1000;

type CounterName = keyof Counts | 'pending';

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
];

/**
 * One per crawl (addressed by crawl id): the atomic seen-set and the crawl's frontier state.
 * A Durable Object runs one call at a time, and each method below does its SQLite work
 * synchronously, so "is this URL new?" and "mark it seen" can never interleave between consumers.
 */
export class CrawlCoordinator extends DurableObject<Env> {
  private readonly sql: SqlStorage;
  private readonly settings: Settings;
  /** The crawl's config never changes once set; parsed once per instance. */
  private cachedConfig: CrawlConfig | null = null;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.settings = readSettings(env);
    migrateSchema(this.sql, SCHEMA);
  }

  // ---- RPC ----

  /** Starts the crawl with its seeds (idempotent). Returns the entries to enqueue. */
  async start(crawlId: string, config: CrawlConfig): Promise<FrontierEntry[]> {
    if (this.meta('id') !== null) return [];
    this.setMeta('id', crawlId);
    this.setMeta('config', JSON.stringify(config));
    this.setMeta('status', 'running');
    for (const name of ['discovered', 'fetched', 'stored', 'failed', 'skipped', 'pending'] as const) {
      this.sql.exec('INSERT OR IGNORE INTO counters (name, n) VALUES (?, 0)', name);
    }
    const accepted = this.offer(config.seeds.map((url) => ({ url, depth: 0, hops: 0 })));
    this.finishIfDone();
    this.touch();
    await this.ctx.storage.setAlarm(Date.now() + this.settings.sweepIntervalMs);
    return accepted;
  }

  /**
   * Reserves URLs for fetching: one call for a whole queue batch. A URL is handed out when it is
   * queued, or in flight with an expired lease; otherwise (already done, taken, unknown, or the crawl
   * is no longer running) its slot is null and the message is to be acked without fetching.
   */
  claim(urls: string[]): { status: CrawlStatus; config: CrawlConfig | null; claims: (Claim | null)[] } {
    const status = this.status();
    const config = this.config();
    if (status !== 'running' || config === null) return { status, config, claims: urls.map(() => null) };
    const now = Date.now();
    this.touch();
    const claims = urls.map((url): Claim | null => {
      const row = this.sql
        .exec<{ depth: number; hops: number; kind: TaskKind; state: number; attempts: number; lease_until: number | null }>(
          'SELECT depth, hops, kind, state, attempts, lease_until FROM urls WHERE url = ?',
          url,
        )
        .toArray()[0];
      if (!row) return null;
      const free = row.state === State.Queued || (row.state === State.Inflight && (row.lease_until ?? 0) <= now);
      if (!free) return null;
      this.sql.exec('UPDATE urls SET state = ?, attempts = attempts + 1, lease_until = ? WHERE url = ?', State.Inflight, now + LEASE_MS, url);
      return { depth: row.depth, hops: row.hops, kind: row.kind, attempts: row.attempts + 1 };
    });
    return { status, config, claims };
  }

  /**
   * Records what became of claimed URLs and offers the links they found, all in one call.
   * Outcomes for URLs that are not in flight (a duplicate delivery finishing late) are ignored.
   * Returns the links newly accepted, to be enqueued by the caller.
   */
  complete(outcomes: Outcome[]): { accepted: FrontierEntry[]; failed: string[]; status: CrawlStatus } {
    const accepted: FrontierEntry[] = [];
    const failed: string[] = [];
    const now = Date.now();
    this.touch();
    for (const outcome of outcomes) {
      const row = this.sql.exec<{ state: number }>('SELECT state FROM urls WHERE url = ?', outcome.url).toArray()[0];
      if (!row || row.state !== State.Inflight) continue;
      if (outcome.fetched) this.bump('fetched', 1);
      if (outcome.kind === 'retry' || outcome.kind === 'throttled') {
        // A throttled URL gives back the attempt its claim counted. enqueued_at is when its message is
        // due back, so the sweeper does not mistake a delayed message for a lost one.
        this.sql.exec(
          'UPDATE urls SET state = ?, lease_until = NULL, enqueued_at = ?, reason = ?, attempts = attempts - ? WHERE url = ?',
          State.Queued,
          now + (outcome.retryDelaySeconds ?? 0) * 1000,
          outcome.reason ?? null,
          outcome.kind === 'throttled' ? 1 : 0,
          outcome.url,
        );
        continue;
      }
      this.sql.exec('UPDATE urls SET state = ?, lease_until = NULL, reason = ? WHERE url = ?', FINAL_STATE[outcome.kind], reasonOf(outcome), outcome.url);
      this.bump(outcome.kind, 1);
      this.bump('pending', -1);
      if (outcome.kind === 'failed') failed.push(outcome.url);
      if (outcome.links && this.status() === 'running') accepted.push(...this.offer(outcome.links));
    }
    this.finishIfDone();
    return { accepted, failed, status: this.status() };
  }

  /**
   * Marks pending URLs failed for good (their messages were dead-lettered). URLs already final are
   * left as they are. Returns the URLs that were changed, with the attempts they had.
   */
  abandon(entries: { url: string; reason: string }[]): { url: string; attempts: number }[] {
    const changed: { url: string; attempts: number }[] = [];
    for (const { url, reason } of entries) {
      const row = this.sql.exec<{ state: number; attempts: number }>('SELECT state, attempts FROM urls WHERE url = ?', url).toArray()[0];
      if (!row || (row.state !== State.Queued && row.state !== State.Inflight)) continue;
      this.sql.exec('UPDATE urls SET state = ?, lease_until = NULL, reason = ? WHERE url = ?', State.Failed, reason, url);
      this.bump('failed', 1);
      this.bump('pending', -1);
      changed.push({ url, attempts: row.attempts });
    }
    this.finishIfDone();
    return changed;
  }

  /** Offers candidate URLs directly (deduplicated; used for seeds and by tests of the seen-set). */
  offerUrls(entries: FrontierEntry[]): FrontierEntry[] {
    return this.status() === 'running' ? this.offer(entries) : [];
  }

  /** Cancels the crawl: queued URLs become skipped; nothing more is handed out. */
  async cancel(): Promise<CrawlSnapshot | null> {
    if (this.meta('id') === null) return null;
    if (this.status() === 'running') {
      const skipped = this.sql
        .exec('UPDATE urls SET state = ?, reason = ? WHERE state = ? RETURNING url', State.Skipped, 'cancelled', State.Queued)
        .toArray().length;
      this.bump('skipped', skipped);
      this.bump('pending', -skipped);
      this.setMeta('status', 'cancelled');
      await this.syncStatus();
    }
    return this.snapshot();
  }

  snapshot(): CrawlSnapshot | null {
    const id = this.meta('id');
    if (id === null) return null;
    const c = this.counters();
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
    const id = this.meta('id');
    if (id === null) return null;
    if (this.status() === 'cancelled') return { entries: [], remaining: 0, status: 'cancelled' };
    const now = Date.now();
    const requeue = (where: string, ...args: (string | number)[]) =>
      this.sql
        .exec<{ url: string; depth: number; hops: number; kind: TaskKind }>(
          `UPDATE urls SET state = ?, attempts = 0, lease_until = NULL, enqueued_at = ?, reason = NULL WHERE ${where} RETURNING url, depth, hops, kind`,
          State.Queued,
          now,
          ...args,
        )
        .toArray()
        .map((r) => ({ url: r.url, depth: r.depth, hops: r.hops, kind: r.kind }));
    // Given URLs: those of them that failed (one statement each, so a long list needs no long SQL).
    const entries = urls
      ? urls.slice(0, limit).flatMap((url) => requeue('url = ? AND state = ?', url, State.Failed))
      : requeue('url IN (SELECT url FROM urls WHERE state = ? LIMIT ?)', State.Failed, limit);
    if (entries.length > 0) {
      this.bump('failed', -entries.length);
      this.bump('pending', entries.length);
      this.touch();
      if (this.status() === 'completed') {
        this.setMeta('status', 'running');
        await this.syncStatus();
      }
      await this.ctx.storage.setAlarm(Date.now() + this.settings.sweepIntervalMs);
    }
    const remaining = this.sql.exec<{ n: number }>('SELECT COUNT(*) AS n FROM urls WHERE state = ?', State.Failed).one().n;
    return { entries, remaining, status: this.status() };
  }

  /**
   * Sweeps lost work. Queue messages can vanish (a Worker killed mid-batch, a failed send), so:
   * - a URL in flight whose lease expired is handed out again (its consumer died);
   * - when the crawl has stalled (no claim or completion for STALL_AFTER_MS) while URLs are pending,
   *   the URLs queued since before the stall and the ones in flight are sent again;
   * - a URL queued REQUEUE_AFTER_MS past its expected delivery is sent again in any case.
   * Re-sending is safe: the seen-set hands each URL to one consumer, and duplicates are acked.
   */
  override async alarm(): Promise<void> {
    const id = this.meta('id');
    if (id === null) return;
    if (this.meta('synced') !== this.status()) await this.syncStatus();
    if (this.status() !== 'running') return;
    const now = Date.now();
    const stallBefore = now - this.settings.stallAfterMs;
    const stalled = Number(this.meta('active_at') ?? 0) <= stallBefore;
    const stale = this.sql
      .exec<{ url: string; depth: number; hops: number; kind: TaskKind }>(
        `SELECT url, depth, hops, kind FROM urls
         WHERE (state = ? AND (enqueued_at <= ? OR (? AND enqueued_at <= ?)))
            OR (state = ? AND (lease_until <= ? OR ?))
         LIMIT ?`,
        State.Queued,
        now - REQUEUE_AFTER_MS,
        stalled ? 1 : 0,
        stallBefore,
        State.Inflight,
        now,
        stalled ? 1 : 0,
        SWEEP_LIMIT,
      )
      .toArray();
    if (stale.length > 0) {
      for (const row of stale) {
        this.sql.exec('UPDATE urls SET state = ?, lease_until = NULL, enqueued_at = ? WHERE url = ?', State.Queued, now, row.url);
      }
      log('warn', 'sweeper re-sent lost URLs', { crawlId: id, count: stale.length, stalled });
      await enqueueTasks(this.env, id, this.config() ?? {}, stale);
      this.touch();
    }
    await this.ctx.storage.setAlarm(Date.now() + this.settings.sweepIntervalMs);
  }

  // ---- internals ----

  private offer(entries: FrontierEntry[]): FrontierEntry[] {
    const config = this.config();
    const cap = config?.maxPages ?? Number.POSITIVE_INFINITY;
    let discovered = this.counters().discovered;
    const accepted: FrontierEntry[] = [];
    const now = Date.now();
    for (const entry of entries) {
      if (discovered >= cap) break;
      const inserted = this.sql
        .exec(
          'INSERT INTO urls (url, depth, hops, kind, state, enqueued_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (url) DO NOTHING RETURNING url',
          entry.url,
          entry.depth,
          entry.hops,
          entry.kind ?? 'page',
          State.Queued,
          now,
        )
        .toArray().length;
      if (inserted === 1) {
        discovered += 1;
        accepted.push({ url: entry.url, depth: entry.depth, hops: entry.hops, ...(entry.kind === 'sitemap' ? { kind: 'sitemap' as const } : {}) });
      }
    }
    this.bump('discovered', accepted.length);
    this.bump('pending', accepted.length);
    return accepted;
  }

  /** Records activity: the sweeper only treats a quiet crawl as stalled. */
  private touch(): void {
    this.setMeta('active_at', String(Date.now()));
  }

  private finishIfDone(): void {
    if (this.status() === 'running' && this.counters().pending === 0) {
      this.setMeta('status', 'completed');
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
        if (!(await emitWebhookEvents(this.env.WEBHOOKS, this.config() ?? {}, [event]))) {
          this.setMeta('notified', notified);
          throw new Error('webhook event not queued');
        }
      } else this.setMeta('notified', status);
      this.setMeta('synced', status);
    } catch (error) {
      log('error', 'crawl status sync failed (D1, or the webhook event); the alarm retries', { crawlId: id, error: String(error) });
      await this.ctx.storage.setAlarm(Date.now() + 5_000);
    }
  }

  private counters(): Record<CounterName, number> {
    const out: Record<CounterName, number> = { discovered: 0, fetched: 0, stored: 0, failed: 0, skipped: 0, pending: 0 };
    for (const row of this.sql.exec<{ name: CounterName; n: number }>('SELECT name, n FROM counters')) out[row.name] = row.n;
    return out;
  }

  private bump(name: CounterName, by: number): void {
    if (by !== 0) this.sql.exec('UPDATE counters SET n = n + ? WHERE name = ?', by, name);
  }

  private status(): CrawlStatus {
    const status = this.meta('status');
    return status === 'completed' || status === 'cancelled' ? status : 'running';
  }

  private config(): CrawlConfig | null {
    if (this.cachedConfig === null) {
      const raw = this.meta('config');
      if (raw !== null) this.cachedConfig = parseStoredConfig(raw, `crawl ${this.meta('id') ?? '?'}`);
    }
    return this.cachedConfig;
  }

  private meta(key: string): string | null {
    return this.sql.exec<{ v: string }>('SELECT v FROM meta WHERE k = ?', key).toArray()[0]?.v ?? null;
  }

  private setMeta(key: string, value: string): void {
    this.sql.exec('INSERT INTO meta (k, v) VALUES (?, ?) ON CONFLICT (k) DO UPDATE SET v = excluded.v', key, value);
  }
}
