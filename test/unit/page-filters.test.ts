import { describe, expect, it } from 'vitest';
import { parseContentType, parseStatus } from '../../src/api/page-filter-schemas';
import { pageListQuerySchema } from '../../src/api/schemas';
import { filterConditions, isFiltered } from '../../src/storage/d1/page-filters';
import { holdsWords, segmentReads } from '../../src/storage/page-text';

describe('page filters', () => {
  it('parse status codes and classes, and content types', () => {
    expect(parseStatus('404')).toEqual({ code: 404 });
    expect(parseStatus('4xx')).toEqual({ class: 4 });
    expect(['6xx', '40', '4044', 'xx', ''].map(parseStatus)).toEqual([null, null, null, null, null]);
    expect(parseContentType('html')).toEqual(['text/html', 'application/xhtml+xml']);
    expect(parseContentType('image/')).toEqual(['image/']);
    expect(parseContentType('text/html')).toEqual(['text/html']);
    expect(parseContentType("text/html' or 1=1")).toBeNull();
    expect(parseContentType('application')).toBeNull();
  });

  it('read a query: comma lists, lower case, each value checked', () => {
    const query = pageListQuerySchema.parse({ status: '404, 5XX', contentType: 'HTML,pdf', outcome: 'failed,skipped' });
    expect(query.status).toEqual([{ code: 404 }, { class: 5 }]);
    expect(query.contentType).toEqual(['text/html', 'application/xhtml+xml', 'application/pdf']);
    expect(query.outcome).toEqual(['failed', 'skipped']);
    expect(pageListQuerySchema.safeParse({ status: Array(11).fill('200').join(',') }).success).toBe(false);
    expect(pageListQuerySchema.safeParse({ rendered: 'yes' }).success).toBe(false);
    expect(pageListQuerySchema.safeParse({ change: 'new', order: 'recent' }).success).toBe(false);
  });

  it('build SQL with placeholders only: nothing of the request is in it', () => {
    const conditions = filterConditions({
      q: ["50%_'Ab"],
      status: [{ code: 404 }, { class: 2 }],
      contentType: ["x/'y"],
      change: ['new'],
      rendered: true,
      outcome: ['stored', 'failed'],
      duplicates: 'exclude',
    });
    const sql = conditions.map((c) => c.sql).join(' AND ');
    expect(sql).not.toMatch(/50|x\/|404|'new'/);
    expect(conditions.flatMap((c) => c.binds)).toEqual([
      "50%_'ab",
      "50%_'ab",
      "50%_'ab",
      404,
      200,
      299,
      4,
      "x/'y",
      'new',
    ]);
    expect(sql).toContain('rendered IS NOT NULL');
    expect(sql).toContain('duplicate_of IS NULL');
    expect(isFiltered({ duplicates: 'exclude' })).toBe(false);
    expect(isFiltered({ q: [] })).toBe(false);
    expect(isFiltered({ rendered: false })).toBe(true);
  });
});

describe('text search', () => {
  it('reads the records of a segment in one ranged read, apart when far apart or whole objects', () => {
    const reads = segmentReads([
      { key: 'a', offset: 500, length: 100 },
      { key: 'b', offset: 0, length: 10 },
      { key: 'a', offset: 100, length: 50 },
      { key: 'c', offset: null, length: null },
      { key: 'a', offset: 20_000_000, length: 10 },
    ]);
    expect(reads).toEqual([
      { at: { key: 'c', offset: null, length: null }, members: [3] },
      { at: { key: 'a', offset: 100, length: 500 }, members: [2, 0] },
      { at: { key: 'a', offset: 20_000_000, length: 10 }, members: [4] },
      { at: { key: 'b', offset: 0, length: 10 }, members: [1] },
    ]);
  });

  it('matches every word, anywhere, ignoring case', () => {
    expect(holdsWords('The Durable Object', ['durable', 'obj'])).toBe(true);
    expect(holdsWords('The Durable Object', ['durable', 'queue'])).toBe(false);
  });
});
