/**
 * A compact in-memory index from string keys to numbers (e.g. the row a key is stored in), by a 32-bit fingerprint of
 * the key: 8 bytes a slot, at most three slots in four used, so 11 to 21 bytes per key, and no string kept. It answers
 * every value added under a key of the same fingerprint: the caller checks the key where the value leads (two keys
 * may share a fingerprint), so the answers are exact. A value removed leaves a tombstone, dropped when the slots next
 * grow or are rebuilt.
 */

/** FNV-1a (32 bits) of the key's UTF-16 code units. */
export function fingerprint(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

const FIRST_SLOTS = 1024;
/** A removed value's slot: taken for probing, matches no lookup. */
const TOMB = 0xffffffff;

export class FingerprintIndex {
  /** The fingerprint of each slot's key. */
  private prints = new Uint32Array(FIRST_SLOTS);
  /** Each slot's value + 1; 0: the slot is empty. */
  private values = new Uint32Array(FIRST_SLOTS);
  /** Slots taken (values and tombstones). */
  private count = 0;
  private tombs = 0;

  /** Values held (added and not removed). */
  get size(): number {
    return this.count - this.tombs;
  }

  /** Bytes the slots take. */
  get bytes(): number {
    return this.values.byteLength + this.prints.byteLength;
  }

  /** Adds `value` (0 to 2^32 - 3) under `key`. */
  add(key: string, value: number): void {
    if ((this.count + 1) * 4 > this.values.length * 3) this.grow();
    this.place(fingerprint(key), value + 1);
    this.count += 1;
  }

  /** Removes one `value` added under `key` (none: nothing changes). */
  remove(key: string, value: number): void {
    const print = fingerprint(key);
    const mask = this.values.length - 1;
    for (let i = print & mask; this.values[i] !== 0; i = (i + 1) & mask)
      if (this.prints[i] === print && this.values[i] === value + 1) {
        this.values[i] = TOMB;
        this.tombs += 1;
        return;
      }
  }

  /** The values added under `key`, or under another key of its fingerprint, in the order added. */
  lookup(key: string): number[] {
    const print = fingerprint(key);
    const mask = this.values.length - 1;
    const found: number[] = [];
    for (let i = print & mask; this.values[i] !== 0; i = (i + 1) & mask)
      if (this.prints[i] === print && this.values[i] !== TOMB) found.push((this.values[i] ?? 1) - 1);
    return found;
  }

  private place(print: number, stored: number): void {
    const mask = this.values.length - 1;
    let i = print & mask;
    while (this.values[i] !== 0) i = (i + 1) & mask;
    this.prints[i] = print;
    this.values[i] = stored;
  }

  /**
   * Every value placed again, tombstones dropped (in slot order, so a key's values keep their order): in twice the
   * slots, or as many when the values left fill at most half of them.
   */
  private grow(): void {
    const [prints, values] = [this.prints, this.values];
    const slots = (this.count - this.tombs) * 2 <= values.length ? values.length : values.length * 2;
    this.prints = new Uint32Array(slots);
    this.values = new Uint32Array(slots);
    const start = values.indexOf(0);
    for (let n = 0; n < values.length; n++) {
      const i = (start + n) % values.length;
      const stored = values[i] ?? 0;
      if (stored !== 0 && stored !== TOMB) this.place(prints[i] ?? 0, stored);
    }
    this.count -= this.tombs;
    this.tombs = 0;
  }
}
