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

/** Whether two template sketches are of the same page (a page of a pattern repeating one before it). */
export const sameTemplate = (a: string, b: string): boolean => hammingDistance(a, b) <= TEMPLATE_DISTANCE;
