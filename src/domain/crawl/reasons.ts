/**
 * Why a URL ended failed or skipped, grouped by kind for breakdowns: "redirect 301 to https://a/" and
 * "redirect 302 to https://b/" are one kind, "redirect". A reason's head is its text before the first " to " or
 * ": ", where the variable part (a URL, an error message) begins; the kind is named from the head.
 */
export function reasonHead(reason: string): string {
  const cuts = [reason.indexOf(' to '), reason.indexOf(': ')].filter((i) => i >= 0);
  return cuts.length > 0 ? reason.slice(0, Math.min(...cuts)) : reason;
}

const KINDS: readonly (readonly [RegExp, string])[] = [
  [/^redirect\b/, 'redirect'],
  [/^too many redirects\b/, 'too many redirects'],
  [/^http \d{3} without Location$/, 'redirect without Location'],
  [/^blocked by robots\.txt$/, 'blocked by robots.txt'],
  // "blocked: private network address"
  [/^blocked$/, 'private address'],
  [/^robots\.txt\b/, 'robots.txt unreachable'],
  [/^timeout after\b/, 'timeout'],
  // "dns: host not found (x.invalid)", "refused: connection refused (a:1)", ... (domain/fetch/failure)
  [/^dns$/, 'dns error'],
  [/^refused$/, 'connection refused'],
  [/^reset$/, 'connection reset'],
  [/^tls$/, 'tls error'],
  [/^(network error|body read failed)$/, 'network error'],
  [/^body larger than\b/, 'body too large'],
  [/^sitemap$/, 'unreadable sitemap'],
  [/^dead-lettered$/, 'retries exhausted'],
];

/** The kind of a reason ("http 404", "redirect", "blocked by robots.txt", "private address", ...). */
export function reasonKind(reason: string): string {
  const head = reasonHead(reason);
  return KINDS.find(([pattern]) => pattern.test(head))?.[1] ?? head;
}
