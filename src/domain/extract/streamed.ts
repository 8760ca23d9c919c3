import { shownChars } from './app-shell';
import { type DomDocument, type DomElement, type DomNode, isElement } from './dom';
import { textChars } from './main/stats';

/** A body showing fewer characters than this, hidden parts aside, is a shell (as for `<noscript>`: app-shell.ts). */
const SHELL_CHARS = 500;
/** The `[hidden]` parts must hold at least this much text, and twice what the body shows, to be read as the page. */
const STREAMED_CHARS = 200;

/**
 * The `[hidden]` elements of `never` (what clutter removal would take away) to keep as the page: a server that
 * streams its HTML writes the content late, in a hidden element that a script then moves into place (React's
 * `<div hidden id="S:0">` for a `<template id="B:0">`), so a reader with scripts sees it and the markup alone shows
 * a shell. Kept, their `hidden` attribute removed, only where the body shows almost nothing else.
 */
export function streamedContent(document: DomDocument, never: DomElement[]): Set<DomElement> {
  const kept = new Set<DomElement>();
  if (!never.some((element) => element.getAttribute('hidden') !== null)) return kept;
  // What the body shows first: counting stops at SHELL_CHARS, so a page with text of its own pays little.
  const unseen = new Set<DomNode>(never);
  const shown = shownChars(document.documentElement, SHELL_CHARS, unseen);
  if (shown >= SHELL_CHARS) return kept;
  const hidden = never.filter((element) => element.getAttribute('hidden') !== null && !within(element, unseen));
  let chars = 0;
  for (const element of hidden) chars += textChars(element.textContent ?? '').chars;
  if (chars < STREAMED_CHARS || chars < shown * 2) return kept;
  for (const element of hidden) {
    element.removeAttribute('hidden');
    kept.add(element);
  }
  return kept;
}

/** Whether an ancestor of `element` is one of `others`. */
function within(element: DomElement, others: ReadonlySet<DomNode>): boolean {
  for (let node = element.parentNode; node && isElement(node); node = node.parentNode)
    if (others.has(node)) return true;
  return false;
}

/**
 * Moves into the body what broken markup left after `</html>` (a template printing `</body></html>` before the
 * article): htmlparser2 leaves it beside the document's root, where a browser puts it at the end of the body.
 */
export function adoptStrays(document: DomDocument, body: DomElement): void {
  const root = document.documentElement;
  if (root?.localName !== 'html' || !inside(body, root)) return;
  const siblings = Array.from(root.parentNode?.childNodes ?? []);
  for (const node of siblings.slice(siblings.indexOf(root) + 1))
    if (isElement(node) && node.localName !== 'html') body.insertBefore(node, null);
}

/** Whether `node` is below `ancestor`. */
function inside(node: DomNode, ancestor: DomNode): boolean {
  for (let up = node.parentNode; up; up = up.parentNode) if (up === ancestor) return true;
  return false;
}
