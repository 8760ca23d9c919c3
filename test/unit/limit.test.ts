import { describe, expect, it } from 'vitest';
import { limiter } from '../../src/lib/limit';

describe('limiter', () => {
  it('runs at most n tasks at once, in order, and passes results and errors through', async () => {
    const limit = limiter(3);
    let running = 0;
    let peak = 0;
    const started: number[] = [];
    const task = (i: number) => async () => {
      started.push(i);
      running++;
      peak = Math.max(peak, running);
      await new Promise((r) => setTimeout(r, 5 + (i % 3)));
      running--;
      if (i === 4) throw new Error('four');
      return i * 2;
    };
    const results = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => limit(task(i))));
    expect(peak).toBe(3);
    expect(started).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(results[4]).toMatchObject({ status: 'rejected', reason: new Error('four') });
    expect(
      results.filter((r) => r.status === 'fulfilled').map((r) => (r as PromiseFulfilledResult<number>).value),
    ).toEqual([0, 2, 4, 6, 10, 12, 14, 16, 18]);
    // A failed task frees its place: everything after it still ran.
    expect(running).toBe(0);
  });
});
