import { describe, expect, it } from 'vitest';
import { safeEqual } from '../../src/api/auth';

describe('safeEqual', () => {
  it('compares secrets of any length', async () => {
    expect(await safeEqual('abc', 'abc')).toBe(true);
    expect(await safeEqual('abc', 'abd')).toBe(false);
    expect(await safeEqual('abc', 'abcd')).toBe(false);
  });
});
