import { describe, expect, it } from 'vitest';
import { SketchIndex } from '../../src/domain/similarity/index';

/** A deterministic stream of 64-bit sketches (splitmix-like on two lanes). */
function sketches(count: number, seed = 1): string[] {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
  const hex = (n: number) => n.toString(16).padStart(8, '0');
  return Array.from({ length: count }, () => hex(next()) + hex(next()));
}

/** The sketch with the given bits (0 = the lowest of the low half, 63 = the highest of the high half) flipped. */
function flip(sketch: string, bits: number[]): string {
  let high = Number.parseInt(sketch.slice(0, 8), 16);
  let low = Number.parseInt(sketch.slice(8), 16);
  for (const bit of bits) {
    if (bit < 32) low ^= 1 << bit;
    else high ^= 1 << (bit - 32);
  }
  const hex = (n: number) => (n >>> 0).toString(16).padStart(8, '0');
  return hex(high) + hex(low);
}

function bruteForce(entries: [string, number][], query: string, k: number) {
  const distance = (a: string, b: string) => {
    let d = 0;
    for (let i = 0; i < 16; i += 8) {
      let x = (Number.parseInt(a.slice(i, i + 8), 16) ^ Number.parseInt(b.slice(i, i + 8), 16)) >>> 0;
      for (; x; x &= x - 1) d++;
    }
    return d;
  };
  return entries
    .map(([sketch, id], order) => ({ id, distance: distance(sketch, query), order }))
    .filter((e) => e.distance <= k)
    .sort((a, b) => a.distance - b.distance || a.order - b.order)
    .map(({ id, distance }) => ({ id, distance }));
}

describe('SketchIndex', () => {
  it('finds every sketch within k bits, nearest first, and none farther', () => {
    const index = new SketchIndex(100, 3);
    const base = 'f0e1d2c3b4a59687';
    index.add(flip(base, [0, 21, 40, 63]), 4); // 4 bits: out
    index.add(flip(base, [5, 33, 60]), 3);
    index.add(base, 0);
    index.add(flip(base, [31, 32]), 2); // across the two halves
    index.add(flip(base, [15]), 1);
    expect(index.query(base)).toEqual([
      { id: 0, distance: 0 },
      { id: 1, distance: 1 },
      { id: 2, distance: 2 },
      { id: 3, distance: 3 },
    ]);
    expect(index.size).toBe(5);
  });

  it('reports a sketch once even when it agrees with the query on several blocks', () => {
    const index = new SketchIndex(10, 3);
    index.add('0123456789abcdef', 7);
    index.add('0123456789abcdef', 8); // the same sketch twice: two entries
    index.add(flip('0123456789abcdef', [2]), 9);
    expect(index.query('0123456789abcdef')).toEqual([
      { id: 7, distance: 0 },
      { id: 8, distance: 0 },
      { id: 9, distance: 1 },
    ]);
  });

  it('answers what a brute-force scan answers, over many entries and bucket collisions', () => {
    const k = 4;
    const index = new SketchIndex(20_000, k);
    const entries: [string, number][] = [];
    const randoms = sketches(15_000);
    // Clusters of near sketches (as near-duplicates are), sharing blocks with each other and with the queries.
    const centres = sketches(50, 2);
    for (const [n, centre] of centres.entries())
      for (let m = 0; m < 60; m++)
        entries.push([flip(centre, [(n * 7 + m) % 64, (m * 13) % 64, (m * 29 + 5) % 64]), n * 100 + m]);
    for (const [n, s] of randoms.entries()) entries.push([s, 1_000_000 + n]);
    for (const [sketch, id] of entries) expect(index.add(sketch, id)).toBe(true);
    expect(index.size).toBe(entries.length);
    for (const centre of centres) expect(index.query(centre)).toEqual(bruteForce(entries, centre, k));
    for (const s of randoms.slice(0, 200))
      expect(index.query(flip(s, [1, 50]))).toEqual(bruteForce(entries, flip(s, [1, 50]), k));
  });

  it('uses blocks of any width: k from 0 to 10 agree with a brute-force scan', () => {
    const entries = sketches(3000, 9).map((s, n): [string, number] => [n % 3 ? s : flip(s, [n % 64]), n]);
    for (let k = 0; k <= 10; k++) {
      const index = new SketchIndex(entries.length, k);
      for (const [sketch, id] of entries) index.add(sketch, id);
      for (const [sketch] of entries.slice(0, 300)) {
        const query = flip(sketch, [3, 17, 38, 44, 59].slice(0, k % 6));
        expect(index.query(query)).toEqual(bruteForce(entries, query, k));
      }
    }
  });

  it('holds a fixed capacity: past it nothing is added', () => {
    const index = new SketchIndex(3, 3);
    const [a, b, c, d] = sketches(4) as [string, string, string, string];
    expect([index.add(a, 1), index.add(b, 2), index.add(c, 3)]).toEqual([true, true, true]);
    expect(index.add(d, 4)).toBe(false);
    expect(index.size).toBe(3);
    expect(index.query(d)).toEqual([]);
    expect(index.query(a)).toEqual([{ id: 1, distance: 0 }]);
  });

  it('keeps ids as given, up to 2^32 - 1, and refuses what is not a sketch or an id', () => {
    const index = new SketchIndex(4, 2);
    index.add('ffffffffffffffff', 0xffffffff);
    index.add('0000000000000000', 0);
    expect(index.query('fffffffffffffffe')).toEqual([{ id: 0xffffffff, distance: 1 }]);
    expect(index.query('0000000000000003')).toEqual([{ id: 0, distance: 2 }]);
    expect(() => index.add('xyz', 1)).toThrow(RangeError);
    expect(() => index.add('0000000000000000', -1)).toThrow(RangeError);
    expect(() => index.add('0000000000000000', 2 ** 32)).toThrow(RangeError);
    expect(() => index.query('0123')).toThrow(RangeError);
    expect(() => new SketchIndex(0, 3)).toThrow(RangeError);
  });

  it('takes 28 bytes an entry at k = 3, plus 1 MiB of bucket heads, for a million entries', () => {
    const index = new SketchIndex(1_000_000, 3);
    expect(index.bytes).toBe(1_000_000 * 28 + 4 * 65_536 * 4);
    // A million entries added and queried, in bounded time (no per-entry objects).
    const all = sketches(1_000_000, 3);
    for (const [n, s] of all.entries()) index.add(s, n);
    expect(index.size).toBe(1_000_000);
    for (let n = 0; n < 1_000_000; n += 9973)
      expect(index.query(flip(all[n] as string, [9, 41]))[0]).toEqual({ id: n, distance: 2 });
  });
});
