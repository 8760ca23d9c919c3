import { describe, expect, it } from 'vitest';
import { modelSlot, spacingMs } from '../../src/domain/model/pace';

describe('modelSlot', () => {
  it('spaces calls 60,000 / perMinute ms apart, and books nothing beyond the wait', () => {
    expect(spacingMs(240)).toBe(250);
    expect(spacingMs(7)).toBe(8572); // rounded up: a minute never holds an eighth
    const first = modelSlot(0, 1000, 240, 5000);
    expect(first).toEqual({ slot: { kind: 'go', startAt: 1000 }, nextFree: 1250 });
    const second = modelSlot(first.nextFree, 1000, 240, 5000);
    expect(second).toEqual({ slot: { kind: 'go', startAt: 1250 }, nextFree: 1500 });
    expect(modelSlot(10_000, 1000, 240, 5000)).toEqual({ slot: { kind: 'later', startAt: 10_000 }, nextFree: 10_000 });
  });
});
