import { collapse, type DomElement, isElement, TEXT_NODE } from '../dom';
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
 * A fact: a short "Label: value" line ("Price: 10.50", "Stock: 4", "Country of origin: Portugal"), the label a few
 * words that start with a letter. Lines whose label names the page's meta (tags, a category, who posted it, when) are
 * meta lines, not facts.
 */
const FACT = /^(\p{L}[\p{L}\p{N}\p{M} ()/&.'’-]{0,39}?)\s*[:：]\s*\S/u;
const FACT_LONGEST = 100;
const META_LABEL =
  /^(?:tags?|tagged|categor(?:y|ies)|filed under|posted|published|updated|written|date|by|author|authors?|comments?|share|keywords|topics?|schlagw(?:o|ö)rter?|stichw(?:o|ö)rter|kategorien?|autor(?:in)?|datum|veröffentlicht|aktualisiert|teilen|kommentare?|étiquettes?|catégories?|auteur|publié|mots-clés|etiquetas|categorías?|autor|publicado|eingetragen|stand)(?:\s|$)/iu;

/** A value that is a date or a time: the line says when the page was published or updated ("Stand: 07.11.2023"). */
const DATE_VALUE = /^\d{1,2}[./-]\d{1,2}[./-]\d{2,4}\b|^\d{4}-\d{2}-\d{2}\b|^\d{1,2}:\d{2}\b/;

/** Whether a text reads as a fact line (see FACT). */
export function factLine(text: string): boolean {
  const line = collapse(text);
  if (line.length > FACT_LONGEST) return false;
  const match = FACT.exec(line);
  const label = match?.[1];
  if (!match || label === undefined || META_LABEL.test(label.trim())) return false;
  return !DATE_VALUE.test(line.slice(match[0].length - 1));
}

/** The lines in a run of two or more consecutive fact lines: a product's or a place's facts, content however short. */
function factRuns(all: readonly DomElement[]): Set<DomElement> {
  const facts = all.map((line) => !STOP.has(line.localName) && factLine(line.textContent ?? ''));
  const kept = new Set<DomElement>();
  for (const [i, line] of all.entries()) if (facts[i] && (facts[i - 1] || facts[i + 1])) kept.add(line);
  return kept;
}

/**
 * Cuts meta lines from the edges of the content: at the start a date, a category or a byline before the text
 * (headings stay), at the end "Share", tags, "Comments" and the headings of what follows the article. A run of fact
 * lines ("Price: 10.50", "Stock: 4") stops the cut: it is what a short product page ends with.
 */
export function trimEdges(root: DomElement): void {
  const all = lines(root);
  if (all.length < 4) return;
  const facts = factRuns(all);
  const cuttable = (line: DomElement) => line !== root && !facts.has(line) && metaLine(line);
  for (const line of all.slice(0, EDGE_LINES)) {
    if (HEADING.test(line.localName)) continue;
    if (!cuttable(line)) break;
    line.remove();
  }
  for (const line of all.slice(-EDGE_LINES).reverse()) {
    if (!cuttable(line)) break;
    line.remove();
  }
}
