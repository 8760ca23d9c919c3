import { type DomDocument, type DomElement, type DomNode, isElement, selectAll, TEXT_NODE } from './dom';
import { textChars } from './main/stats';

/** Elements whose text a reader never sees as the page's (without scripts, `<noscript>`'s aside). */
const UNSHOWN = new Set(['script', 'style', 'noscript', 'template', 'svg', 'head']);
/** A body showing fewer characters than this without scripts is an app shell (a splash, a "loading" line). */
const SHELL_CHARS = 500;
/** `<noscript>` must hold at least this much text, and twice what the body shows, to be read as the page. */
const NOSCRIPT_CHARS = 200;

/**
 * Characters of text an element shows without scripts, counted up to `enough` (then more than it); elements in
 * `unseen` are not shown either.
 */
export function shownChars(element: DomElement, enough: number, unseen?: ReadonlySet<DomNode>): number {
  if (UNSHOWN.has(element.localName) || unseen?.has(element)) return 0;
  let chars = 0;
  const children = element.childNodes;
  for (let i = 0; i < children.length && chars <= enough; i++) {
    const child = children[i];
    if (child?.nodeType === TEXT_NODE) chars += textChars(child.textContent ?? '').chars;
    else if (child && isElement(child)) chars += shownChars(child, enough - chars, unseen);
  }
  return chars;
}

/**
 * Reads `<noscript>` as the page where the body is an app shell: an app that builds the page with scripts and
 * writes it for readers without them inside `<noscript>` (Discourse writes the whole thread there). The
 * `<noscript>` elements are replaced by what they hold; elsewhere, as in a browser with scripts, they are not content.
 * Returns whether it did.
 */
export function revealNoscript(document: DomDocument): boolean {
  // Not bodyOf(): linkedom's `document.body` may add a body, and the one chosen later must be the page's own.
  const blocks = selectAll(document, 'body noscript');
  if (blocks.length === 0) return false;
  const hidden = blocks.reduce((sum, block) => sum + textChars(block.textContent ?? '').chars, 0);
  if (hidden < NOSCRIPT_CHARS) return false;
  const shown = shownChars(document.documentElement, SHELL_CHARS);
  if (shown >= SHELL_CHARS || hidden < shown * 2) return false;
  for (const block of blocks) {
    const parent = block.parentNode;
    if (!parent || !isElement(parent)) continue;
    for (const child of Array.from(block.childNodes)) parent.insertBefore(child, block);
    block.remove();
  }
  return true;
}
