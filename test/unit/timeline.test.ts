import { describe, expect, it } from 'vitest';
import { ahead, book, endOf, firstFree, type Run, withoutOwner } from '../../src/domain/politeness/timeline';

const NOW = 1_000_000;
const run = (owner: string | null, start: number, count: number, spacing = 1000): Run => ({
  owner,
  start,
  spacing,
  count,
});

describe('a host timeline of runs', () => {
  it('books consecutive slots of one owner as one run, and another owner as a run of its own', () => {
    let runs: Run[] = [];
    for (let i = 0; i < 90; i++) runs = book(runs, 'a', firstFree(runs, NOW, 1000), 1000);
    expect(runs).toEqual([run('a', NOW, 90)]);
    runs = book(runs, 'b', firstFree(runs, NOW, 1000), 1000);
    expect(runs).toEqual([run('a', NOW, 90), run('b', NOW + 90_000, 1)]);
    expect(firstFree(runs, NOW, 1000)).toBe(NOW + 91_000);
  });

  it("gives back an owner's slots, and places the next slot in the first gap it leaves", () => {
    const runs = [run('a', NOW, 80), run('b', NOW + 80_000, 10), run('a', NOW + 90_000, 10)];
    const { runs: left, slots } = withoutOwner(runs, 'a');
    expect(slots).toBe(90);
    expect(left).toEqual([run('b', NOW + 80_000, 10)]);
    expect(firstFree(left, NOW, 1000)).toBe(NOW);
    // A slot fits in a gap only with its whole spacing before the next run; else it goes after that run.
    expect(firstFree(left, NOW + 79_500, 1000)).toBe(NOW + 90_000);
    expect(firstFree(left, NOW + 79_000, 1000)).toBe(NOW + 79_000);
    expect(firstFree([run('b', NOW + 500, 1, 5000)], NOW, 1000)).toBe(NOW + 5500);
  });

  it('keeps what is still ahead, joins a slot only to the run it continues, and books nothing of no length', () => {
    const runs = [run('a', NOW - 10_000, 5), run('a', NOW - 2000, 3)];
    expect(ahead(runs, NOW)).toEqual([run('a', NOW - 2000, 3)]);
    expect(endOf(run('a', NOW, 3, 500))).toBe(NOW + 1500);
    expect(book([run('a', NOW, 2)], 'a', NOW + 5000, 1000)).toEqual([run('a', NOW, 2), run('a', NOW + 5000, 1)]);
    expect(book([run('a', NOW, 2)], 'a', NOW + 2000, 500)).toEqual([run('a', NOW, 2), run('a', NOW + 2000, 1, 500)]);
    // In order, wherever it goes.
    expect(book([run('b', NOW + 10_000, 1)], 'a', NOW, 1000)).toEqual([run('a', NOW, 1), run('b', NOW + 10_000, 1)]);
    expect(book([run('a', NOW, 2)], 'a', NOW + 2000, 0)).toEqual([run('a', NOW, 2)]);
  });
});
