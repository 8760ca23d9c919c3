import { describe, expect, it } from 'vitest';
import { chooseInterval, fillSeries, MAX_POINTS } from '../../src/domain/crawl/series';

describe('chooseInterval', () => {
  it('picks the shortest round interval that covers the span in the points asked for', () => {
    expect(chooseInterval(0)).toBe(1);
    expect(chooseInterval(30_000)).toBe(1);
    expect(chooseInterval(61_000)).toBe(2);
    expect(chooseInterval(10 * 60_000)).toBe(10);
    expect(chooseInterval(3 * 3600_000)).toBe(300);
    expect(chooseInterval(10 * 86_400_000, 10)).toBe(86_400);
    expect(chooseInterval(100 * 86_400_000, 10)).toBe(864_000);
    expect(chooseInterval(3600_000, 3600)).toBe(1);
  });
});

describe('fillSeries', () => {
  it('lays the counts on a time axis with zeros where nothing happened', () => {
    const series = fillSeries(
      [
        { at: 10_000, fetched: 3 },
        { at: 30_000, fetched: 1 },
        { at: 30_000, failed: 2 },
      ],
      10_500,
      40_000,
      10,
    );
    expect(series).toEqual([
      { at: 10_000, fetched: 3, failed: 0 },
      { at: 20_000, fetched: 0, failed: 0 },
      { at: 30_000, fetched: 1, failed: 2 },
      { at: 40_000, fetched: 0, failed: 0 },
    ]);
  });

  it('never returns more than MAX_POINTS points', () => {
    expect(fillSeries([], 0, 10 * MAX_POINTS * 1000, 1)).toHaveLength(MAX_POINTS);
  });
});
