import { charsetOf } from './charset';

export { charsetOf };

import { type DomDocument, type DomElement, parseBounded, selectAll } from '../extract/dom';
import { PAGE_LIMITS } from '../extract/spec';
import { normalizeUrl } from '../url/normalize';

export interface ParsedPage {
  title: string | null;
  /** Normalized, deduplicated http(s) links in document order (anchors, areas, rel=canonical). */
  links: string[];
  canonical: string | null;
}

/** What a parser saw of a document, before any URL is resolved: attribute values and title text, decoded. */
export interface RawPage {
  /** `<a href>` and `<area href>` values, in document order. */
  hrefs: string[];
  /** The first `<base href>` value, if any. */
  baseHref: string | null;
  /** `<link rel=canonical href>` values, in document order. */
  canonicals: string[];
  /** Text of the first `<title>`, if any. */
  title: string | null;
}

/**
 * Turns what a parser saw into a page: links resolved against the first `<base href>` (itself resolved
 * against the page URL; an unparsable one is ignored, as browsers do), normalized, deduplicated, with
 * non-http(s) links (mailto:, javascript:, data:) dropped; the canonical is the first resolvable
 * rel=canonical and is listed last among the links; the title has its whitespace collapsed.
 * Both parsers (linkedom here, HTMLRewriter in discover.ts) end here, so they cannot disagree on URLs.
 */
export function resolvePage(raw: RawPage, pageUrl: string): ParsedPage {
  let base = pageUrl;
  if (raw.baseHref) {
    try {
      base = new URL(raw.baseHref.trim(), pageUrl).href;
    } catch {
      // ignored
    }
  }
  const seen = new Set<string>();
  const links: string[] = [];
  // A page repeats its links (a menu at the top and the bottom): each spelling is normalized once.
  const normalized = new Map<string, string | null>();
  const add = (href: string): string | null => {
    let url = normalized.get(href);
    if (url === undefined) {
      url = normalizeUrl(href, base);
      normalized.set(href, url);
    }
    if (url && !seen.has(url)) {
      seen.add(url);
      links.push(url);
    }
    return url;
  };
  for (const href of raw.hrefs) if (href) add(href);
  let canonical: string | null = null;
  for (const href of raw.canonicals) if (href) canonical ??= add(href);
  const title =
    raw.title === null
      ? null
      : raw.title
          .slice(0, PAGE_LIMITS.metaChars * 4)
          .replace(/\s+/g, ' ')
          .trim()
          .slice(0, PAGE_LIMITS.metaChars) || null;
  return { title, links, canonical };
}

/** Whether a rel attribute value has the canonical token. */
export function isCanonicalRel(rel: string | null): boolean {
  return rel?.toLowerCase().split(/\s+/).includes('canonical') ?? false;
}

/** The links and title of a parsed document (see resolvePage). */
export function readPage(document: DomDocument, pageUrl: string): ParsedPage {
  const attr = (el: DomElement, name: string) => el.getAttribute(name) ?? '';
  return resolvePage(
    {
      hrefs: selectAll(document, 'a[href], area[href]').map((el) => attr(el, 'href')),
      baseHref: document.querySelector('base[href]')?.getAttribute('href') ?? null,
      canonicals: selectAll(document, 'link[rel][href]')
        .filter((el) => isCanonicalRel(el.getAttribute('rel')))
        .map((el) => attr(el, 'href')),
      title: document.querySelector('title')?.textContent ?? null,
    },
    pageUrl,
  );
}

/**
 * Parses an HTML document into a DOM with linkedom and reads its links and title (see resolvePage).
 * The crawl's hot path uses the streaming discoverLinks() instead; this is the DOM-based reference,
 * and the fallback for documents HTMLRewriter cannot decode.
 */
export function parseHtmlPage(html: string, pageUrl: string): ParsedPage {
  return readPage(parseBounded(html, []).document, pageUrl);
}

/** Decodes a body for parsing, falling back to UTF-8 for labels the runtime does not know. */
export function decodeBody(bytes: Uint8Array, contentType: string | null): string {
  const charset = charsetOf(contentType) ?? 'utf-8';
  try {
    return new TextDecoder(charset).decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes);
  }
}

/** Media type without parameters, lower-cased ("text/html"), or null. */
export function mediaType(contentType: string | null): string | null {
  const type = contentType?.split(';')[0]?.trim().toLowerCase();
  return type ? type : null;
}

export function isHtml(contentType: string | null): boolean {
  const type = mediaType(contentType);
  return type === 'text/html' || type === 'application/xhtml+xml';
}
