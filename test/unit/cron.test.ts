import { describe, expect, it } from 'vitest';
import { CronError, parseCron } from '../../src/domain/crawl/cron';

const next = (expr: string, iso: string) => parseCron(expr).next(new Date(iso)).toISOString();

describe('parseCron', () => {
  it('finds the next matching minute, strictly after', () => {
    expect(next('* * * * *', '2026-01-01T00:00:30Z')).toBe('2026-01-01T00:01:00.000Z');
    expect(next('*/15 * * * *', '2026-01-01T00:15:00Z')).toBe('2026-01-01T00:30:00.000Z');
    expect(next('0 3 * * *', '2026-01-01T04:00:00Z')).toBe('2026-01-02T03:00:00.000Z');
    expect(next('30 9 1 * *', '2026-01-15T00:00:00Z')).toBe('2026-02-01T09:30:00.000Z');
    expect(next('0 0 * * 1', '2026-01-01T00:00:00Z')).toBe('2026-01-05T00:00:00.000Z'); // a Monday
    expect(next('0 0 * * 7', '2026-01-01T00:00:00Z')).toBe('2026-01-04T00:00:00.000Z'); // 7 is Sunday
    expect(next('0 12 29 2 *', '2026-03-01T00:00:00Z')).toBe('2028-02-29T12:00:00.000Z');
    expect(next('5-10/5,40 * * * *', '2026-01-01T00:06:00Z')).toBe('2026-01-01T00:10:00.000Z');
  });
  it('matches either day field when both are restricted', () => {
    expect(next('0 0 13 * 5', '2026-02-01T00:00:00Z')).toBe('2026-02-06T00:00:00.000Z'); // Friday the 6th before the 13th
  });
  it('rejects malformed expressions', () => {
    for (const bad of [
      '',
      '* * * *',
      '60 * * * *',
      '* 24 * * *',
      '* * 0 * *',
      '* * * 13 *',
      '*/0 * * * *',
      '5-1 * * * *',
      'a * * * *',
      '0 0 31 2 *',
    ]) {
      expect(() => parseCron(bad).next(new Date('2026-01-01T00:00:00Z')), bad).toThrow(CronError);
    }
  });
});
