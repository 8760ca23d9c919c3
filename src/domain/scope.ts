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

export function compileScope(scope: Scope, seeds: readonly string[]): ScopeMatcher {
  if (scope === 'any') return () => true;
  const key = (u: URL): string => (scope === 'same-origin' ? u.origin : scope === 'same-host' ? u.hostname : registrableDomain(u.hostname));
  const allowed = new Set(seeds.map((s) => key(new URL(s))));
  return (url) => {
    try {
      return allowed.has(key(new URL(url)));
    } catch {
      return false;
    }
  };
}
