import { z } from 'zod';
import { type Access, hostAllowed, pathMatches } from './access';
import type { Cookie } from './fields';

/**
 * A logged-in crawl's cookie jar (docs/credentials.md): the cookies the credential hosts set while the crawl runs (a
 * session renewed, rotated), kept by RFC 6265's essentials: a cookie's domain (host-only, or a Domain the setting host
 * is in), its path (given, or the folder of the URL that set it), Secure, and expiry (Max-Age before Expires; a date
 * in the past deletes). A Set-Cookie from any other host is never kept, and the jar's cookies go to the credential
 * hosts alone. Values are secrets: the jar is sealed where it is stored and never shown.
 */

const jarCookieSchema = z.object({
  name: z.string(),
  value: z.string(),
  /** The host that set it (hostOnly), or the Domain attribute's domain, lower case, no leading dot. */
  domain: z.string(),
  hostOnly: z.boolean(),
  path: z.string(),
  secure: z.boolean(),
  /** ms since the epoch; null: a session cookie, kept while the crawl runs. */
  expiresAt: z.number().nullable(),
});
export type JarCookie = z.output<typeof jarCookieSchema>;

export const jarSchema = z.array(jarCookieSchema);

/** Cookies a jar keeps at most (the oldest dropped first): a site that sets one per page cannot grow it unbounded. */
const MAX_JAR_COOKIES = 100;
/** The longest cookie (name and value) kept, as browsers' limit. */
const MAX_COOKIE_BYTES = 4096;

/** The default path of a cookie set by a request to `path` (RFC 6265 §5.1.4): its folder. */
function defaultPath(path: string): string {
  if (!path.startsWith('/')) return '/';
  const slash = path.lastIndexOf('/');
  return slash <= 0 ? '/' : path.slice(0, slash);
}

/** Whether `host` is `domain` or one of its subdomains (RFC 6265's domain match, for names). */
const domainMatches = (host: string, domain: string) => host === domain || host.endsWith(`.${domain}`);

/** When the cookie expires (ms since the epoch), from Max-Age, else Expires; null: neither (a session cookie). */
function expiryOf(attributes: Map<string, string>, now: number): number | null {
  const maxAge = attributes.get('max-age');
  if (maxAge !== undefined && /^-?\d+$/.test(maxAge)) return now + Number(maxAge) * 1000;
  const expires = attributes.get('expires');
  if (expires === undefined) return null;
  const at = Date.parse(expires);
  return Number.isNaN(at) ? null : at;
}

/** The attributes after a Set-Cookie's name=value pair, by lower-case name (the last of a name wins). */
function attributesOf(parts: readonly string[]): Map<string, string> {
  const attributes = new Map<string, string>();
  for (const part of parts) {
    const eq = part.indexOf('=');
    const name = (eq === -1 ? part : part.slice(0, eq)).trim().toLowerCase();
    attributes.set(name, eq === -1 ? '' : part.slice(eq + 1).trim());
  }
  return attributes;
}

/**
 * One Set-Cookie header of a response to `url`, as the jar keeps it; null when it is not kept: no name, too large, or
 * a Domain the host is not in (another site's cookie), or one with no dot (a top-level domain).
 */
export function parseSetCookie(header: string, url: URL, now: number): JarCookie | null {
  const [pair = '', ...rest] = header.split(';');
  const eq = pair.indexOf('=');
  if (eq <= 0) return null;
  const name = pair.slice(0, eq).trim();
  const value = pair.slice(eq + 1).trim();
  if (name === '' || name.length + value.length > MAX_COOKIE_BYTES) return null;
  const attributes = attributesOf(rest);
  const host = url.hostname.toLowerCase();
  const given = (attributes.get('domain') ?? '').replace(/^\./, '').toLowerCase();
  if (given !== '' && (!domainMatches(host, given) || !given.includes('.'))) return null;
  const path = attributes.get('path') ?? '';
  return {
    name,
    value,
    domain: given === '' ? host : given,
    hostOnly: given === '',
    path: path.startsWith('/') ? path : defaultPath(url.pathname),
    secure: attributes.has('secure'),
    expiresAt: expiryOf(attributes, now),
  };
}

const sameCookie = (a: JarCookie, b: JarCookie) => a.name === b.name && a.domain === b.domain && a.path === b.path;

/**
 * The jar with the cookies a response to `url` set: only when `url` is on a credential host (null: nothing kept, the
 * jar unchanged). A cookie replaces the one of the same name, domain and path; one already expired deletes it.
 */
export function keepCookies(
  jar: readonly JarCookie[],
  setCookies: readonly string[],
  url: URL,
  hosts: readonly string[],
  now: number,
): JarCookie[] | null {
  if (setCookies.length === 0 || !hostAllowed(hosts, url.hostname)) return null;
  const incoming = setCookies.flatMap((h) => parseSetCookie(h, url, now) ?? []);
  if (incoming.length === 0) return null;
  const kept = jar.filter((old) => !incoming.some((c) => sameCookie(old, c)));
  const live = [...kept, ...incoming].filter((c) => c.expiresAt === null || c.expiresAt > now);
  return live.slice(-MAX_JAR_COOKIES);
}

/** The jar's cookies a request to `url` carries: on a credential host only, by domain, path, Secure and expiry. */
export function jarCookiesFor(jar: readonly JarCookie[], url: URL, hosts: readonly string[], now: number): Cookie[] {
  if (!hostAllowed(hosts, url.hostname)) return [];
  const host = url.hostname.toLowerCase();
  return jar
    .filter(
      (c) =>
        (c.hostOnly ? host === c.domain : domainMatches(host, c.domain)) &&
        pathMatches(url.pathname, c.path) &&
        (!c.secure || url.protocol === 'https:') &&
        (c.expiresAt === null || c.expiresAt > now),
    )
    .map(({ name, value, path, secure }) => ({ name, value, domain: host, path, secure }));
}

/**
 * The access a request to `url` is sent with: the crawl's own cookies, those of the same name replaced by the jar's
 * (a session the site renewed), the jar's others added.
 */
export function withJar(access: Access, jarCookies: readonly Cookie[]): Access {
  if (jarCookies.length === 0) return access;
  const names = new Set(jarCookies.map((c) => c.name));
  return { ...access, cookies: [...access.cookies.filter((c) => !names.has(c.name)), ...jarCookies] };
}
