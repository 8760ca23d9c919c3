/**
 * URL patterns for `include` / `exclude`, matched against the whole normalized URL.
 *
 * Glob syntax (the default):
 *   `**`  any run of characters, "/" included
 *   `*`   any run of characters except "/"
 *   everything else is literal ("?" and "." included, so query strings can be written as they are)
 *   e.g. `https://example.com/blog/**`, `**\/*.pdf`, `https://*.example.com/**`
 * Regular expressions: a pattern starting with `re:` is a JavaScript regular expression,
 *   tested with RegExp.test (unanchored), e.g. `re:\\?page=\\d+$`.
 */

export type UrlMatcher = (url: string) => boolean;

export class PatternError extends Error {}

function escapeRegExp(text: string): string {
  return text.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
}

export function compilePattern(pattern: string): UrlMatcher {
  if (pattern.startsWith('re:')) {
    let re: RegExp;
    try {
      re = new RegExp(pattern.slice(3));
    } catch (error) {
      throw new PatternError(`invalid regular expression ${JSON.stringify(pattern)}: ${(error as Error).message}`);
    }
    return (url) => re.test(url);
  }
  if (pattern.length === 0) throw new PatternError('empty pattern');
  const source = pattern
    .split('**')
    .map((part) => part.split('*').map(escapeRegExp).join('[^/]*'))
    .join('.*');
  const re = new RegExp(`^${source}$`);
  return (url) => re.test(url);
}

/** True when `url` passes: matches some include (if any are given) and no exclude. */
export function compileFilters(include: readonly string[], exclude: readonly string[]): UrlMatcher {
  const inc = include.map(compilePattern);
  const exc = exclude.map(compilePattern);
  return (url) => (inc.length === 0 || inc.some((m) => m(url))) && !exc.some((m) => m(url));
}
