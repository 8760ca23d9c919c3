import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** Characters of text one tool result holds at most; the rest is asked for with `offset` (or a cursor). */
const MAX_OUTPUT_CHARS = 20_000;

/** A tool error: the result an agent reads as failed, with the reason (the API's message where there is one). */
export class ToolError extends Error {}

export const textResult = (...texts: string[]): CallToolResult => ({
  content: texts.map((text) => ({ type: 'text', text })),
});

export const errorResult = (message: string): CallToolResult => ({
  content: [{ type: 'text', text: message }],
  isError: true,
});

/** Compact JSON for an agent to read. */
export const json = (value: unknown): string => JSON.stringify(value);

/**
 * The part of `text` from `offset`, at most MAX_OUTPUT_CHARS long (not splitting a surrogate pair), followed by a
 * note saying where it stopped and what `continueWith(next)` to call for the rest when there is more.
 */
export function window(text: string, offset: number, continueWith: (next: number) => string): string {
  if (offset > 0 && offset >= text.length)
    throw new ToolError(`offset ${offset} is past the end: the text has ${text.length} characters`);
  let end = Math.min(text.length, offset + MAX_OUTPUT_CHARS);
  const last = text.charCodeAt(end - 1);
  if (end < text.length && last >= 0xd800 && last <= 0xdbff) end -= 1;
  const part = text.slice(offset, end);
  if (end >= text.length) return offset === 0 ? part : `${part}\n\n[characters ${offset}–${end} of ${end}: the end]`;
  return `${part}\n\n[cut: characters ${offset}–${end} of ${text.length}; for the rest, ${continueWith(end)}]`;
}

/** Text that is not paged (a JSON listing): cut at MAX_OUTPUT_CHARS with a note saying how to ask for less. */
export function capped(text: string, howToAskForLess: string): string {
  if (text.length <= MAX_OUTPUT_CHARS) return text;
  return `${text.slice(0, MAX_OUTPUT_CHARS)}\n\n[cut at ${MAX_OUTPUT_CHARS} of ${text.length} characters; ${howToAskForLess}]`;
}
