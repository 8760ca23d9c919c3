/**
 * The part of the DOM that extraction uses, typed here: linkedom's own types do not resolve under the Workers
 * types, so its document comes in through parseDocument() as these interfaces.
 */
import { parseHTML } from 'linkedom/worker';
import { boundMarkup } from './bound';
// For its effect: linkedom makes no listener map per node (a third of parsing's CPU).
import './listeners';
import { PAGE_LIMITS } from './spec';

const ELEMENT_NODE = 1;
export const TEXT_NODE = 3;

export interface DomNode {
  readonly nodeType: number;
  readonly parentNode: DomNode | null;
  readonly childNodes: ArrayLike<DomNode>;
  textContent: string | null;
}

export interface DomElement extends DomNode {
  /** Lower-case tag name. */
  readonly localName: string;
  readonly children: ArrayLike<DomElement>;
  readonly attributes: ArrayLike<{ readonly name: string; readonly value: string }>;
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  removeAttribute(name: string): void;
  querySelector(selector: string): DomElement | null;
  querySelectorAll(selector: string): ArrayLike<DomElement>;
  matches(selector: string): boolean;
  cloneNode(deep: boolean): DomElement;
  remove(): void;
  /** Joins adjacent text nodes (linkedom makes a text node of each character reference). */
  normalize(): void;
  readonly firstChild: DomNode | null;
  readonly firstElementChild: DomElement | null;
  readonly nextElementSibling: DomElement | null;
  readonly previousElementSibling: DomElement | null;
  insertBefore(node: DomNode, before: DomNode | null): void;
  innerHTML: string;
  readonly outerHTML: string;
}

export interface DomDocument {
  readonly documentElement: DomElement;
  readonly body: DomElement | null;
  readonly head: DomElement | null;
  querySelector(selector: string): DomElement | null;
  querySelectorAll(selector: string): ArrayLike<DomElement>;
  createElement(tag: string): DomElement & { append(...nodes: DomNode[]): void };
}

/**
 * Parses HTML into a document. linkedom builds the tree right only from a page with both <html> and <body>: other
 * markup (a fragment, or a page that leaves <html>, <head> or <body> implied, as HTML allows) is put in one,
 * keeping <html>'s attributes (its lang) and what came before </head> in the head.
 */
function parseDocument(html: string): DomDocument {
  if (/<html[\s>]/i.test(html) && /<body[\s>]/i.test(html)) return parseHTML(html).document;
  const htmlAttributes = /<html(\s[^>]*)?>/i.exec(html)?.[1] ?? '';
  const strip = (part: string) => part.replace(/<!doctype[^>]*>/i, '').replace(/<\/?(html|head|body)(\s[^>]*)?>/gi, '');
  const headEnd = html.search(/<\/head\s*>/i);
  const head = headEnd >= 0 ? strip(html.slice(0, headEnd)) : '';
  const body = strip(headEnd >= 0 ? html.slice(headEnd) : html);
  return parseHTML(`<!DOCTYPE html><html${htmlAttributes}><head>${head}</head><body>${body}</body></html>`).document;
}

/**
 * Parses HTML within PAGE_LIMITS' parse bounds (see bound.ts), saying in `warnings` what was flattened or cut;
 * `whole` is false when the end of the page was not parsed.
 */
export function parseBounded(html: string, warnings: string[]): { document: DomDocument; whole: boolean } {
  const { parseDepth: depth, parseElements: elements, parseNodes: nodes } = PAGE_LIMITS;
  const bounded = boundMarkup(html, { depth, elements, nodes });
  if (bounded.flattened > 0)
    warnings.push(
      `page: ${bounded.flattened} elements nested deeper than ${depth} were flattened into their ancestors (their text kept)`,
    );
  if (bounded.cutAt !== null) {
    const what =
      bounded.cutBy === 'elements'
        ? `${elements} elements`
        : `${nodes} nodes (tags, attributes, comments and character references)`;
    warnings.push(
      `page: parsed up to ${what}, ${bounded.cutAt} of ${html.length} characters; the rest is not extracted`,
    );
  }
  const document = parseDocument(bounded.html);
  // Each character reference is a text node of its own: 1 MB of &amp; is 200,000 nodes, and every walk (main
  // content detection reads textContent again and again) pays for each. Joined, they cost nothing; only past a
  // count no real page reaches, as joining changes how Readability wraps text.
  if (bounded.entities > PAGE_LIMITS.joinEntities) document.documentElement.normalize();
  return { document, whole: bounded.cutAt === null };
}

export const isElement = (node: DomNode): node is DomElement => node.nodeType === ELEMENT_NODE;

/** Whitespace runs as one space, trimmed. */
export const collapse = (text: string | null | undefined): string => (text ?? '').replace(/\s+/g, ' ').trim();

/** Matches of a selector, or [] when the selector is one this DOM cannot run. */
export function selectAll(root: DomElement | DomDocument, selector: string): DomElement[] {
  try {
    return Array.from(root.querySelectorAll(selector));
  } catch {
    return [];
  }
}

/** Whether a CSS selector can be run, and why not: for validating specs before any page is fetched. */
export function selectorError(selector: string): string | null {
  try {
    parseDocument('<p></p>').querySelector(selector);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** An absolute http(s) URL for `href` against `base`, or null (javascript:, data:, unparsable). */
export function absoluteUrl(href: string | null | undefined, base: string): string | null {
  const value = href?.trim();
  if (!value) return null;
  try {
    const url = new URL(value, base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/** The base URL of a document: its first <base href> resolved against the page URL, or the page URL. */
export function baseUrlOf(document: DomDocument, pageUrl: string): string {
  const href = document.querySelector('base[href]')?.getAttribute('href');
  return absoluteUrl(href, pageUrl) ?? pageUrl;
}

/**
 * Whether elements nest deeper than `limit` below `root`: walked without recursion, from element to element (no
 * list of children made per element: this runs on every page).
 */
export function nestsDeeperThan(root: DomElement, limit: number): boolean {
  let depth = 0;
  let node: DomElement | null = root;
  while (node) {
    const child: DomElement | null = node.firstElementChild;
    if (child) {
      if (++depth > limit) return true;
      node = child;
      continue;
    }
    // Up to the first ancestor (below root) with a next sibling.
    while (node && node !== root && !node.nextElementSibling) {
      node = node.parentNode as DomElement | null;
      depth--;
    }
    node = node && node !== root ? node.nextElementSibling : null;
  }
  return false;
}

/** An image's address: src, or the lazy-loading attributes pages use instead, or the first srcset candidate. */
export function imageSource(img: DomElement): string | null {
  for (const name of ['src', 'data-src', 'data-lazy-src', 'data-original']) {
    const value = img.getAttribute(name)?.trim();
    if (value && !value.startsWith('data:')) return value;
  }
  const srcset = img.getAttribute('srcset') ?? img.getAttribute('data-srcset');
  return srcset?.trim().split(/\s+/)[0] ?? null;
}

/**
 * The page's body. Markup with text before <html> (a server's warnings) or with two <body> tags leaves linkedom with an
 * empty body beside the real one: the body with the most text is the page's.
 */
export function bodyOf(document: DomDocument): DomElement {
  const bodies = selectAll(document, 'body');
  if (bodies.length <= 1) return document.body ?? document.documentElement;
  let best = bodies[0] ?? document.documentElement;
  for (const body of bodies) if ((body.textContent ?? '').length > (best.textContent ?? '').length) best = body;
  return best;
}
