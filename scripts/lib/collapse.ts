/**
 * What a collapse is, for bench:extract and measure:extract alike: a page whose extraction lost its main text (a
 * wrong block chosen, the body thrown away), not one that trimmed it. One definition per kind of label:
 * - against a labelled main text (web-content-2025's `main_content`): the text holds under a fifth of the main text's
 *   tokens while that has 50 or more, or holds no token at all while the main text has any (the page has prose);
 * - against snippets of main text (trafilatura-eval's `with`): the page has 2 or more and the text holds none of them,
 *   or the text is empty while the page has one.
 * Tokens are web-content-2025's score.py's: Python's `\w+` over the lower-cased text, counted as bags.
 */

const COLLAPSE_SHARE = 0.2;
const COLLAPSE_MIN_TOKENS = 50;
const COLLAPSE_MIN_SNIPPETS = 2;

/**
 * Lower-cased word tokens as score.py counts them: Python's `\w` is a letter, a number or `_` (str.isalnum, which
 * takes no combining mark, as `\p{L}\p{N}` takes none).
 */
function words(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const t of text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []) counts.set(t, (counts.get(t) ?? 0) + 1);
  return counts;
}

/** A text's tokens against a main text's: kept (the bags' overlap), got (the text's), truth (the main text's). */
export interface TokenCounts {
  kept: number;
  got: number;
  truth: number;
}

const sizeOf = (bag: Map<string, number>) => [...bag.values()].reduce((a, b) => a + b, 0);

export function tokenCounts(text: string, mainText: string): TokenCounts {
  const got = words(text);
  const truth = words(mainText);
  const kept = [...got].reduce((sum, [t, n]) => sum + Math.min(n, truth.get(t) ?? 0), 0);
  return { kept, got: sizeOf(got), truth: sizeOf(truth) };
}

/** A collapse against a labelled main text (see above). */
export function mainTextCollapsed(c: TokenCounts): boolean {
  if (c.truth === 0) return false;
  if (c.got === 0) return true;
  return c.truth >= COLLAPSE_MIN_TOKENS && c.kept < COLLAPSE_SHARE * c.truth;
}

/** A collapse against snippets: `found` of the page's `snippets` in the text (see above). */
export function snippetsCollapsed(text: string, found: number, snippets: number): boolean {
  if (snippets === 0) return false;
  if (text.trim() === '') return true;
  return snippets >= COLLAPSE_MIN_SNIPPETS && found === 0;
}
