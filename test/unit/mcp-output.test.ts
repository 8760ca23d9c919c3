/** How the MCP tools cut long text: 20,000 characters a part, a note saying where to read on, the end marked. */
import { describe, expect, it } from 'vitest';
import { capped, ToolError, window } from '../../src/api/mcp/output';

const next = (offset: number) => `call get_page with offset: ${offset}`;

describe('window', () => {
  it('answers short text as it is', () => {
    expect(window('short', 0, next)).toBe('short');
  });

  it('cuts long text in parts that join back into it, each saying where the next starts', () => {
    const text = 'abcdefghij'.repeat(4_500);
    const first = window(text, 0, next);
    expect(
      first.endsWith('\n\n[cut: characters 0–20000 of 45000; for the rest, call get_page with offset: 20000]'),
    ).toBe(true);
    const second = window(text, 20_000, next);
    expect(second).toContain('[cut: characters 20000–40000 of 45000;');
    const last = window(text, 40_000, next);
    expect(last.endsWith('\n\n[characters 40000–45000 of 45000: the end]')).toBe(true);
    const parts = [first, second, last].map((part) => part.slice(0, part.lastIndexOf('\n\n[')));
    expect(parts.join('')).toBe(text);
  });

  it('does not split a surrogate pair', () => {
    const text = `${'a'.repeat(19_999)}😀${'b'.repeat(100)}`;
    const first = window(text, 0, next);
    expect(first.startsWith(`${'a'.repeat(19_999)}\n\n[cut: characters 0–19999 of`)).toBe(true);
    expect(window(text, 19_999, next).startsWith('😀b')).toBe(true);
  });

  it('is a tool error past the end', () => {
    expect(() => window('short', 5, next)).toThrow(ToolError);
  });
});

describe('capped', () => {
  it('cuts a long listing with a note saying how to ask for less', () => {
    expect(capped('{}', 'ask for less')).toBe('{}');
    const cut = capped('x'.repeat(20_001), 'ask for a smaller limit');
    expect(cut).toBe(`${'x'.repeat(20_000)}\n\n[cut at 20000 of 20001 characters; ask for a smaller limit]`);
  });
});
