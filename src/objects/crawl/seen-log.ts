import { FingerprintIndex } from '../../domain/crawl/fingerprints';
import type { FrontierEntry, TaskKind } from '../../domain/crawl/url-life';
import type { Ledger } from './ledger';

/** Entries a `log` row holds at most (2,000 of some 100 bytes: far under a row's 2 MB). */
const ROW_ENTRIES = 2_000;
/** Rows read at once as the open entries are gone through. */
const OPEN_READ = 64;

/**
 * A URL the log holds queued: offered in row `seq` at place `pos`, its message due at `due`, neither ended in the log
 * nor taken over by a `urls` row since.
 */
export interface LogPending extends FrontierEntry {
  due: number;
  seq: number;
  pos: number;
}

/** A URL the log holds stored (ended in row `seq`). */
export interface LogStored extends FrontierEntry {
  seq: number;
}

/** An entry the log is given to offer: its message due at `due`. */
export type Planned = FrontierEntry & { due: number };

/** Of a row's offered entries: which were resolved (1: ended in the log, or taken over by a `urls` row), how many not. */
interface OpenRow {
  resolved: Uint8Array;
  open: number;
}

interface Memory {
  /** Each URL the log holds, stored or pending, under the row that holds it (removed when it stops holding it). */
  index: FingerprintIndex;
  /** The rows with offered entries still pending, by seq (ascending). */
  open: Map<number, OpenRow>;
}

const num = (v: SqlStorageValue): number => {
  if (typeof v !== 'number') throw new Error(`seen log: a number was expected, not ${typeof v}`);
  return v;
};
const str = (v: SqlStorageValue): string => {
  if (typeof v !== 'string') throw new Error(`seen log: a string was expected, not ${typeof v}`);
  return v;
};
const kindOf = (v: SqlStorageValue): TaskKind => (v === 'sitemap' ? 'sitemap' : 'page');
const entryOf = (row: Record<string, SqlStorageValue>): FrontierEntry => {
  const kind = kindOf(row.kind ?? null);
  return {
    url: str(row.url ?? null),
    depth: num(row.depth ?? null),
    hops: num(row.hops ?? null),
    ...(kind === 'sitemap' ? { kind } : {}),
  };
};

const ENTRY_COLUMNS = 'j.value->>0 AS url, j.value->>1 AS depth, j.value->>2 AS hops, j.value->>3 AS kind';

/**
 * The seen-set's rows written per call rather than per URL (the pattern of content-claims.ts): each call that offers
 * URLs or ends them stored writes one row of `log`, its `offered` entries ([url, depth, hops, kind, due]) and its
 * `ended` ones ([url, depth, hops, kind, offer seq, offer pos]: stored, and the place they were offered at). A URL
 * anything else befalls (a retry, a failure, a lease that ran out) is taken over by a row of `urls`, which names the
 * place it was offered at (offer_seq, offer_pos) and says from then on what became of it. In memory: a
 * FingerprintIndex of the URLs the log holds (exact: a URL is looked up in the rows it points at), and which offered
 * entries are still pending; both rebuilt from storage, by streaming it once, on the first call after the object
 * woke.
 */
export class SeenLog {
  private memory: Memory | null = null;
  /** What appends wrote while held (see hold), not written yet: null when not held. */
  private draft: { ended: Map<string, LogPending>; offered: Map<string, Planned> } | null = null;

  constructor(private readonly ledger: Ledger) {}

  /** The URLs of `urls` the log holds: pending (offered, open) and stored. One statement when any may be held. */
  find(urls: readonly string[]): { pending: Map<string, LogPending>; stored: Map<string, LogStored> } {
    const draft = this.draft;
    if (draft && urls.some((url) => draft.offered.has(url))) this.writeHeld();
    const pending = new Map<string, LogPending>();
    // Ended in this call, not written yet: stored.
    const stored = new Map<string, LogStored>(
      urls.flatMap((url) => {
        const ended = this.draft?.ended.get(url);
        return ended ? [[url, { ...ended, seq: -1 }]] : [];
      }),
    );
    const { index, open } = this.load();
    const seqs = [...new Set(urls.flatMap((url) => index.lookup(url)))];
    if (seqs.length === 0) return { pending, stored };
    const [s, u] = [JSON.stringify(seqs), JSON.stringify(urls)];
    const where = 'l.seq IN (SELECT value FROM json_each(?)) AND j.value->>0 IN (SELECT value FROM json_each(?))';
    const rows = this.ledger.exec(
      `SELECT l.seq AS seq, 0 AS part, j.key AS pos, ${ENTRY_COLUMNS}, j.value->>4 AS due FROM log l, json_each(l.offered) j WHERE ${where}
       UNION ALL
       SELECT l.seq, 1, j.key, ${ENTRY_COLUMNS}, NULL FROM log l, json_each(l.ended) j WHERE ${where}`,
      s,
      u,
      s,
      u,
    );
    for (const row of rows) {
      const [seq, pos, entry] = [num(row.seq ?? null), num(row.pos ?? null), entryOf(row)];
      if (row.part === 1) stored.set(entry.url, { ...entry, seq });
      else if (open.get(seq)?.resolved[pos] === 0 && !stored.has(entry.url))
        pending.set(entry.url, { ...entry, due: num(row.due ?? null), seq, pos });
    }
    for (const url of stored.keys()) pending.delete(url);
    return { pending, stored };
  }

  /**
   * From now on, what append() is given waits in memory, to be written as one row by write() (the end of a call to
   * the crawl's object: CrawlCoordinator.rpc): what a call ends and what it offers are one row. What waits is
   * written first when the log's pending entries are read in bulk (due, bringForward) or a URL offered in the call is
   * asked about.
   */
  hold(): void {
    this.draft ??= { ended: new Map(), offered: new Map() };
  }

  /** Writes what waits (see hold), and stops holding. */
  write(): void {
    this.writeHeld();
    this.draft = null;
  }

  /** Writes what waits, if anything, and goes on holding. */
  private writeHeld(): void {
    const draft = this.draft;
    if (!draft || (draft.ended.size === 0 && draft.offered.size === 0)) return;
    this.draft = null;
    this.append([...draft.ended.values()], [...draft.offered.values()]);
    this.draft = { ended: new Map(), offered: new Map() };
  }

  /**
   * Writes the entries offered and those of `ended` (pending ones, now stored) in as few rows as they fit (one, up to
   * ROW_ENTRIES): the only rows the log writes.
   */
  append(ended: readonly LogPending[], offered: readonly Planned[]): void {
    if (this.draft) {
      for (const p of ended) this.draft.ended.set(p.url, p);
      for (const p of offered) this.draft.offered.set(p.url, p);
      return;
    }
    const memory = this.load();
    let [e, o] = [0, 0];
    while (e < ended.length || o < offered.length) {
      const endedPart = ended.slice(e, e + ROW_ENTRIES);
      const offeredPart = offered.slice(o, o + ROW_ENTRIES - endedPart.length);
      [e, o] = [e + endedPart.length, o + offeredPart.length];
      const [row] = this.ledger.exec<{ seq: number }>(
        'INSERT INTO log (ended, offered) VALUES (?, ?) RETURNING seq',
        JSON.stringify(endedPart.map((p) => [p.url, p.depth, p.hops, p.kind ?? 'page', p.seq, p.pos])),
        JSON.stringify(offeredPart.map((p) => [p.url, p.depth, p.hops, p.kind ?? 'page', p.due])),
      );
      const seq = num(row?.seq ?? null);
      this.settle(endedPart);
      for (const p of [...endedPart, ...offeredPart]) memory.index.add(p.url, seq);
      if (offeredPart.length > 0)
        memory.open.set(seq, { resolved: new Uint8Array(offeredPart.length), open: offeredPart.length });
    }
  }

  /** Pending entries no longer the log's to say (ended in it, or taken over by `urls` rows that name them): in memory. */
  settle(entries: readonly LogPending[]): void {
    // What waits is left waiting: a URL it ends is stored (no longer pending, so not taken over), one it offers was
    // written before it could be found pending (find).
    const { index, open } = this.load();
    for (const { url, seq, pos } of entries) {
      const row = open.get(seq);
      if (row?.resolved[pos] !== 0) continue;
      row.resolved[pos] = 1;
      row.open -= 1;
      if (row.open === 0) open.delete(seq);
      index.remove(url, seq);
    }
  }

  /** Every pending entry, in the order offered, read OPEN_READ rows at a time (as the caller goes on). */
  *pending(): Generator<LogPending> {
    this.writeHeld();
    const { open } = this.load();
    const seqs = [...open.keys()];
    for (let at = 0; at < seqs.length; at += OPEN_READ) {
      const rows = this.ledger.exec(
        `SELECT l.seq AS seq, j.key AS pos, ${ENTRY_COLUMNS}, j.value->>4 AS due
         FROM log l, json_each(l.offered) j WHERE l.seq IN (SELECT value FROM json_each(?)) ORDER BY l.seq, j.key`,
        JSON.stringify(seqs.slice(at, at + OPEN_READ)),
      );
      for (const row of rows) {
        const [seq, pos] = [num(row.seq ?? null), num(row.pos ?? null)];
        if (open.get(seq)?.resolved[pos] === 0) yield { ...entryOf(row), due: num(row.due ?? null), seq, pos };
      }
    }
  }

  /** Pending entries due after `dueAt` are due at `dueAt` (a restart's recovery): a row written per row holding any. */
  bringForward(dueAt: number): void {
    this.writeHeld();
    const seqs = [...this.load().open.keys()];
    if (seqs.length === 0) return;
    this.ledger.exec(
      `UPDATE log SET offered = (
         SELECT json_group_array(CASE WHEN value->>4 > ? THEN json_set(value, '$[4]', ?) ELSE json(value) END)
         FROM json_each(log.offered))
       WHERE seq IN (SELECT value FROM json_each(?))
         AND EXISTS (SELECT 1 FROM json_each(log.offered) WHERE value->>4 > ?)`,
      dueAt,
      dueAt,
      JSON.stringify(seqs),
      dueAt,
    );
  }

  /** Hands `row` each URL the log holds stored (the whole log, streamed; then those waiting to be written). */
  eachStored(row: (entry: FrontierEntry) => void): void {
    this.ledger.each(`SELECT ${ENTRY_COLUMNS} FROM log l, json_each(l.ended) j`, [], (r) => row(entryOf(r)));
    for (const { url, depth, hops, kind } of this.draft?.ended.values() ?? []) row({ url, depth, hops, kind });
  }

  /** Whether the log holds a page stored at `depth` or deeper. */
  storedAtDepth(depth: number): boolean {
    const waiting = [...(this.draft?.ended.values() ?? [])];
    if (waiting.some((p) => p.kind !== 'sitemap' && p.depth >= depth)) return true;
    return (
      this.ledger.exec(
        "SELECT 1 AS deep FROM log l, json_each(l.ended) j WHERE j.value->>3 = 'page' AND j.value->>1 >= ? LIMIT 1",
        depth,
      ).length > 0
    );
  }

  /** What memory holds, for the ceilings: URLs indexed, the index's bytes, rows with pending entries. */
  get held(): { urls: number; bytes: number; openRows: number } {
    const memory = this.memory;
    return memory
      ? { urls: memory.index.size, bytes: memory.index.bytes, openRows: memory.open.size }
      : { urls: 0, bytes: 0, openRows: 0 };
  }

  /** Forgets memory (the crawl's storage was deleted): the next call reads what storage holds. */
  forget(): void {
    this.memory = null;
    this.draft = null;
  }

  /**
   * Memory, read from storage once per wake: the size of each row's offered entries; the ended entries (indexed, and
   * the places they were offered at resolved); the places `urls` rows took over; then the offered entries still
   * pending, indexed. Four statements, each streamed.
   */
  private load(): Memory {
    if (this.memory) return this.memory;
    const index = new FingerprintIndex();
    const rows = new Map<number, Uint8Array>();
    const resolve = (seq: SqlStorageValue, pos: SqlStorageValue) => {
      const row = typeof seq === 'number' && typeof pos === 'number' ? rows.get(seq) : undefined;
      if (row && typeof pos === 'number') row[pos] = 1;
    };
    this.ledger.each("SELECT seq, json_array_length(offered) AS n FROM log WHERE offered <> '[]'", [], (r) =>
      rows.set(num(r.seq ?? null), new Uint8Array(num(r.n ?? null))),
    );
    this.ledger.each(
      'SELECT l.seq AS seq, j.value->>0 AS url, j.value->>4 AS os, j.value->>5 AS op FROM log l, json_each(l.ended) j',
      [],
      (r) => {
        index.add(str(r.url ?? null), num(r.seq ?? null));
        resolve(r.os ?? null, r.op ?? null);
      },
    );
    this.ledger.each('SELECT offer_seq, offer_pos FROM urls WHERE offer_seq IS NOT NULL', [], (r) =>
      resolve(r.offer_seq ?? null, r.offer_pos ?? null),
    );
    const open = new Map<number, OpenRow>();
    for (const [seq, resolved] of rows) {
      const pending = resolved.length - resolved.reduce((n, bit) => n + bit, 0);
      if (pending > 0) open.set(seq, { resolved, open: pending });
    }
    this.ledger.each(
      'SELECT l.seq AS seq, j.key AS pos, j.value->>0 AS url FROM log l, json_each(l.offered) j WHERE l.seq IN (SELECT value FROM json_each(?))',
      [JSON.stringify([...open.keys()])],
      (r) => {
        const seq = num(r.seq ?? null);
        if (open.get(seq)?.resolved[num(r.pos ?? null)] === 0) index.add(str(r.url ?? null), seq);
      },
    );
    this.memory = { index, open };
    return this.memory;
  }
}
