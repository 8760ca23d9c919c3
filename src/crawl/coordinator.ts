import { DurableObject } from 'cloudflare:workers';
import { enqueueTasks } from './enqueue';
import type { Claim, Counts, CrawlConfig, CrawlSnapshot, CrawlStatus, FrontierEntry, Outcome } from './types';

/** URL states in the seen-set. QUEUED and INFLIGHT are pending; the rest are final. */
const enum State {
  Queued = 0,
  Inflight = 1,
  Stored = 2,
  Failed = 3,
  Skipped = 4,
}

const FINAL_STATE = { stored: State.Stored, failed: State.Failed, skipped: State.Skipped } as const;

/** How long a claimed URL stays reserved for its consumer before the sweeper may hand it out again. */
export const LEASE_MS = 3 * 60_000;
/** A URL queued this long without being claimed has its message re-sent (messages can be lost). */
export const REQUEUE_AFTER_MS = 10 * 60_000;
const SWEEP_EVERY_MS = 30_000;
const SWEEP_LIMIT = 1000;

type CounterName = keyof Counts | 'pending';

/**
 * One per crawl (addressed by crawl id): the atomic seen-set and the crawl's frontier state.
 * A Durable Object runs one call at a time, and each method below does its SQLite work
 * synchronously, so "is this URL new?" and "mark it seen" can never interleave between consumers.
 */
export class CrawlCoordinator extends DurableObject<Env> {
  private readonly sql: SqlStorage;
  /** The crawl's config never changes once set; parsed once per instance. */
  private cachedConfig: CrawlConfig | null = null;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.sql.exec(`
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
    await this.ctx.storage.setAlarm(Date.now() + SWEEP_EVERY_MS);
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
    const claims = urls.map((url): Claim | null => {
      const row = this.sql
        .exec<{ depth: number; hops: number; state: number; attempts: number; lease_until: number | null }>(
          'SELECT depth, hops, state, attempts, lease_until FROM urls WHERE url = ?',
          url,
        )
        .toArray()[0];
      if (!row) return null;
      const free = row.state === State.Queued || (row.state === State.Inflight && (row.lease_until ?? 0) <= now);
      if (!free) return null;
      this.sql.exec('UPDATE urls SET state = ?, attempts = attempts + 1, lease_until = ? WHERE url = ?', State.Inflight, now + LEASE_MS, url);
      return { depth: row.depth, hops: row.hops, attempts: row.attempts + 1 };
    });
    return { status, config, claims };
  }

  /**
   * Records what became of claimed URLs and offers the links they found, all in one call.
   * Outcomes for URLs that are not in flight (a duplicate delivery finishing late) are ignored.
   * Returns the links newly accepted, to be enqueued by the caller.
   */
  complete(outcomes: Outcome[]): { accepted: FrontierEntry[]; status: CrawlStatus } {
    const accepted: FrontierEntry[] = [];
    const now = Date.now();
    for (const outcome of outcomes) {
      const row = this.sql.exec<{ state: number }>('SELECT state FROM urls WHERE url = ?', outcome.url).toArray()[0];
      if (!row || row.state !== State.Inflight) continue;
      if (outcome.fetched) this.bump('fetched', 1);
      if (outcome.kind === 'retry' || outcome.kind === 'throttled') {
        // A throttled URL gives back the attempt its claim counted.
        this.sql.exec(
          'UPDATE urls SET state = ?, lease_until = NULL, enqueued_at = ?, reason = ?, attempts = attempts - ? WHERE url = ?',
          State.Queued,
          now,
          outcome.reason ?? null,
          outcome.kind === 'throttled' ? 1 : 0,
          outcome.url,
        );
        continue;
      }
      this.sql.exec('UPDATE urls SET state = ?, lease_until = NULL, reason = ? WHERE url = ?', FINAL_STATE[outcome.kind], outcome.reason ?? null, outcome.url);
      this.bump(outcome.kind, 1);
      this.bump('pending', -1);
      if (outcome.links && this.status() === 'running') accepted.push(...this.offer(outcome.links));
    }
    this.finishIfDone();
    return { accepted, status: this.status() };
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

  /** Sweeps lost work: re-sends queued URLs not claimed for a while and URLs whose lease expired. */
  override async alarm(): Promise<void> {
    const id = this.meta('id');
    if (id === null) return;
    if (this.meta('synced') !== this.status()) await this.syncStatus();
    if (this.status() !== 'running') return;
    const now = Date.now();
    const stale = this.sql
      .exec<{ url: string; depth: number; hops: number }>(
        `SELECT url, depth, hops FROM urls
         WHERE (state = ? AND enqueued_at <= ?) OR (state = ? AND lease_until <= ?)
         LIMIT ?`,
        State.Queued,
        now - REQUEUE_AFTER_MS,
        State.Inflight,
        now,
        SWEEP_LIMIT,
      )
      .toArray();
    if (stale.length > 0) {
      for (const row of stale) {
        this.sql.exec('UPDATE urls SET state = ?, lease_until = NULL, enqueued_at = ? WHERE url = ?', State.Queued, now, row.url);
      }
      await enqueueTasks(this.env.FRONTIER, id, stale);
    }
    await this.ctx.storage.setAlarm(Date.now() + SWEEP_EVERY_MS);
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
          'INSERT INTO urls (url, depth, hops, state, enqueued_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (url) DO NOTHING RETURNING url',
          entry.url,
          entry.depth,
          entry.hops,
          State.Queued,
          now,
        )
        .toArray().length;
      if (inserted === 1) {
        discovered += 1;
        accepted.push({ url: entry.url, depth: entry.depth, hops: entry.hops });
      }
    }
    this.bump('discovered', accepted.length);
    this.bump('pending', accepted.length);
    return accepted;
  }

  private finishIfDone(): void {
    if (this.status() === 'running' && this.counters().pending === 0) {
      this.setMeta('status', 'completed');
      this.ctx.waitUntil(this.syncStatus());
    }
  }

  /** Mirrors the status into D1's crawls table; the alarm retries if this fails. */
  private async syncStatus(): Promise<void> {
    const id = this.meta('id');
    const status = this.status();
    if (id === null) return;
    const now = Date.now();
    try {
      await this.env.DB.prepare('UPDATE crawls SET status = ?, updated_at = ?, finished_at = ? WHERE id = ?')
        .bind(status, now, status === 'running' ? null : now, id)
        .run();
      this.setMeta('synced', status);
    } catch (error) {
      console.error(JSON.stringify({ msg: 'crawl status sync to D1 failed', crawlId: id, error: String(error) }));
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
    return (this.meta('status') as CrawlStatus | null) ?? 'running';
  }

  private config(): CrawlConfig | null {
    if (this.cachedConfig === null) {
      const raw = this.meta('config');
      if (raw !== null) this.cachedConfig = JSON.parse(raw) as CrawlConfig;
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
