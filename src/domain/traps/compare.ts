/**
 * How the crawl compares pages (docs/similarity.md): the similarity sketches of a page's main text made once in the
 * consumer, and the distances under which two are the same page: near-duplicates (`duplicates: "similar"`) by the
 * text's sketch, the trap rules' repeats (a calendar's months, a facet's lists, an echoed path, a "not found" page)
 * by the template sketch, which masks digits, month and day names and the page's own URL's words.
 */
import { hammingDistance, sketch, TEMPLATE_DISTANCE, templateSketch } from '../similarity/sketch';

/** A page's sketches: of its main text, and of its template; null for a text without a word. */
export function pageSketches(text: string, url: string): { text: string | null; template: string | null } {
  return { text: sketch(text), template: templateSketch(text, url) };
}

/**
 * Whether a page a soft 404 is told by reads as the same page as the host's answer to a made-up path: template
 * sketches within TEMPLATE_DISTANCE (3 bits; docs/similarity.md), with the page reading as not found besides.
 */
export const sameTemplate = (a: string, b: string): boolean => hammingDistance(a, b) <= TEMPLATE_DISTANCE;

/**
 * Whether a page repeats another of its pattern (a calendar's month, a facet's list, an echoed path): the same template
 * sketch, bit for bit. Stricter than sameTemplate, because a pattern is judged by its own pages only: short pages of
 * a real site that differ by a word or a name (a docs tree's numbered pages, each with a line of its own) come within
 * a few bits, while a calendar's months, a list re-sorted, a page past the end or a page any path answers are the
 * same template exactly (measured: docs/similarity.md).
 */
export const repeatsTemplate = (a: string, b: string): boolean => a === b;
