import { getDomain } from 'tldts';

/**
 * Crawl scope, relative to the seeds:
 * - same-origin: scheme, host and port equal a seed's;
 * - same-host: host equals a seed's (any scheme or port);
 * - same-domain: registrable domain (public suffix list) equals a seed's, so
 *   `blog.example.co.uk` and `www.example.co.uk` are one domain; IP hosts compare as hosts;
 * - any: every http(s) URL.
 */
export const SCOPES = ['same-origin', 'same-host', 'same-domain', 'any'] as const;
export type Scope = (typeof SCOPES)[number];

function registrableDomain(hostname: string): string {
  return getDomain(hostname, { allowPrivateDomains: true }) ?? hostname;
}

export type ScopeMatcher = (url: string) => boolean;

/**
 * The "scheme://authority/" text of a plain http(s) URL: nothing in it that the URL parser reads differently from a
 * plain split (userinfo, backslashes, whitespace, a query or fragment before the path, an empty host).
 */
const PLAIN_PREFIX = /^https?:\/\/[^/\s\\@?#]+\//;
/** Scope keys remembered per matcher (then forgotten all at once): a crawl's links come from few hosts. */
const MAX_REMEMBERED = 10_000;

export function compileScope(scope: Scope, seeds: readonly string[]): ScopeMatcher {
  if (scope === 'any') return () => true;
  const key = (u: URL): string =>
    scope === 'same-origin' ? u.origin : scope === 'same-host' ? u.hostname : registrableDomain(u.hostname);
  const allowed = new Set(seeds.map((s) => key(new URL(s))));
  // The key depends only on the scheme and authority, so it is parsed once per distinct "scheme://authority" text.
  const known = new Map<string, boolean>();
  return (url) => {
    const prefix = PLAIN_PREFIX.exec(url)?.[0] ?? null;
    const cached = prefix === null ? undefined : known.get(prefix);
    if (cached !== undefined) return cached;
    let inScope: boolean;
    try {
      inScope = allowed.has(key(new URL(url)));
    } catch {
      return false;
    }
    if (prefix !== null) {
      if (known.size >= MAX_REMEMBERED) known.clear();
      known.set(prefix, inScope);
    }
    return inScope;
  };
}
