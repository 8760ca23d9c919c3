import { FingerprintIndex } from '../../domain/crawl/fingerprints';
import type { Ledger } from './ledger';
import { type ClaimPair, claimPairsSchema, NearIndex } from './near-index';

/**
 * Keys the index holds at most (16 MiB of slots): past them, a new key is a row of `contents`, as every key was before
 * the index (docs/crawling.md, "Duplicates").
 */
const INDEX_CAPACITY = 1_572_864;

/**
 * A content key and the URL that has it, with what near-duplicates are found by when the crawl looks for them: its
 * text's sketch and its name's labels (near-index.ts nearValue).
 */
export interface KeyClaim {
  key: string;
  url: string;
  near?: string | null;
}

/**
 * The first URL of each content key of the crawl (domain/crawl/duplicates.ts contentKey), exact and durable, without a
 * row written per key: the keys a call claims are one row of `claims` (the call's pairs of key and URL, in its
 * order), and an in-memory FingerprintIndex says which rows may hold a key (rebuilt from `claims` when the object
 * wakes). A key the index does not know is new, unless `contents` may hold it: the keys claimed past INDEX_CAPACITY,
 * and those of crawls started before `claims` (one row each, looked up by key).
 */
export class ContentClaims {
  /** Null until the first call after the object woke (see load). */
  private index: FingerprintIndex | null = null;
  /** Whether `contents` holds keys to look up. */
  private overflow = false;
  /** The sketches of the pages that claimed keys (duplicates: "similar"). */
  readonly near: NearIndex;

  constructor(
    private readonly ledger: Ledger,
    private readonly capacity = INDEX_CAPACITY,
  ) {
    this.near = new NearIndex(ledger);
  }

  /**
   * The first URL of each key asked, each key no URL has yet claimed for the first claim of it (in order: the first of
   * a call wins). Reads the rows the index points at; writes one row for the keys claimed (and, past the capacity, a
   * row each).
   */
  claim(claims: readonly KeyClaim[]): Map<string, string> {
    if (claims.length === 0) return new Map();
    const index = this.load();
    const firsts = this.lookup(index, [...new Set(claims.map((c) => c.key))]);
    const fresh: ClaimPair[] = [];
    for (const { key, url, near } of claims) {
      if (firsts.has(key)) continue;
      firsts.set(key, url);
      fresh.push(near ? [key, url, near] : [key, url]);
    }
    this.record(index, fresh);
    return firsts;
  }

  /** Forgets the index (the crawl's storage was deleted): the next call reads what storage holds. */
  forget(): void {
    this.index = null;
    this.overflow = false;
    this.near.forget();
  }

  /** The index, read from `claims` (every row, once per wake), and whether `contents` has rows. */
  private load(): FingerprintIndex {
    if (this.index) return this.index;
    const index = new FingerprintIndex();
    for (const row of this.ledger.exec<{ seq: number; pairs: string }>('SELECT seq, pairs FROM claims'))
      for (const [key] of claimPairsSchema.parse(JSON.parse(row.pairs))) index.add(key, row.seq);
    this.overflow = this.ledger.exec('SELECT 1 AS one FROM contents LIMIT 1').length > 0;
    this.index = index;
    return index;
  }

  /** The URLs that claimed these keys: from the rows the index points at, then `contents`. */
  private lookup(index: FingerprintIndex, keys: readonly string[]): Map<string, string> {
    const found = new Map<string, string>();
    const seqs = [...new Set(keys.flatMap((key) => index.lookup(key)))];
    if (seqs.length > 0) {
      const wanted = new Set(keys);
      const rows = this.ledger.exec<{ pairs: string }>(
        'SELECT pairs FROM claims WHERE seq IN (SELECT value FROM json_each(?))',
        JSON.stringify(seqs),
      );
      for (const row of rows)
        for (const [key, url] of claimPairsSchema.parse(JSON.parse(row.pairs)))
          if (wanted.has(key) && !found.has(key)) found.set(key, url);
    }
    const missing = keys.filter((key) => !found.has(key));
    if (this.overflow && missing.length > 0)
      for (const row of this.ledger.exec<{ hash: string; url: string }>(
        'SELECT hash, url FROM contents WHERE hash IN (SELECT value FROM json_each(?))',
        JSON.stringify(missing),
      ))
        found.set(row.hash, row.url);
    return found;
  }

  /** Writes new claims: one `claims` row for those the index has room for, a `contents` row for each other. */
  private record(index: FingerprintIndex, fresh: readonly ClaimPair[]): void {
    const kept = fresh.slice(0, Math.max(0, this.capacity - index.size));
    const rest = fresh.slice(kept.length);
    if (kept.length > 0) {
      const [row] = this.ledger.exec<{ seq: number }>(
        'INSERT INTO claims (pairs) VALUES (?) RETURNING seq',
        JSON.stringify(kept),
      );
      if (row) {
        for (const [key] of kept) index.add(key, row.seq);
        this.near.added(row.seq, kept);
      }
    }
    if (rest.length > 0) {
      this.ledger.exec(
        `INSERT INTO contents (hash, url) SELECT value->>0, value->>1 FROM json_each(?) WHERE true
         ON CONFLICT (hash) DO NOTHING`,
        JSON.stringify(rest.map(([key, url]) => [key, url])),
      );
      this.overflow = true;
    }
  }
}
