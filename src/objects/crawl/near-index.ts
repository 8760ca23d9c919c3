import { z } from 'zod';
import { SketchIndex } from '../../domain/similarity/index';
import { NEAR_DUPLICATE_DISTANCE } from '../../domain/similarity/sketch';
import type { Ledger } from './ledger';

/** A row of `claims`: pairs of content key and URL, with the URL's text sketch when the crawl finds near-duplicates. */
export const claimPairsSchema = z.array(
  z.union([z.tuple([z.string(), z.string()]), z.tuple([z.string(), z.string(), z.string()])]),
);
export type ClaimPair = z.output<typeof claimPairsSchema>[number];

/** A page's sketch, as held in a pair: its 16 hex digits, then a dot and its name's labels (nameLabels). */
const SKETCH_CHARS = 16;
export const nearValue = (sketch: string, labels: string): string => `${sketch}.${labels}`;

/** Pairs a `claims` row may hold and still be found by id (the id is its row and place: seq * PAIRS + place). */
const PAIRS = 4096;
/** Rows found by id at most: ids stay within 32 bits. */
const MAX_SEQ = 2 ** 20;
/** Entries the index starts with, and grows to at most (x4 at a time, read again from `claims`): 28 bytes each. */
const FIRST_CAPACITY = 65_536;
const MAX_CAPACITY = 1_048_576;

/** A page near another: its URL, how many bits their text sketches differ in, and its name's labels. */
export interface Near {
  url: string;
  distance: number;
  labels: string;
}

/**
 * The pages of a crawl that first had each content, by the sketch of their text (duplicates: "similar"): an in-memory
 * SketchIndex (domain/similarity) of the sketches `claims` rows hold beside their keys, made when first asked (every
 * row read once per wake) and grown as the crawl grows. No row is written for it. Past MAX_CAPACITY pages, later
 * pages are not indexed (their exact duplicates are still found by key).
 */
export class NearIndex {
  private index: SketchIndex | null = null;

  constructor(private readonly ledger: Ledger) {}

  /** The pages near `sketch`, nearest first (at most `limit`), read from the rows the index points at. */
  near(sketch: string, limit = 4): Near[] {
    const found = this.load().query(sketch).slice(0, limit);
    if (found.length === 0) return [];
    const seqs = [...new Set(found.map((n) => Math.floor(n.id / PAIRS)))];
    const rows = new Map(
      this.ledger
        .exec<{ seq: number; pairs: string }>(
          'SELECT seq, pairs FROM claims WHERE seq IN (SELECT value FROM json_each(?))',
          JSON.stringify(seqs),
        )
        .map((row) => [row.seq, claimPairsSchema.parse(JSON.parse(row.pairs))]),
    );
    return found.flatMap(({ id, distance }) => {
      const pair = rows.get(Math.floor(id / PAIRS))?.[id % PAIRS];
      if (pair?.[2] === undefined) return [];
      return [{ url: pair[1], distance, labels: pair[2].slice(SKETCH_CHARS + 1) }];
    });
  }

  /** A `claims` row just written: its pages with a sketch are indexed (once the index is made). */
  added(seq: number, pairs: readonly ClaimPair[]): void {
    if (this.index === null) return;
    if (this.index.size + pairs.length > this.index.capacity && this.index.capacity < MAX_CAPACITY) {
      this.index = null;
      this.load();
      return;
    }
    this.addRow(this.index, seq, pairs);
  }

  forget(): void {
    this.index = null;
  }

  /** The index, made from every `claims` row with room for what they hold (and some). */
  private load(): SketchIndex {
    if (this.index) return this.index;
    const rows = this.ledger.exec<{ seq: number; pairs: string }>('SELECT seq, pairs FROM claims');
    const parsed = rows.map((row) => ({ seq: row.seq, pairs: claimPairsSchema.parse(JSON.parse(row.pairs)) }));
    const held = parsed.reduce((n, row) => n + row.pairs.filter((p) => p[2] !== undefined).length, 0);
    let capacity = FIRST_CAPACITY;
    while (capacity < held * 2 && capacity < MAX_CAPACITY) capacity *= 4;
    const index = new SketchIndex(Math.min(capacity, MAX_CAPACITY), NEAR_DUPLICATE_DISTANCE);
    for (const row of parsed) this.addRow(index, row.seq, row.pairs);
    this.index = index;
    return index;
  }

  private addRow(index: SketchIndex, seq: number, pairs: readonly ClaimPair[]): void {
    if (seq >= MAX_SEQ) return;
    pairs.forEach((pair, place) => {
      const near = pair[2];
      if (near !== undefined && place < PAIRS && index.size < index.capacity)
        index.add(near.slice(0, SKETCH_CHARS), seq * PAIRS + place);
    });
  }
}
