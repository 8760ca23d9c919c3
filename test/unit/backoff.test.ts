import { describe, expect, it } from 'vitest';
import { backoffSeconds } from '../../src/domain/fetch/backoff';

describe('backoffSeconds', () => {
  it('grows exponentially with jitter between half and the whole ceiling, capped', () => {
    expect(backoffSeconds(1, 2, 300, () => 0)).toBe(1);
    expect(backoffSeconds(1, 2, 300, () => 1)).toBe(2);
    expect(backoffSeconds(4, 2, 300, () => 0)).toBe(8);
    expect(backoffSeconds(4, 2, 300, () => 1)).toBe(16);
    expect(backoffSeconds(30, 2, 300, () => 1)).toBe(300);
    expect(backoffSeconds(0, 2, 300, () => 0)).toBe(1);
  });
});
