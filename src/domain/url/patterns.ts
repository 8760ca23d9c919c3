/**
 * URL patterns for `include` / `exclude`, matched against the whole normalized URL.
 *
 * Glob syntax (the default), against the whole URL, so a glob starts with `http://`, `https://` or a `*`; one that
 * cannot (`/blog/**`, `example.com/**`, a `/regex/`) is refused, saying how to write it:
 *   `**`  any run of characters, "/" included
 *   `*`   any run of characters except "/"
 *   everything else is literal ("?" and "." included, so query strings can be written as they are)
 *   e.g. `https://example.com/blog/**`, `**\/*.pdf`, `https://*.example.com/**`
 * Regular expressions: a pattern starting with `re:` is a JavaScript regular expression,
 *   tested with RegExp.test (unanchored), e.g. `re:\\?page=\\d+$`. There is no other regex syntax (`/.../` is refused).
 *   One starting with `path:` is a regular expression tested against the URL's path alone (no host, no query), as
 *   Firecrawl's includePaths and excludePaths are: `path:^/blog/`.
 * A glob's scheme and host are compared in lower case (normalized URLs have them so); its path as written.
 */

export type UrlMatcher = (url: string) => boolean;

export class PatternError extends Error {}

function escapeRegExp(text: string): string {
  return text.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
}

/** A URL's path: from the first / after its host to its query or fragment ("/" when it has none). */
const PATH = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*([^?#]*)/i;
export const pathOf = (url: string): string => PATH.exec(url)?.[1] || '/';

function regExpOf(pattern: string, source: string): RegExp {
  try {
    return new RegExp(source);
  } catch (error) {
    throw new PatternError(`invalid regular expression ${JSON.stringify(pattern)}: ${(error as Error).message}`);
  }
}

export function compilePattern(pattern: string): UrlMatcher {
  if (pattern.startsWith('re:')) {
    const re = regExpOf(pattern, pattern.slice(3));
    return (url) => re.test(url);
  }
  if (pattern.startsWith('path:')) {
    const re = regExpOf(pattern, pattern.slice(5));
    return (url) => re.test(pathOf(url));
  }
  if (pattern.length === 0) throw new PatternError('empty pattern');
  const source = lowerOrigin(pattern)
    .split('**')
    .map((part) => part.split('*').map(escapeRegExp).join('[^/]*'))
    .join('.*');
  const re = new RegExp(`^${source}$`);
  return (url) => re.test(url);
}

/**
 * Checks a pattern a request gives: it compiles, and a glob can match a URL at all. Stored crawls are read with
 * compilePattern alone, so that one stored before this check still reads (and matches as it did: nothing).
 */
export function checkPattern(pattern: string): void {
  compilePattern(pattern);
  if (!pattern.startsWith('re:') && !pattern.startsWith('path:') && !canMatchUrl(lowerOrigin(pattern)))
    throw new PatternError(neverMatches(pattern));
}

/** A glob's scheme and host in lower case, as every normalized URL has them; its path as it is. */
function lowerOrigin(glob: string): string {
  const origin = /^[a-z*]+:\/\/[^/]*/i.exec(glob)?.[0] ?? '';
  return origin.toLowerCase() + glob.slice(origin.length);
}

/** Whether a glob's text before its first `*` can start a URL: `http://` or `https://`, a beginning of them, or none. */
function canMatchUrl(glob: string): boolean {
  const head = glob.split('*')[0] ?? '';
  return ['http://', 'https://'].some((scheme) => scheme.startsWith(head) || head.startsWith(scheme));
}

/** Why a glob never matches, and how to write what was meant. */
function neverMatches(pattern: string): string {
  const regex = /^\/(.+)\/$/.exec(pattern)?.[1];
  const instead = regex
    ? `for a regular expression write re:${regex}`
    : `write ${JSON.stringify(`**/${pattern.replace(/^\/+/, '')}`)} to match it anywhere, or start with https://`;
  return (
    `pattern ${JSON.stringify(pattern)} never matches: patterns are matched against the whole URL ` +
    `(https://example.com/blog/**, **/*.pdf), a regular expression starts with re: (re:/blog/\\d+); ${instead}`
  );
}

/** True when `url` passes: matches some include (if any are given) and no exclude. */
export function compileFilters(include: readonly string[], exclude: readonly string[]): UrlMatcher {
  const inc = include.map(compilePattern);
  const exc = exclude.map(compilePattern);
  return (url) => (inc.length === 0 || inc.some((m) => m(url))) && !exc.some((m) => m(url));
}
