/**
 * Labels for the blocks of a page's content, for fit:blocks: 1 boilerplate, 0 content, null not used.
 * - By snippets (both sets): boilerplate when a `without` snippet is in the block (or it, 15+ characters, in one),
 *   content when a `with` snippet is; neither or both: no label from them.
 * - By the main text (web-content-2025, where the snippets say nothing): a block of four or more words is content
 *   when 80% of its word trigrams are in the main text and boilerplate when 20% or fewer are; a shorter one is
 *   content when it is one of the main text's lines, boilerplate when its words appear nowhere in it in that order.
 */
import { norm, type Page } from './block-pages.ts';

const words = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];
const trigrams = (tokens: string[]) => tokens.slice(2).map((t, i) => `${tokens[i]} ${tokens[i + 1]} ${t}`);

/** What the main text is compared by: its word trigrams, its words in one string, and its lines. */
export interface MainText {
  trigrams: Set<string>;
  joined: string;
  lines: Set<string>;
}

export function mainText(main: string): MainText {
  const tokens = words(main);
  return {
    trigrams: new Set(trigrams(tokens)),
    joined: ` ${tokens.join(' ')} `,
    lines: new Set(main.split('\n').map((line) => words(line).join(' '))),
  };
}

const overlaps = (text: string, snippet: string) =>
  text.includes(snippet) || (text.length >= 15 && snippet.includes(text));

function bySnippets(text: string, page: Page): 0 | 1 | null {
  const good = page.with.some((s) => overlaps(text, s));
  const bad = page.without.some((s) => overlaps(text, s));
  return good === bad ? null : bad ? 1 : 0;
}

function byMain(text: string, main: MainText): 0 | 1 | null {
  const tokens = words(text);
  if (tokens.length === 0) return null;
  if (tokens.length < 4) {
    const joined = tokens.join(' ');
    if (main.lines.has(joined)) return 0;
    return main.joined.includes(` ${joined} `) ? null : 1;
  }
  const grams = trigrams(tokens);
  const share = grams.filter((g) => main.trigrams.has(g)).length / grams.length;
  return share >= 0.8 ? 0 : share <= 0.2 ? 1 : null;
}

/** A block's label from its text: the snippets first, then the main text when the page has one. */
export function labelOf(blockText: string, page: Page, main: MainText | null): 0 | 1 | null {
  const text = norm(blockText);
  const snippet = bySnippets(text, page);
  if (snippet !== null || !main) return snippet;
  return byMain(text, main);
}
