import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from '../../src/domain/output/cursor';

describe('cursors', () => {
  it('round-trip values and reject garbage', () => {
    for (const value of ['http://e.com/ä?x=1', { c: 5, i: 'id' }, 0])
      expect(decodeCursor(encodeCursor(value))).toEqual(value);
    expect(decodeCursor('!!!')).toBeUndefined();
    expect(decodeCursor('bm9wZQ')).toBeUndefined(); // "nope" is not JSON
    expect(decodeCursor('')).toBeUndefined();
  });
});
