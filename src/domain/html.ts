import { parseHTML } from 'linkedom/worker';
import { normalizeUrl } from './normalize';

export interface ParsedPage {
  title: string | null;
  /** Normalized, deduplicated http(s) links in document order (anchors, areas, rel=canonical). */
  links: string[];
  canonical: string | null;
}

/**
 * Parses an HTML document with linkedom. Links come from `<a href>`, `<area href>` and
 * `<link rel=canonical href>`, resolved against the first `<base href>` (itself resolved
 * against the page URL), then normalized; non-http(s) links (mailto:, javascript:, data:) are dropped.
 */
export function parseHtmlPage(html: string, pageUrl: string): ParsedPage {
  const { document } = parseHTML(html);
  let base = pageUrl;
  const baseHref = document.querySelector('base[href]')?.getAttribute('href');
  if (baseHref) {
    try {
      base = new URL(baseHref.trim(), pageUrl).href;
    } catch {
      // An unparsable <base> is ignored, as browsers do.
    }
  }
  const seen = new Set<string>();
  const links: string[] = [];
  const add = (href: string | null | undefined): string | null => {
    if (!href) return null;
    const url = normalizeUrl(href, base);
    if (url && !seen.has(url)) {
      seen.add(url);
      links.push(url);
    }
    return url;
  };
  for (const el of document.querySelectorAll('a[href], area[href]')) add(el.getAttribute('href'));
  let canonical: string | null = null;
  for (const el of document.querySelectorAll('link[rel][href]')) {
    const rel = (el.getAttribute('rel') ?? '').toLowerCase().split(/\s+/);
    if (rel.includes('canonical')) canonical ??= add(el.getAttribute('href'));
  }
  const rawTitle = document.querySelector('title')?.textContent ?? null;
  const title = rawTitle === null ? null : rawTitle.replace(/\s+/g, ' ').trim() || null;
  return { title, links, canonical };
}

/** The charset parameter of a Content-Type header, if any. */
export function charsetOf(contentType: string | null): string | undefined {
  const m = contentType ? /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType) : null;
  return m?.[1]?.toLowerCase();
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
