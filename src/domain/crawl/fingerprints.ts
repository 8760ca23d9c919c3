/**
 * A compact in-memory index from string keys to numbers (e.g. the row a key is stored in), by a 32-bit fingerprint of
 * the key: 8 bytes a slot, at most three slots in four used, so 11 to 21 bytes per key, and no string kept. It answers
 * every value added under a key of the same fingerprint: the caller checks the key where the value leads (two keys
 * may share a fingerprint), so the answers are exact.
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

export class FingerprintIndex {
  /** The fingerprint of each slot's key. */
  private prints = new Uint32Array(FIRST_SLOTS);
  /** Each slot's value + 1; 0: the slot is empty. */
  private values = new Uint32Array(FIRST_SLOTS);
  private count = 0;

  /** Keys added. */
  get size(): number {
    return this.count;
  }

  /** Adds `value` (0 to 2^32 - 2) under `key`. */
  add(key: string, value: number): void {
    if ((this.count + 1) * 4 > this.values.length * 3) this.grow();
    this.place(fingerprint(key), value + 1);
    this.count += 1;
  }

  /** The values added under `key`, or under another key of its fingerprint, in the order added. */
  lookup(key: string): number[] {
    const print = fingerprint(key);
    const mask = this.values.length - 1;
    const found: number[] = [];
    for (let i = print & mask; this.values[i] !== 0; i = (i + 1) & mask)
      if (this.prints[i] === print) found.push((this.values[i] ?? 1) - 1);
    return found;
  }

  private place(print: number, stored: number): void {
    const mask = this.values.length - 1;
    let i = print & mask;
    while (this.values[i] !== 0) i = (i + 1) & mask;
    this.prints[i] = print;
    this.values[i] = stored;
  }

  /** Twice the slots, every key placed again (in slot order, so a key's values keep their order). */
  private grow(): void {
    const [prints, values] = [this.prints, this.values];
    this.prints = new Uint32Array(values.length * 2);
    this.values = new Uint32Array(values.length * 2);
    const start = values.indexOf(0);
    for (let n = 0; n < values.length; n++) {
      const i = (start + n) % values.length;
      const stored = values[i] ?? 0;
      if (stored !== 0) this.place(prints[i] ?? 0, stored);
    }
  }
}
