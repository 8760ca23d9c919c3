/**
 * The 64-bit hashes the sketches are made of, as two 32-bit lanes (no BigInt: plain integer math, as fast in Workers
 * as in Node). A token is hashed by FNV-1a over its UTF-16 code units in each lane (two multipliers and offsets), then
 * mixed by murmur3's finalizer (tokens.ts); a shingle by its tokens' lanes, rotated by their place, XORed and mixed
 * again (sketch.ts); a short text's exact tokens by murmur3's block step.
 */

export const FNV_A = 0x811c9dc5;
export const FNV_B = 0x2c9277b5;
export const PRIME_A = 0x01000193;
export const PRIME_B = 0x5bd1e995;

/** murmur3's 32-bit finalizer: every input bit moves about half of the output bits. */
export function fmix32(value: number): number {
  let h = value ^ (value >>> 16);
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** One step of murmur3 (32 bits): `value` folded into the running hash `h` (not yet finalized). */
export function foldIn(h: number, value: number): number {
  let k = Math.imul(value, 0xcc9e2d51);
  k = (k << 15) | (k >>> 17);
  k = Math.imul(k, 0x1b873593);
  const next = h ^ k;
  return (Math.imul((next << 13) | (next >>> 19), 5) + 0xe6546b64) | 0;
}

/** Set bits of a 32-bit value. */
export function popcount32(value: number): number {
  let v = value - ((value >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

/** A token's two lanes as one exact number (53 bits), for sets of tokens. */
export function tokenKey(a: number, b: number): number {
  return (a >>> 0) * 0x200000 + (b & 0x1fffff);
}

/** Two lanes as the 16 hex characters of a sketch (lane `high` first). */
export function toHex(high: number, low: number): string {
  return (high >>> 0).toString(16).padStart(8, '0') + (low >>> 0).toString(16).padStart(8, '0');
}
