/**
 * A near-neighbour index of 64-bit sketches under Hamming distance (docs/similarity.md): every sketch added within
 * `maxDistance` bits of a query. By the pigeonhole principle, two sketches at most k bits apart agree exactly on at
 * least one of k + 1 blocks of their bits, so each block keeps buckets of the entries by that block's value, and a
 * query checks only the entries that share a block with it.
 *
 * Compact, for a crawl's Durable Object: typed arrays of a fixed capacity and no object per entry. Each entry is its
 * two 32-bit halves and its id (12 bytes) and one chain link per block (4 bytes each), plus the bucket heads: a block
 * of up to 2^b values has min(2^b, capacity rounded up to a power of two) heads of 4 bytes. At k = 3 (four blocks of
 * 16 bits) and a capacity of 1,000,000 that is 28 bytes an entry and 1 MiB of heads: 29 MB in all.
 */
import { popcount32 } from './hash';

/** One sketch found near a query: the id it was added with, and how many bits apart. */
export interface Neighbour {
  id: number;
  distance: number;
}

const HEX = /^[0-9a-f]{16}$/i;

function halvesOf(sketch: string): [number, number] {
  if (!HEX.test(sketch)) throw new RangeError(`not a 64-bit sketch: ${sketch}`);
  return [Number.parseInt(sketch.slice(0, 8), 16), Number.parseInt(sketch.slice(8, 16), 16)];
}

/** Bits [offset, offset + width) of the 64-bit value high:low (bit 0 is low's lowest), width 1 to 32. */
function bitsOf(high: number, low: number, offset: number, width: number): number {
  const mask = width === 32 ? 0xffffffff : (1 << width) - 1;
  if (offset >= 32) return ((high >>> (offset - 32)) & mask) >>> 0;
  const value = offset === 0 ? low : (low >>> offset) | (high << (32 - offset));
  return (value & mask) >>> 0;
}

/** The blocks of 64 bits for a distance: k + 1 of them (at least two), as even as they go. */
function blocksFor(maxDistance: number): { offsets: number[]; widths: number[] } {
  const count = Math.max(2, maxDistance + 1);
  const widths = Array.from({ length: count }, (_, b) => Math.floor(64 / count) + (b < 64 % count ? 1 : 0));
  const offsets = widths.map((_, b) => widths.slice(0, b).reduce((sum, w) => sum + w, 0));
  return { offsets, widths };
}

export class SketchIndex {
  readonly capacity: number;
  readonly maxDistance: number;
  private readonly high: Uint32Array;
  private readonly low: Uint32Array;
  private readonly ids: Uint32Array;
  /** Each block's chain link per entry: the next entry of its bucket, -1 at the end. */
  private readonly next: Int32Array;
  /** Each block's bucket heads (the newest entry of the bucket, -1 when empty), block after block. */
  private readonly heads: Int32Array;
  private readonly offsets: number[];
  private readonly widths: number[];
  /** Per block: log2 of its number of buckets, and where its heads start. */
  private readonly slotBits: number[];
  private readonly headStart: number[];
  private count = 0;

  constructor(capacity: number, maxDistance: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError('capacity must be a positive integer');
    if (!Number.isInteger(maxDistance) || maxDistance < 0 || maxDistance > 31)
      throw new RangeError('maxDistance must be an integer from 0 to 31');
    this.capacity = capacity;
    this.maxDistance = maxDistance;
    ({ offsets: this.offsets, widths: this.widths } = blocksFor(maxDistance));
    const capacityBits = Math.ceil(Math.log2(capacity));
    this.slotBits = this.widths.map((w) => Math.max(0, Math.min(w, capacityBits)));
    this.headStart = this.slotBits.map((_, b) => this.slotBits.slice(0, b).reduce((sum, s) => sum + 2 ** s, 0));
    this.heads = new Int32Array(this.slotBits.reduce((sum, s) => sum + 2 ** s, 0)).fill(-1);
    this.next = new Int32Array(capacity * this.widths.length);
    this.high = new Uint32Array(capacity);
    this.low = new Uint32Array(capacity);
    this.ids = new Uint32Array(capacity);
  }

  /** Entries added. */
  get size(): number {
    return this.count;
  }

  /** Bytes held by the index's arrays (fixed at construction). */
  get bytes(): number {
    return this.heads.byteLength + this.next.byteLength + this.high.byteLength * 3;
  }

  /** Adds a sketch (16 hex characters) under an id (0 to 2^32 - 1); false, and nothing added, when full. */
  add(sketch: string, id: number): boolean {
    if (!Number.isInteger(id) || id < 0 || id > 0xffffffff) throw new RangeError(`not a 32-bit id: ${id}`);
    const [high, low] = halvesOf(sketch);
    if (this.count >= this.capacity) return false;
    const entry = this.count++;
    this.high[entry] = high;
    this.low[entry] = low;
    this.ids[entry] = id;
    for (let b = 0; b < this.widths.length; b++) {
      const head = this.headOf(b, high, low);
      this.next[b * this.capacity + entry] = this.heads[head] ?? -1;
      this.heads[head] = entry;
    }
    return true;
  }

  /** Every entry within maxDistance bits of the sketch, nearest first (then in the order added). */
  query(sketch: string): Neighbour[] {
    const [high, low] = halvesOf(sketch);
    const found: [entry: number, distance: number][] = [];
    for (let b = 0; b < this.widths.length; b++) {
      for (let e = this.heads[this.headOf(b, high, low)] ?? -1; e >= 0; e = this.next[b * this.capacity + e] ?? -1) {
        const xh = (this.high[e] ?? 0) ^ high;
        const xl = (this.low[e] ?? 0) ^ low;
        // Found in this block's bucket only if the block agrees, and not already found in an earlier block.
        if (this.firstEqualBlock(xh, xl) !== b) continue;
        const distance = popcount32(xh) + popcount32(xl);
        if (distance <= this.maxDistance) found.push([e, distance]);
      }
    }
    found.sort((a, b) => a[1] - b[1] || a[0] - b[0]);
    return found.map(([e, distance]) => ({ id: this.ids[e] ?? 0, distance }));
  }

  /** The first block on which two sketches agree, given their XOR; -1 when none does. */
  private firstEqualBlock(xorHigh: number, xorLow: number): number {
    for (let b = 0; b < this.widths.length; b++)
      if (bitsOf(xorHigh, xorLow, this.offsets[b] ?? 0, this.widths[b] ?? 1) === 0) return b;
    return -1;
  }

  /** Where block b's bucket head for a sketch is: the block's value itself, or a hash of it when it has more bits. */
  private headOf(b: number, high: number, low: number): number {
    const width = this.widths[b] ?? 1;
    const bits = this.slotBits[b] ?? 0;
    const value = bitsOf(high, low, this.offsets[b] ?? 0, width);
    const slot = bits === width ? value : bits === 0 ? 0 : Math.imul(value, 0x9e3779b1) >>> (32 - bits);
    return (this.headStart[b] ?? 0) + slot;
  }
}
