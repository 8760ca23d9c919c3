/**
 * test/support/walkthrough.ts, which reads the README's walk-through for test/system/readme-walkthrough.test.ts: the
 * README's answers read as shapes, and a shape refuses what differs from it (else that test would assert nothing).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readShape, readWalkthrough, shapeProblems } from '../support/walkthrough.ts';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

describe("the README's walk-through", () => {
  it('reads as commands, each with an answer that is a shape or words', () => {
    const { steps, npmStartArgs, serve } = readWalkthrough(readme);
    expect(npmStartArgs[0]).toBe('--var');
    expect(serve).toMatch(/^python3 -m http\.server 8000 --bind 127\.0\.0\.1$/);
    const shapes = steps.map((step) => readShape(step.answer));
    expect(shapes.filter((shape) => shape === null)).toHaveLength(1);
    expect(shapes[0]).toEqual({
      shape: { kind: 'object', members: [['ok', { kind: 'literal', value: true }]], open: false },
      rest: '',
    });
  });
});

describe('a shape', () => {
  const read = (text: string) => {
    const shown = readShape(text);
    if (shown === null) throw new Error(`not a shape: ${text}`);
    return shown.shape;
  };

  it('takes "…" in a string for any string, {…} for any object, and a "…" member or item for more', () => {
    const shape = read('{"id":"5b6291e5-…","n":4,"config":{…},"list":[{"a":1}, …], …}');
    expect(shapeProblems(shape, { id: 'x', n: 0, config: { b: [] }, list: [{ a: 2 }, { a: 3 }], extra: true })).toEqual(
      [],
    );
  });

  it('refuses a missing key, a key it does not show, another type, and items of another shape', () => {
    expect(shapeProblems(read('{"ok":true}'), { ok: false })).toEqual(['$.ok: false is not true']);
    expect(shapeProblems(read('{"id":"…","n":1}'), { id: 'x' })).toEqual(['$.n: missing']);
    expect(shapeProblems(read('{"id":"…"}'), { id: 'x', more: 1 })).toEqual([
      '$: has more, which the README does not show (nor a "…")',
    ]);
    expect(shapeProblems(read('{"n":1}'), { n: '1' })).toEqual(['$.n: "1" is not a number']);
    expect(shapeProblems(read('{"list":[{"a":1}, …]}'), { list: [{ a: 1 }, { a: 'x' }] })).toEqual([
      '$.list[1].a: "x" is not a number',
    ]);
    expect(shapeProblems(read('{"list":[1]}'), { list: [1, 2] })).toEqual(['$.list: 2 items where the README shows 1']);
  });

  it('keeps the words after it', () => {
    expect(readShape('{"cursor":"…"}   <- pass it back')?.rest).toBe('<- pass it back');
  });
});
