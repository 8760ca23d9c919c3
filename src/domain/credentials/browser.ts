import { type Access, cookiesFor, credentialHeaders } from './access';

/**
 * Credentials in a browser (docs/credentials.md): what a rendered page of a crawl with credentials is given. The
 * browser's own cookie jar sends a cookie back only to the host that has it, so a page is given the crawl's cookies
 * for its own host alone; the other credentials go by request, as the fetcher's do.
 */

/**
 * The headers a request of a rendered page carries for the crawl's credentials (lower-case names): the crawl's own
 * headers and its basic credentials, on the credential hosts only; nothing anywhere else. Never a cookie header: the
 * page's cookies are the browser's (cookiesFor the page, set in its own context), as a browser sends them.
 */
export function browserHeaders(url: string, access: Access): Record<string, string> {
  const { cookie: _cookie, ...headers } = credentialHeaders(url, access);
  return headers;
}

/** A cookie as the browser is given it: host-only, on the page's own host (a puppeteer CookieParam). */
export interface PageCookie {
  name: string;
  value: string;
  /** The page's URL: the host the cookie is set for, and no other. */
  url: string;
  path: string;
  secure: boolean;
}

/** The crawl's cookies a page at `pageUrl` is given: those a request to it carries (cookiesFor), for its host only. */
export function pageCookies(pageUrl: string, access: Access): PageCookie[] {
  return cookiesFor(new URL(pageUrl), access).map(({ name, value, path, secure }) => ({
    name,
    value,
    url: pageUrl,
    path,
    secure,
  }));
}
