import { revealNoscript } from './app-shell';
import {
  absoluteUrl,
  bodyOf,
  collapse,
  type DomDocument,
  type DomElement,
  type DomNode,
  imageSource,
  nestsDeeperThan,
  selectAll,
} from './dom';
import { findMain, type PageKind } from './main';
import { compared } from './main/baseline';
import { BLOCK_MODEL, type BlockModel } from './main/block-model';
import { dropBoilerplate } from './main/blocks';
import { PAGE_LIMITS } from './spec';
import type { ExtractSpec } from './spec-schema';
import { adoptStrays, streamedContent } from './streamed';

/** How the content was chosen, for the record's warnings and the benchmark. */
export type ContentSource = 'include' | 'selector' | 'detected' | 'body';

/** Never content: code, embedded documents, and hidden parts (tab panels aside). */
const NEVER = 'script, style, noscript, template, iframe, object, embed, [hidden], [aria-hidden="true"]';
/** Cookie banners, consent dialogs, share widgets: recognised by their ids and classes, when they are small. */
const CLUTTER =
  /(^|[\s_-])(cookie|cookies|consent|gdpr|ccpa|onetrust|cookiebot|didomi|truste|qc-cmp|cmpbox|share|sharing|social-share|newsletter-signup)([\s_-]|$)/i;
/**
 * Consent platforms named by their software: their dialogs are never content, however long (OneTrust's preference
 * centre holds pages of prose). Not `cmp` alone: Adobe's core components are `cmp-text`, `cmp-container`.
 */
const CONSENT_SOFTWARE =
  /onetrust|cookiebot|didomi|usercentrics|truste-|qc-cmp|axeptio|iubenda|tarteaucitron|cmplz-|sp_message/i;
const CLUTTER_MAX_CHARS = 1500;
/** Either, in one test: most elements are neither. */
const CLUTTER_OR_CONSENT = new RegExp(`${CLUTTER.source}|${CONSENT_SOFTWARE.source}`, 'i');
/** A detected main content shorter than this is not trusted: the whole body is used instead. */
const MIN_CONTENT_CHARS = 140;

/** Inline styles that hide an element. */
const INVISIBLE = /(^|;)\s*(display\s*:\s*none|visibility\s*:\s*hidden)/i;
/**
 * Classes that show an element to screen readers only (Bootstrap, WordPress, Shopify, Tailwind and most CSS kits):
 * "Slide 1 of 6", "Use the arrow keys to move between the images", "Skip to product information". A reader of the
 * page never sees them.
 */
const SCREEN_READER_ONLY =
  /(^|\s)(sr-only|visually-hidden|visuallyhidden|screen-reader-text|screen-reader-only|screenreader-only|a11y-hidden|u-visually-hidden|hidden-visually)(\s|$)/i;

function removeClutter(document: DomDocument): void {
  const never = selectAll(document, NEVER);
  const streamed = streamedContent(document, never);
  // A hidden tab panel is content a reader opens with a click (sphinx-tabs' other languages, other platforms).
  for (const element of never)
    if (element.getAttribute('role') !== 'tabpanel' && !streamed.has(element)) element.remove();
  for (const element of selectAll(document, '[style]'))
    if (INVISIBLE.test(element.getAttribute('style') ?? '')) element.remove();
  for (const element of selectAll(document, '[id], [class], [role="dialog"], [role="alertdialog"]')) {
    if (element.localName === 'body' || element.localName === 'html') continue;
    const className = element.getAttribute('class') ?? '';
    const names = `${element.getAttribute('id') ?? ''} ${className} ${element.getAttribute('aria-label') ?? ''}`;
    const clutter =
      CLUTTER_OR_CONSENT.test(names) &&
      (CONSENT_SOFTWARE.test(names) ||
        (CLUTTER.test(names) && (element.textContent ?? '').length <= CLUTTER_MAX_CHARS));
    if (clutter || SCREEN_READER_ONLY.test(className)) element.remove();
  }
}

/** The outermost matches of `selectors`, in document order, moved into one container. */
function gather(document: DomDocument, selectors: string[]): DomElement | null {
  const matches = selectors.flatMap((selector) => selectAll(document, selector));
  if (matches.length === 0) return null;
  const container = document.createElement('div');
  const chosen = new Set<DomNode>(matches);
  for (const match of selectAll(document, '*')) {
    if (!chosen.has(match)) continue;
    let ancestor = match.parentNode;
    let nested = false;
    while (ancestor) {
      if (chosen.has(ancestor)) nested = true;
      ancestor = ancestor.parentNode;
    }
    if (!nested) container.append(match.cloneNode(true));
  }
  return container;
}

/**
 * The page's title heading: the h1 that the <title> names first (a permalink sign after it aside), else the first
 * h1. A site's name in an h1 above the page's own is not its title, even when the <title> names the site after it.
 */
function titleHeading(document: DomDocument): string {
  const headings = selectAll(document, 'h1')
    .map((h1) => collapse(h1.textContent))
    .filter(Boolean);
  const title = collapse(document.querySelector('title')?.textContent);
  // A <title> names the page before the site ("Release notes — Project documentation"): the earliest named h1.
  let named = '';
  let at = Number.POSITIVE_INFINITY;
  for (const heading of headings) {
    const index = title.indexOf(heading.replace(/\s*[¶#§🔗]$/u, ''));
    if (index >= 0 && index < at) [named, at] = [heading, index];
  }
  return named || (headings[0] ?? '');
}

/** What detection is told: what the page says it is, and the model of the last decision on blocks. */
interface Detection {
  kind: PageKind;
  model: BlockModel;
}

/** How selectContent detects the main content; each has a default. */
export interface ContentOptions {
  /** What the page says it is (default: not a product). */
  kind?: PageKind;
  /** Parses the same page again (extractPage gives it): the whole body is then made only when needed. */
  again?: () => DomDocument;
  /** The last decision on blocks (default: the fitted BLOCK_MODEL; NO_MODEL to leave every block). */
  model?: BlockModel;
}

/**
 * The main content (main/: a container of the page's generator or the densest prose, furniture cut), or null when
 * it is too short to trust: then the whole body is used. A short content in a container the page marks as main (an
 * index page, a table of contents), or holding the page's title heading (a short page), is kept. Either way a short content is said in the warnings.
 */
function detect(
  document: DomDocument,
  whole: () => DomElement,
  warnings: string[],
  options: Detection,
): DomElement | null {
  const title = titleHeading(document);
  const found = findMain(bodyOf(document), options.kind);
  const { root: content, pick } = compared(found, whole, options.kind);
  // The model was fit on news and blog pages: a content with code in it (documentation, an API's page) ends in
  // short lines that are its own ("See FXSAVE and FXRSTOR.", "Performs the conversion."), so it is left as it is.
  if (options.model.threshold < 1 && content.querySelector('pre, code') === null)
    dropBoilerplate(content, options.model);
  const chars = collapse(content.textContent).length;
  if (chars < MIN_CONTENT_CHARS) {
    // A short page's content holds its title heading: what is short is the page, not what was found of it.
    const titled = title !== '' && selectAll(content, 'h1').some((h1) => collapse(h1.textContent) === title);
    const kept =
      chars === 0
        ? null
        : pick === 'structure'
          ? 'the page marks it as main'
          : titled
            ? 'it holds the title heading'
            : null;
    warnings.push(
      `content: the main content found has ${chars} characters; ${kept ? `kept (${kept})` : 'the whole body is used'}`,
    );
    if (!kept) return null;
  }
  // The page's title heading, when the content has none: the content starts with it, as the page shows it.
  if (title && !content.querySelector('h1') && !collapse(content.textContent).includes(title)) {
    const h1 = document.createElement('h1');
    h1.textContent = title;
    content.insertBefore(h1, content.firstChild);
  }
  // What the rules cut from inside the text, said (lists of links between its paragraphs: main/prose-links.ts).
  if (content === found.root) warnings.push(...found.notes);
  return content;
}

/**
 * The part of the page that markdown, text and html are made of: with `include`, the matching elements; with a
 * pinned selector, its first match; by default the main content (main/); the whole body when the
 * pin matches nothing or detection finds nothing useful. Clutter and `exclude` go first. Mutates the document:
 * read everything else from it before.
 */
export function selectContent(
  document: DomDocument,
  spec: ExtractSpec,
  warnings: string[],
  options: ContentOptions = {},
): { root: DomElement; source: ContentSource } {
  const kind = options.kind ?? { product: false };
  const model = options.model ?? BLOCK_MODEL;
  clean(document, spec);
  const body = bodyOf(document);
  if (spec.include.length > 0) {
    const included = gather(document, spec.include);
    if (included) return { root: included, source: 'include' };
    warnings.push('content: no element matches include; the whole body is used');
    return { root: body, source: 'body' };
  }
  if (typeof spec.mainContent === 'object') {
    const pinned = selectAll(document, spec.mainContent.selector)[0];
    if (pinned) return { root: pinned, source: 'selector' };
    warnings.push(
      `content: mainContent.selector ${JSON.stringify(spec.mainContent.selector)} matches nothing; the whole body is used`,
    );
    return { root: body, source: 'body' };
  }
  if (!spec.mainContent) return { root: body, source: 'body' };
  // Absurdly deep or large markup is not worth detecting in (the bounds Readability needed, kept as bounds).
  const skip = nestsDeeperThan(body, PAGE_LIMITS.depth)
    ? `elements nest deeper than ${PAGE_LIMITS.depth}`
    : selectAll(body, '*').length > PAGE_LIMITS.detectElements
      ? `more than ${PAGE_LIMITS.detectElements} elements`
      : null;
  if (skip) {
    warnings.push(`content: ${skip}; main content not detected, the whole body is used`);
    return { root: body, source: 'body' };
  }
  const whole = wholeBody(body, spec, options.again);
  try {
    const detected = detect(document, whole, warnings, { kind, model });
    if (detected) return { root: detected, source: 'detected' };
  } catch (error) {
    warnings.push(
      `content: detection failed (${error instanceof Error ? error.message.slice(0, 120) : 'error'}); the whole body is used`,
    );
  }
  return { root: whole(), source: 'body' };
}

/**
 * The whole body as it was before detection cut it, a copy of its own at each call: cloned now, or, with `again`,
 * made from the page parsed again when asked (cloning every body cost more than parsing again the pages that need it:
 * a content too short, compared with the baseline, or one detection could not use).
 */
function wholeBody(body: DomElement, spec: ExtractSpec, again?: () => DomDocument): () => DomElement {
  if (!again) {
    const copy = body.cloneNode(true);
    return () => copy.cloneNode(true);
  }
  return () => {
    const fresh = again();
    clean(fresh, spec);
    return bodyOf(fresh);
  };
}

/** An app shell's <noscript> read, clutter and the spec's `exclude` removed. */
function clean(document: DomDocument, spec: ExtractSpec): void {
  adoptStrays(document, bodyOf(document));
  revealNoscript(document);
  removeClutter(document);
  for (const selector of spec.exclude) for (const element of selectAll(document, selector)) element.remove();
}

/** The content as HTML for the `html` output: URLs absolute, no event handlers, no javascript: links, no data: images. */
export function cleanHtml(root: DomElement, baseUrl: string): string {
  for (const element of selectAll(root, '*')) {
    for (const { name } of Array.from(element.attributes))
      if (/^on/i.test(name) || name === 'style') element.removeAttribute(name);
  }
  for (const a of selectAll(root, 'a[href]')) {
    const url = absoluteUrl(a.getAttribute('href'), baseUrl);
    if (url) a.setAttribute('href', url);
    else a.removeAttribute('href');
  }
  for (const img of selectAll(root, 'img')) {
    const src = absoluteUrl(imageSource(img), baseUrl);
    if (src) img.setAttribute('src', src);
    else img.remove();
    for (const name of ['srcset', 'data-src', 'data-srcset', 'data-lazy-src', 'data-original'])
      img.removeAttribute(name);
  }
  return root.innerHTML.trim();
}
