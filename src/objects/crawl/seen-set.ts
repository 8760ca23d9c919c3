import type { OutcomeCode } from '../../domain/crawl/outcome-codes';
import { FINAL_STATE, type FinalKind, type FrontierEntry, type TaskKind, UrlState } from '../../domain/crawl/url-life';
import type { SchemaStep } from '../sqlite-schema';
import type { Ledger } from './ledger';
import { type LogPending, SeenLog } from './seen-log';

/** The crawl's SQLite schema, step by step (see migrateSchema). */
export const SCHEMA: SchemaStep[] = [
  // 1: the crawl's settings and counts (meta), and the seen-set: one row per URL, written twice (offered, finished).
  // No index: each entry would be one more row written on every change of state. enqueued_at: when the URL's
  // message is due (a delayed retry's is in the future), which is what the sweeper measures loss from.
  `CREATE TABLE IF NOT EXISTS meta (k TEXT PRIMARY KEY, v TEXT NOT NULL);
   CREATE TABLE IF NOT EXISTS urls (
     url TEXT PRIMARY KEY,
     depth INTEGER NOT NULL,
     hops INTEGER NOT NULL,
     kind TEXT NOT NULL DEFAULT 'page',
     state INTEGER NOT NULL,
     attempts INTEGER NOT NULL DEFAULT 0,
     enqueued_at INTEGER NOT NULL,
     reason TEXT
   ) WITHOUT ROWID;`,
  // 2: a throttled URL keeps the slot its host reserved for it (epoch ms), handed back with its next claim.
  'ALTER TABLE urls ADD COLUMN reserved_at INTEGER',
  // 3: the first URL of each content key (domain/crawl/duplicates.ts), a row each: since step 5, only the keys past the
  // in-memory index's capacity (objects/crawl/content-claims.ts), and those of crawls started before it.
  'CREATE TABLE IF NOT EXISTS contents (hash TEXT PRIMARY KEY, url TEXT NOT NULL) WITHOUT ROWID',
  // 4: each duplicate of a canonical under its canonical (one row per such duplicate), to give it back if that fails.
  'CREATE TABLE IF NOT EXISTS canonicals (target TEXT NOT NULL, url TEXT NOT NULL, PRIMARY KEY (target, url)) WITHOUT ROWID',
  // 5: the content keys each deduplication call claimed, with their URLs (JSON pairs): one row per call, not per key.
  'CREATE TABLE IF NOT EXISTS claims (seq INTEGER PRIMARY KEY, pairs TEXT NOT NULL)',
  // 6: learned selectors (extract.json.learnSelectors), a row per page template: its state, the sample pages the
  // model read (JSON: [{url, json}]), and the fields it wrote once they agreed with its answers (objects/crawl/model-work.ts).
  `CREATE TABLE IF NOT EXISTS templates (
     template TEXT PRIMARY KEY,
     state TEXT NOT NULL,
     samples TEXT NOT NULL DEFAULT '[]',
     fields TEXT,
     why TEXT,
     updated_at INTEGER NOT NULL
   ) WITHOUT ROWID`,
  // 7: why a URL ended failed or skipped, as its outcome code (domain/crawl/outcome-codes.ts): what the crawl's reach
  // reads (never the reason's words). LEGACY, once: URLs ended before codes were kept get theirs from their reason, as
  // the crawler wrote reasons up to this step (migrations/0013 does the same for D1); the only place a code is read
  // from words.
  `ALTER TABLE urls ADD COLUMN code TEXT;
   UPDATE urls SET code = CASE
     WHEN reason = 'blocked by robots.txt' THEN 'robots_disallowed'
     WHEN reason LIKE 'blocked:%' THEN 'private_address'
     WHEN reason LIKE 'robots.txt%' THEN 'robots_unreachable'
     WHEN reason IN ('http 408', 'http 429') THEN 'rate_limited'
     WHEN reason = 'http 401' THEN 'auth_required'
     WHEN reason LIKE 'credentials refused%' THEN 'credentials_refused'
     WHEN reason LIKE 'login page:%' THEN 'login_redirect'
     WHEN reason LIKE 'http % without Location' THEN 'redirect_without_location'
     WHEN reason LIKE 'http 4%' THEN 'http_4xx'
     WHEN reason LIKE 'http 5%' THEN 'http_5xx'
     WHEN reason LIKE 'redirect to a non-http(s) URL%' THEN 'redirect_invalid'
     WHEN reason LIKE 'redirect % to %, out of scope' THEN 'redirect_out_of_scope'
     WHEN reason LIKE 'redirect %' THEN 'redirect'
     WHEN reason = 'cancelled' THEN 'cancelled'
     ELSE 'other' END
   WHERE state IN (3, 4) AND code IS NULL;`,
  // 8: a content key whose first URL ended without content (failed, skipped), and the URL that holds it since: a row per
  // such key, rare (objects/crawl/duplicates.ts). Since this step `canonicals` also holds each duplicate by content
  // under the URL it named, so that one that fails gives its duplicates back too.
  'CREATE TABLE IF NOT EXISTS reclaims (hash TEXT PRIMARY KEY, url TEXT NOT NULL) WITHOUT ROWID',
  // 9: the traps the crawl's rules declared (objects/crawl/traps.ts): a row per pattern, parameter or echo, read back
  // when the object wakes; what the rules learn before declaring one is kept in memory.
  'CREATE TABLE IF NOT EXISTS traps (key TEXT PRIMARY KEY, rule TEXT NOT NULL, pattern TEXT NOT NULL) WITHOUT ROWID',
  // 10: the seen-set's rows per call (objects/crawl/seen-log.ts): a URL offered, and one then stored, is an entry of a
  // `log` row written for the call, not a row of its own; a `urls` row takes over a URL anything else befalls, and
  // names the place it was offered at. Crawls started before this step keep their `urls` rows.
  `CREATE TABLE IF NOT EXISTS log (seq INTEGER PRIMARY KEY, ended TEXT NOT NULL, offered TEXT NOT NULL);
   ALTER TABLE urls ADD COLUMN offer_seq INTEGER;
   ALTER TABLE urls ADD COLUMN offer_pos INTEGER;`,
];

export interface UrlRow {
  url: string;
  depth: number;
  hops: number;
  kind: TaskKind;
  state: number;
  attempts: number;
  reserved_at: number | null;
}

const entryOf = (r: FrontierEntry): FrontierEntry => ({
  url: r.url,
  depth: r.depth,
  hops: r.hops,
  ...(r.kind === 'sitemap' ? { kind: 'sitemap' as const } : {}),
});

const ENTRY = 'url, depth, hops, kind';

/**
 * URLs the log's index holds at most (32 MiB of slots: FingerprintIndex): past them, a new URL is a `urls` row of
 * its own from the start, as every URL was before the log, so a crawl's object never holds more.
 */
const LOG_CAPACITY = 3_145_728;

/** What a URL the log holds pending becomes as a `urls` row takes it over. */
interface TakeOver {
  pending: LogPending;
  state: UrlState;
  attempts: number;
  enqueuedAt: number;
  reason: string | null;
  code: OutcomeCode | null;
  reservedAt: number | null;
}

const queuedRow = (p: FrontierEntry): UrlRow => ({
  ...entryOf(p),
  kind: p.kind ?? 'page',
  state: UrlState.Queued,
  attempts: 0,
  reserved_at: null,
});

/**
 * The seen-set: every URL the crawl accepted, with its state. A URL offered, and one then stored, is held by the log
 * (seen-log.ts: a row per call); a `urls` row takes over a URL anything else befalls (retried, failed, skipped, a
 * duplicate), and from then on says what became of it. Each method is one or a few statements, run through the
 * ledger (which counts their rows). A Durable Object runs one call at a time and these run synchronously, so "is this
 * URL new?" and "mark it seen" never interleave between consumers.
 */
export class SeenSet {
  private readonly log: SeenLog;

  constructor(
    private readonly ledger: Ledger,
    private readonly capacity = LOG_CAPACITY,
  ) {
    this.log = new SeenLog(ledger);
  }

  /**
   * Inserts the entries not seen yet, at most `room` pages of them (sitemap files take no room while there is some),
   * and returns those, in the order given: the `urls` rows and the log are asked which are known, and the rest are one
   * `log` row. `plan` gives each new entry the time its message is due (see domain/politeness/spread.ts), kept with it
   * (so the sweeper does not take a delayed message for a lost one) and returned as its `dueAt` when later than now.
   */
  offer(
    entries: readonly FrontierEntry[],
    room: number,
    now: number,
    plan: (fresh: readonly FrontierEntry[]) => number[] = (fresh) => fresh.map(() => now),
  ): FrontierEntry[] {
    if (entries.length === 0 || room <= 0) return [];
    const seen = this.known(entries.map((e) => e.url));
    const fresh: FrontierEntry[] = [];
    let pages = 0;
    for (const e of entries) {
      const page = e.kind !== 'sitemap';
      if (seen.has(e.url) || (page && pages >= room)) continue;
      seen.add(e.url);
      fresh.push(entryOf(e));
      if (page) pages++;
    }
    if (fresh.length === 0) return [];
    const dues = plan(fresh);
    const planned = fresh.map((e, i) => ({ ...e, due: dues[i] ?? now }));
    // A Durable Object runs this call alone and these statements synchronously: every entry found new is written.
    if (this.log.held.urls + planned.length <= this.capacity) this.log.append([], planned);
    else
      this.ledger.exec(
        `INSERT INTO urls (url, depth, hops, kind, state, enqueued_at)
         SELECT value->>0, value->>1, value->>2, value->>3, ?, value->>4 FROM json_each(?) WHERE true
         ON CONFLICT (url) DO NOTHING`,
        UrlState.Queued,
        JSON.stringify(planned.map((e) => [e.url, e.depth, e.hops, e.kind ?? 'page', e.due])),
      );
    return fresh.map((e, i) => {
      const due = dues[i] ?? now;
      return due > now ? { ...e, dueAt: due } : e;
    });
  }

  /** The URLs of `urls` the seen-set has, in any state. */
  private known(urls: readonly string[]): Set<string> {
    const rows = this.ledger.exec<{ url: string }>(
      'SELECT url FROM urls WHERE url IN (SELECT value FROM json_each(?))',
      JSON.stringify(urls),
    );
    const { pending, stored } = this.log.find(urls);
    return new Set([...rows.map((row) => row.url), ...pending.keys(), ...stored.keys()]);
  }

  /**
   * Inserts URLs the seen-set has not had as ended at once (a trap rule's: skipped, with a reason each and one code):
   * one statement. Returns those inserted (a URL already known keeps its state).
   */
  insertEnded(
    kind: FinalKind,
    code: OutcomeCode,
    entries: readonly (FrontierEntry & { reason: string })[],
    now: number,
  ): (FrontierEntry & { reason: string })[] {
    if (entries.length === 0) return [];
    const { pending, stored } = this.log.find(entries.map((e) => e.url));
    const unknown = entries.filter((e) => !pending.has(e.url) && !stored.has(e.url));
    if (unknown.length === 0) return [];
    const rows = JSON.stringify(unknown.map((e) => [e.url, e.depth, e.hops, e.kind ?? 'page', e.reason]));
    const inserted = new Set(
      this.ledger
        .exec<{ url: string }>(
          `INSERT INTO urls (url, depth, hops, kind, state, enqueued_at, reason, code)
           SELECT value->>0, value->>1, value->>2, value->>3, ?, ?, value->>4, ? FROM json_each(?) WHERE true
           ON CONFLICT (url) DO NOTHING RETURNING url`,
          FINAL_STATE[kind],
          now,
          code,
          rows,
        )
        .map((row) => row.url),
    );
    return unknown.filter((e) => inserted.delete(e.url));
  }

  /** The rows of `urls` the seen-set has, by URL (those the log holds as rows would be). */
  find(urls: readonly string[]): Map<string, UrlRow> {
    const rows = this.ledger.exec<UrlRow & Record<string, SqlStorageValue>>(
      `SELECT ${ENTRY}, state, attempts, reserved_at FROM urls WHERE url IN (SELECT value FROM json_each(?))`,
      JSON.stringify(urls),
    );
    const found = new Map<string, UrlRow>(rows.map((row) => [row.url, row]));
    const rest = urls.filter((url) => !found.has(url));
    if (rest.length === 0) return found;
    const { pending, stored } = this.log.find(rest);
    for (const p of pending.values()) found.set(p.url, queuedRow(p));
    for (const e of stored.values()) found.set(e.url, { ...queuedRow(e), state: UrlState.Stored });
    return found;
  }

  /**
   * Ends queued URLs in a final state with one reason and code. Returns how many it ended (a URL not queued, or named
   * twice, is ended once or not at all), which is what the counts move by. Those the log holds pending and stored now
   * are one `log` row; the others a `urls` row each.
   */
  finish(kind: FinalKind, reason: string | null, code: OutcomeCode | null, urls: readonly string[]): number {
    if (urls.length === 0) return 0;
    const unique = [...new Set(urls)];
    const updated = new Set(
      this.ledger
        .exec<{ url: string }>(
          `UPDATE urls SET state = ?, reason = ?, code = ? WHERE state = ? AND url IN (SELECT value FROM json_each(?))
           RETURNING url`,
          FINAL_STATE[kind],
          reason,
          code,
          UrlState.Queued,
          JSON.stringify(unique),
        )
        .map((row) => row.url),
    );
    const pending = [...this.log.find(unique.filter((url) => !updated.has(url))).pending.values()];
    if (kind === 'stored') this.log.append(pending, []);
    else
      this.takeOver(
        pending.map((p) => ({
          pending: p,
          state: FINAL_STATE[kind],
          attempts: 0,
          enqueuedAt: p.due,
          reason,
          code,
          reservedAt: null,
        })),
      );
    return updated.size + pending.length;
  }

  /**
   * Back to queued, its message due at `dueAt` (the sweeper does not mistake a delayed message for a lost one), with
   * the slot its host reserved for it, if any.
   */
  requeue(
    url: string,
    dueAt: number,
    reason: string | null,
    countsAttempt: boolean,
    reservedAt: number | null = null,
  ): void {
    const updated = this.ledger.exec(
      `UPDATE urls SET state = ?, enqueued_at = ?, reason = ?, attempts = attempts + ?, reserved_at = ? WHERE url = ?
       RETURNING url`,
      UrlState.Queued,
      dueAt,
      reason,
      countsAttempt ? 1 : 0,
      reservedAt,
      url,
    );
    const pending = updated.length > 0 ? undefined : this.log.find([url]).pending.get(url);
    if (pending)
      this.takeOver([
        {
          pending,
          state: UrlState.Queued,
          attempts: countsAttempt ? 1 : 0,
          enqueuedAt: dueAt,
          reason,
          code: null,
          reservedAt,
        },
      ]);
  }

  /** Marks URLs as sent again now, each due at its `dueAt` if it has one. */
  resent(entries: readonly FrontierEntry[], now: number): void {
    if (entries.length === 0) return;
    const updated = new Set(
      this.ledger
        .exec<{ url: string }>(
          'UPDATE urls SET enqueued_at = j.value->>1 FROM json_each(?) AS j WHERE urls.url = j.value->>0 RETURNING url',
          JSON.stringify(entries.map((e) => [e.url, e.dueAt ?? now])),
        )
        .map((row) => row.url),
    );
    const rest = entries.filter((e) => !updated.has(e.url));
    if (rest.length === 0) return;
    const { pending } = this.log.find(rest.map((e) => e.url));
    this.takeOver(
      rest.flatMap((e) => {
        const p = pending.get(e.url);
        return p
          ? [
              {
                pending: p,
                state: UrlState.Queued,
                attempts: 0,
                enqueuedAt: e.dueAt ?? now,
                reason: null,
                code: null,
                reservedAt: null,
              },
            ]
          : [];
      }),
    );
  }

  /** `urls` rows take over URLs the log held pending (one statement), which name the place they were offered at. */
  private takeOver(rows: readonly TakeOver[]): void {
    if (rows.length === 0) return;
    this.ledger.exec(
      `INSERT INTO urls (url, depth, hops, kind, state, attempts, enqueued_at, reason, code, reserved_at, offer_seq, offer_pos)
       SELECT value->>0, value->>1, value->>2, value->>3, value->>4, value->>5, value->>6, value->>7, value->>8, value->>9,
         value->>10, value->>11
       FROM json_each(?) WHERE true ON CONFLICT (url) DO NOTHING`,
      JSON.stringify(
        rows.map(({ pending: p, ...r }) => [
          p.url,
          p.depth,
          p.hops,
          p.kind ?? 'page',
          r.state,
          r.attempts,
          r.enqueuedAt,
          r.reason,
          r.code,
          r.reservedAt,
          p.seq,
          p.pos,
        ]),
      ),
    );
    this.log.settle(rows.map((r) => r.pending));
  }

  /** Queued URLs due at or before `before`, at most `limit`, leaving out `skip`: `urls` rows first, then the log's. */
  due(before: number, limit: number, skip: ReadonlySet<string>): FrontierEntry[] {
    const rows = this.ledger
      .exec<Pick<UrlRow, 'url' | 'depth' | 'hops' | 'kind'>>(
        `SELECT ${ENTRY} FROM urls WHERE state = ? AND enqueued_at <= ? LIMIT ?`,
        UrlState.Queued,
        before,
        limit + skip.size,
      )
      .filter((r) => !skip.has(r.url))
      .slice(0, limit)
      .map(entryOf);
    for (const p of this.log.pending()) {
      if (rows.length >= limit) break;
      if (p.due <= before && !skip.has(p.url)) rows.push(entryOf(p));
    }
    return rows;
  }

  /** Queued URLs whose keys are in the ranges [from, to), at most `limit` a range. */
  queuedIn(ranges: readonly [string, string][], limit: number): FrontierEntry[] {
    const found = ranges.map(([from, to]) =>
      this.ledger
        .exec<Pick<UrlRow, 'url' | 'depth' | 'hops' | 'kind'>>(
          `SELECT ${ENTRY} FROM urls WHERE url >= ? AND url < ? AND state = ? LIMIT ?`,
          from,
          to,
          UrlState.Queued,
          limit,
        )
        .map(entryOf),
    );
    if (found.every((rows) => rows.length >= limit)) return found.flat();
    for (const p of this.log.pending())
      ranges.forEach(([from, to], i) => {
        const rows = found[i];
        if (rows && rows.length < limit && p.url >= from && p.url < to) rows.push(entryOf(p));
      });
    return found.flat();
  }

  /** URLs, in any state, whose host reserved them a slot that starts after `now` (one statement, no index). */
  reservedAfter(now: number): string[] {
    return this.ledger.exec<{ url: string }>('SELECT url FROM urls WHERE reserved_at > ?', now).map((r) => r.url);
  }

  /**
   * Queued URLs holding a reservation lose it, and they and those whose messages were delayed past `dueAt` (spread at
   * their host's pace) are due at `dueAt` (a restart's recovery re-sends them with the rest): a row written per such
   * `urls` row, and per `log` row holding such URLs.
   */
  forgetReservations(dueAt: number): void {
    this.ledger.exec(
      `UPDATE urls SET reserved_at = NULL, enqueued_at = MIN(enqueued_at, ?)
       WHERE state = ? AND (reserved_at IS NOT NULL OR enqueued_at > ?)`,
      dueAt,
      UrlState.Queued,
      dueAt,
    );
    this.log.bringForward(dueAt);
  }

  /** The queued ones of `urls`, as entries. */
  queued(urls: readonly string[]): FrontierEntry[] {
    return [...this.find(urls).values()].filter((r) => r.state === UrlState.Queued).map(entryOf);
  }

  /** Hands `row` each URL the crawl stored (every one: a scan of the seen-set). */
  eachStored(row: (entry: FrontierEntry) => void): void {
    this.ledger.each<Pick<UrlRow, 'url' | 'depth' | 'hops' | 'kind'>>(
      `SELECT ${ENTRY} FROM urls WHERE state = ?`,
      [UrlState.Stored],
      (r) => row(entryOf(r)),
    );
    this.log.eachStored(row);
  }

  /** Hands `row` each page URL the seen-set has in any state, trapped ones aside (a scan of the seen-set). */
  eachPage(row: (url: string) => void): void {
    this.ledger.each<{ url: string }>("SELECT url FROM urls WHERE kind = 'page' AND code IS NOT 'trap'", [], (r) =>
      row(r.url),
    );
    this.log.eachStored((e) => {
      if (e.kind !== 'sitemap') row(e.url);
    });
    for (const p of this.log.pending()) if (p.kind !== 'sitemap') row(p.url);
  }

  /** Whether a page stored, or a duplicate, lies at `depth` or deeper. */
  reachedDepth(depth: number): boolean {
    const rows = this.ledger.exec(
      "SELECT 1 AS deep FROM urls WHERE kind = 'page' AND state IN (?, ?) AND depth >= ? LIMIT 1",
      UrlState.Stored,
      UrlState.Duplicate,
      depth,
    );
    return rows.length > 0 || this.log.storedAtDepth(depth);
  }

  /** What the log holds in memory (the ceilings in docs/scale.md). */
  get held(): SeenLog['held'] {
    return this.log.held;
  }

  /** What the log is given waits to be written as one row by write() (see SeenLog.hold). */
  hold(): void {
    this.log.hold();
  }

  /** Writes what waits since hold(), as one row. */
  write(): void {
    this.log.write();
  }

  /** Forgets what memory holds (the crawl's storage was deleted). */
  forget(): void {
    this.log.forget();
  }

  /** Puts failed URLs (those of `urls`, or any) back in the frontier, attempts starting over: at most `limit`. */
  reopenFailed(limit: number, urls: readonly string[] | undefined, now: number): FrontierEntry[] {
    const reopen = `UPDATE urls SET state = ?, attempts = 0, enqueued_at = ?, reason = NULL, code = NULL WHERE state = ? AND url IN`;
    const rows = urls
      ? this.ledger.exec<Pick<UrlRow, 'url' | 'depth' | 'hops' | 'kind'>>(
          `${reopen} (SELECT value FROM json_each(?)) RETURNING ${ENTRY}`,
          UrlState.Queued,
          now,
          UrlState.Failed,
          JSON.stringify(urls.slice(0, limit)),
        )
      : this.ledger.exec<Pick<UrlRow, 'url' | 'depth' | 'hops' | 'kind'>>(
          `${reopen} (SELECT url FROM urls WHERE state = ? LIMIT ?) RETURNING ${ENTRY}`,
          UrlState.Queued,
          now,
          UrlState.Failed,
          UrlState.Failed,
          limit,
        );
    return rows.map(entryOf);
  }

  /**
   * Puts the duplicates of `targets` (their canonicals, which ended without content) back in the frontier, attempts
   * starting over; returns them.
   */
  reopenDuplicatesOf(targets: readonly string[], now: number): FrontierEntry[] {
    return this.ledger
      .exec<Pick<UrlRow, 'url' | 'depth' | 'hops' | 'kind'>>(
        `UPDATE urls SET state = ?, attempts = 0, enqueued_at = ?, reason = NULL, code = NULL WHERE state = ? AND url IN (
           SELECT url FROM canonicals WHERE target IN (SELECT value FROM json_each(?))) RETURNING ${ENTRY}`,
        UrlState.Queued,
        now,
        UrlState.Duplicate,
        JSON.stringify(targets),
      )
      .map(entryOf);
  }

  countFailed(): number {
    return (
      this.ledger.exec<{ n: number }>('SELECT COUNT(*) AS n FROM urls WHERE state = ?', UrlState.Failed)[0]?.n ?? 0
    );
  }
}
