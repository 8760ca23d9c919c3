import { describe, expect, it } from 'vitest';
import { diffLines } from '../../src/domain/output/line-diff';

const lines = (n: number, from = 1) => Array.from({ length: n }, (_, i) => `line ${i + from}`).join('\n');

describe('diffLines', () => {
  it('is empty for the same text', () => {
    expect(diffLines('a\nb\n', 'a\nb\n')).toEqual({ unified: '', added: 0, removed: 0, tooLarge: false });
  });

  it('prints a changed line with three lines of context, as diff -u does', () => {
    const before = lines(10);
    const after = before.replace('line 5', 'line five');
    expect(diffLines(before, after).unified).toBe(
      '@@ -2,7 +2,7 @@\n line 2\n line 3\n line 4\n-line 5\n+line five\n line 6\n line 7\n line 8\n',
    );
  });

  it('keeps changes far apart in their own hunks, and merges near ones', () => {
    const before = lines(30);
    const far = before.replace('line 3\n', 'line three\n').replace('line 25\n', '');
    expect(diffLines(before, far).unified.match(/^@@ .* @@$/gm)).toEqual(['@@ -1,6 +1,6 @@', '@@ -22,7 +22,6 @@']);
    const near = before.replace('line 3\n', '').replace('line 8\n', 'line eight\n');
    expect(diffLines(before, near).unified.match(/^@@ .* @@$/gm)).toEqual(['@@ -1,11 +1,10 @@']);
  });

  it('handles additions at the start, removals at the end, and empty texts', () => {
    expect(diffLines('b\nc', 'a\nb\nc').unified).toBe('@@ -1,2 +1,3 @@\n+a\n b\n c\n');
    expect(diffLines('a\nb\nc', 'a\nb').unified).toBe('@@ -1,3 +1,2 @@\n a\n b\n-c\n');
    expect(diffLines('', 'a')).toMatchObject({ unified: '@@ -0,0 +1,1 @@\n+a\n', added: 1, removed: 0 });
    expect(diffLines('a', '')).toMatchObject({ unified: '@@ -1,1 +0,0 @@\n-a\n', added: 0, removed: 1 });
  });

  it('counts lines added and removed, and gives up past maxEdits', () => {
    expect(diffLines(lines(5), lines(5, 3))).toMatchObject({ added: 2, removed: 2, tooLarge: false });
    expect(diffLines(lines(50), lines(50, 100), { maxEdits: 20 })).toEqual({
      unified: '',
      added: 50,
      removed: 50,
      tooLarge: true,
    });
  });
});
