import { type Action, describeAction } from '../render/rules';
import { type Access, cookiesFor, credentialHeaders, hostAllowed } from './access';
import type { Cookie } from './fields';

/**
 * Credentials in a browser (docs/credentials.md): what a rendered page of a crawl with credentials is given, and what
 * a crawl's form login comes to. The browser's own cookie jar sends a cookie back only to the host that has it, so a
 * page is given the crawl's cookies for its own host alone; the other credentials go by request, as the fetcher's do.
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

/** A cookie as the browser holds it (CDP's Network.Cookie): a leading dot on `domain` makes it a domain cookie. */
export interface BrowserCookie {
  name: string;
  value: string;
  domain: string;
  path: string;
  secure: boolean;
}

/**
 * The cookies a login ended with that become the crawl's: those of the credential hosts (a cookie of another host,
 * an identity provider's, is left in the browser), without the crawl's own that the page was given. A host-only
 * cookie of the browser is kept for its host (and, as every domain cookie of a crawl, its subdomains among the
 * credential hosts).
 */
export function loginCookies(
  found: readonly BrowserCookie[],
  hosts: readonly string[],
  given: readonly Cookie[],
): Cookie[] {
  const cookies: Cookie[] = [];
  for (const { name, value, domain, path, secure } of found) {
    const host = domain.replace(/^\./, '').toLowerCase();
    if (host === '' || !hostAllowed(hosts, host)) continue;
    if (given.some((c) => c.name === name && c.value === value && c.path === path)) continue;
    cookies.push({ name, value, domain: host, path, secure });
  }
  return cookies;
}

/** What a login's page came to once its actions were done and the page settled. */
export interface LoginPage {
  /** Where the page ended. */
  url: string;
  /** A password field is still shown (visible) on it. */
  passwordShown: boolean;
  /** The actions done. */
  actions: number;
}

/**
 * Why a login failed, or null when it got in. A login still on its form has failed: a password field is still shown
 * when the actions are done (a wrong password shows the form again, wherever it is served). The URL alone is no sign:
 * a single-page app signs in without leaving its URL, and a login page may be served under any path. A login that
 * left the form but set no cookie on the credential hosts has failed too: the cookies are all that a crawl keeps of
 * it (its session is set on a host the credentials do not go to, or kept in the page's storage).
 */
export function loginFailure(page: LoginPage, hosts: readonly string[], cookies: readonly Cookie[]): string | null {
  const steps = `its ${page.actions === 1 ? 'action' : `${page.actions} actions`}`;
  const at = shownUrl(page.url);
  if (page.passwordShown)
    return `login failed: still on the login page after ${steps} (a password field is still shown at ${at})`;
  if (cookies.length === 0)
    return `login failed: no cookie was set for the credential hosts (${hosts.join(', ')}) after ${steps}, at ${at}; if the session is set on another host, name it in credentialsFor`;
  return null;
}

/** Why a login failed when one of its actions could not be done (an action named by its kind and selector). */
export const loginActionFailed = (index: number, total: number, action: Action, why: string) =>
  `login failed: action ${index + 1} of ${total} (${describeAction(action)}) could not be done: ${why}`;

/** A URL as a reason shows it: its origin and path, never its query (a form sent by GET puts its fields there). */
export function shownUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return url.replace(/[?#].*$/, '').slice(0, 200);
  }
}

/** The shortest typed text a reason is searched for: shorter ones would blank out its words. */
const MIN_REDACTED = 3;

/** `reason` with every text the login typed replaced by [redacted]: what it shows or logs never holds one. */
export function redactTyped(reason: string, typed: readonly string[]): string {
  let out = reason;
  for (const text of [...typed].sort((a, b) => b.length - a.length))
    if (text.length >= MIN_REDACTED) out = out.split(text).join('[redacted]');
  return out;
}
