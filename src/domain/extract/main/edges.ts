import { type DomElement, isElement, TEXT_NODE } from '../dom';
import { INLINE, textChars } from './stats';

/** A line at an edge of the content this short, not ending a sentence, is a meta line (a date, a category, "Share"). */
const SHORT = 50;
/** Lines looked at on each edge. */
const EDGE_LINES = 6;
const HEADING = /^h[1-6]$/;
/** Blocks that are content however short: list items, cells, code. */
export const STOP = new Set([
  'li',
  'td',
  'th',
  'dt',
  'dd',
  'pre',
  'code',
  'table',
  'tr',
  'ul',
  'ol',
  'dl',
  'img',
  'figure',
]);

/** The blocks of a root that hold text directly, in document order. */
export function lines(root: DomElement): DomElement[] {
  const found: DomElement[] = [];
  const visit = (element: DomElement) => {
    let direct = false;
    for (const child of Array.from(element.childNodes)) {
      if (child.nodeType === TEXT_NODE) direct ||= (child.textContent ?? '').trim() !== '';
      else if (isElement(child)) {
        if (INLINE.has(child.localName) || STOP.has(child.localName)) direct ||= hasText(child);
        else visit(child);
      }
    }
    if (direct) found.push(element);
  };
  visit(root);
  return found;
}

const hasText = (element: DomElement) => (element.textContent ?? '').trim() !== '';

/** Whether a line reads as a meta line: short, and not a sentence. */
function metaLine(line: DomElement): boolean {
  const text = (line.textContent ?? '').trim();
  if (STOP.has(line.localName) || line.querySelector('pre, code, table, li, img') !== null) return false;
  return textChars(text).chars < SHORT && !/[.!?…"“”»。！？]$/.test(text);
}

/**
 * Cuts meta lines from the edges of the content: at the start a date, a category or a byline before the text
 * (headings stay), at the end "Share", tags, "Comments" and the headings of what follows the article.
 */
export function trimEdges(root: DomElement): void {
  const all = lines(root);
  if (all.length < 4) return;
  for (const line of all.slice(0, EDGE_LINES)) {
    if (HEADING.test(line.localName)) continue;
    if (!metaLine(line) || line === root) break;
    line.remove();
  }
  for (const line of all.slice(-EDGE_LINES).reverse()) {
    if (!metaLine(line) || line === root) break;
    line.remove();
  }
}
