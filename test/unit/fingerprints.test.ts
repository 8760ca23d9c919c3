import { describe, expect, it } from 'vitest';
import { FingerprintIndex, fingerprint } from '../../src/domain/crawl/fingerprints';

describe('FingerprintIndex', () => {
  it('answers the value of each key added, through growth, and nothing for keys never added', () => {
    const index = new FingerprintIndex();
    for (let n = 0; n < 50_000; n++) index.add(`key ${n}`, n % 1000);
    expect(index.size).toBe(50_000);
    for (let n = 0; n < 50_000; n += 997) expect(index.lookup(`key ${n}`)).toContain(n % 1000);
    const strays = Array.from({ length: 1000 }, (_, n) => index.lookup(`other ${n}`).length);
    // A stray key matches only by a shared fingerprint: about 50,000 / 2^32 of the time.
    expect(strays.filter((found) => found > 0).length).toBeLessThanOrEqual(1);
  });

  it('answers every value under one fingerprint, in the order added', () => {
    const index = new FingerprintIndex();
    index.add('a', 7);
    for (let n = 0; n < 3000; n++) index.add(`filler ${n}`, 1);
    index.add('a', 3);
    index.add('a', 0);
    expect(index.lookup('a')).toEqual([7, 3, 0]);
  });

  it('removes one value of a key, keeps the others and those probed past it, and reuses the slots', () => {
    const index = new FingerprintIndex();
    index.add('a', 7);
    index.add('a', 3);
    for (let n = 0; n < 700; n++) index.add(`k ${n}`, n);
    index.remove('a', 7);
    index.remove('a', 99);
    expect(index.lookup('a')).toEqual([3]);
    for (let n = 0; n < 700; n += 2) index.remove(`k ${n}`, n);
    expect(index.size).toBe(351);
    for (let n = 0; n < 700; n++) expect(index.lookup(`k ${n}`)).toEqual(n % 2 === 0 ? [] : [n]);
    // Adding and removing as many as it holds, over and over, does not grow the slots: tombstones are dropped.
    const bytes = index.bytes;
    for (let round = 0; round < 20; round++) {
      for (let n = 0; n < 300; n++) index.add(`r${round} ${n}`, n);
      for (let n = 0; n < 300; n++) index.remove(`r${round} ${n}`, n);
    }
    expect(index.bytes).toBe(bytes);
    expect(index.lookup('a')).toEqual([3]);
    expect(index.size).toBe(351);
  });

  it('fingerprints with 32 bits of FNV-1a', () => {
    expect(fingerprint('')).toBe(0x811c9dc5);
    expect(fingerprint('a')).toBe(0xe40c292c);
  });
});
