import { CHARS_PER_TOKEN } from './limits';
import type { MarkdownCut } from './types';

/** An estimate of the tokens of `text`: ceil(characters / 4), see CHARS_PER_TOKEN. No tokenizer is loaded. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/** The marker line ending a cut page: it tells the model (and whoever reads the prompt) that the page goes on. */
function cutMarker(cut: MarkdownCut): string {
  return `[… cut: ${cut.keptChars} of ${cut.totalChars} characters kept]`;
}

/** Room for the marker line itself, whatever the numbers in it. */
const MARKER_CHARS = cutMarker({ keptChars: 1e9, totalChars: 1e9 }).length + 2;

/**
 * The Markdown cut to `tokens` (estimated), keeping its head: a page's main content starts with what extraction
 * looks for most (its title, the price, the lead), and its tail is most often related links, comments and boilerplate.
 * The cut falls at the last paragraph break of the kept part (or line break, or space, when there is none in its
 * second half) and a marker line says how much was kept.
 */
export function cutToFit(markdown: string, tokens: number): { text: string; cut: MarkdownCut | null } {
  const room = Math.max(0, tokens) * CHARS_PER_TOKEN;
  if (markdown.length <= room) return { text: markdown, cut: null };
  const kept = markdown.slice(0, boundary(markdown, Math.max(0, room - MARKER_CHARS))).trimEnd();
  const cut = { keptChars: kept.length, totalChars: markdown.length };
  return { text: kept === '' ? cutMarker(cut) : `${kept}\n\n${cutMarker(cut)}`, cut };
}

/** Where to cut `text` at or before `limit`: a paragraph break, a line break, a space, or `limit` itself. */
function boundary(text: string, limit: number): number {
  const head = text.slice(0, limit + 1);
  for (const separator of ['\n\n', '\n', ' ']) {
    const at = head.lastIndexOf(separator);
    if (at >= limit / 2) return at;
  }
  return limit;
}
