/**
 * URL normalization, in one place. Every URL is normalized before it is deduplicated,
 * stored or compared, so two spellings of one resource are one entry of the seen-set.
 *
 * What it does (RFC 3986 section 6 plus the WHATWG URL parser):
 * - only http: and https: are accepted (anything else -> null);
 * - scheme and host lower-cased, IDN hosts to punycode, IPv4 in any spelling to dotted decimal,
 *   a trailing dot on the host dropped;
 * - default ports (80 for http, 443 for https) removed;
 * - dot segments resolved, an empty path becomes "/";
 * - percent-encoding: escapes upper-cased, escapes of unreserved characters decoded,
 *   characters that must be escaped are escaped;
 * - the fragment dropped, and a bare "?" with an empty query dropped.
 * The query's order and content are kept: reordering parameters can change what a server returns.
 */

const UNRESERVED = /[A-Za-z0-9\-._~]/;

/** Upper-cases percent escapes and decodes those that encode unreserved characters. */
export function normalizePercentEncoding(component: string): string {
  return component.replace(/%([0-9a-fA-F]{2})/g, (_match, hex: string) => {
    const char = String.fromCharCode(parseInt(hex, 16));
    return UNRESERVED.test(char) ? char : `%${hex.toUpperCase()}`;
  });
}

/** Normalizes `input` (resolved against `base` when given). Returns null when it is not an http(s) URL. */
export function normalizeUrl(input: string, base?: string | URL): string | null {
  let url: URL;
  try {
    url = new URL(input.trim(), base);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.hostname === '') return null;
  if (url.hostname.endsWith('.') && !url.hostname.startsWith('[')) {
    url.hostname = url.hostname.replace(/\.+$/, '');
    if (url.hostname === '') return null;
  }
  url.hash = '';
  url.pathname = normalizePercentEncoding(url.pathname);
  if (url.search === '?' || url.search === '') {
    url.search = '';
  } else {
    url.search = normalizePercentEncoding(url.search);
  }
  // The URL serializer keeps a lone "?" when search was set to "?"; strip it.
  const out = url.href;
  return out.endsWith('?') ? out.slice(0, -1) : out;
}

/** The host name a URL's politeness is kept under (one host gate per host name, whatever the scheme or port). */
export function hostKey(url: string): string {
  return new URL(url).hostname.toLowerCase();
}
