/**
 * Session ids and tracking parameters: parts of a URL that name the visit, not the page. A site that writes a new
 * session id into every link, or a campaign tag into some, makes endless URLs of the same pages; stripped, they are
 * one URL each, and the seen-set keeps them once (docs/crawling.md, "Traps": the `sessionParams` rule, on by default,
 * `traps: {sessionParams: false}` to keep them). Applied to a crawl's seeds and to every URL it finds (links,
 * redirect targets, canonicals, sitemaps), after normalization (normalize.ts).
 */

/** Query parameters removed, compared without case: session ids, then tracking tags (click ids, mail campaigns). */
export const SESSION_PARAMS: readonly string[] = [
  'sid',
  'sessionid',
  'session_id',
  'sessid',
  'jsessionid',
  'phpsessid',
  'cfid',
  'cftoken',
  'zenid',
  'oscsid',
];
export const TRACKING_PARAMS: readonly string[] = [
  'gclid',
  'gclsrc',
  'dclid',
  'gbraid',
  'wbraid',
  'fbclid',
  'msclkid',
  'yclid',
  'twclid',
  'ttclid',
  'li_fat_id',
  'igshid',
  'mc_cid',
  'mc_eid',
  '_ga',
  '_gl',
  '_hsenc',
  '_hsmi',
  'mkt_tok',
  'vero_id',
  'oly_anon_id',
  'oly_enc_id',
];
/** Prefixes of parameter names removed: Google Analytics' campaign tags, and ASP's session cookies in URLs. */
export const PARAM_PREFIXES: readonly string[] = ['utm_', 'aspsessionid'];

const NAMES: ReadonlySet<string> = new Set([...SESSION_PARAMS, ...TRACKING_PARAMS]);

/** A Java servlet's session id written into the path (`/page;jsessionid=A1B2`), up to the next / ? or #. */
const PATH_SESSION = /;jsessionid=[^/?#]*/gi;

/** Whether a query parameter (its name as written, percent-escapes and all) names the visit rather than the page. */
export function isSessionParam(name: string): boolean {
  let decoded = name;
  try {
    decoded = decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    // A malformed escape: compared as written.
  }
  const lower = decoded.toLowerCase();
  return NAMES.has(lower) || PARAM_PREFIXES.some((prefix) => lower.startsWith(prefix));
}

/**
 * The URL (normalized) without its session ids and tracking parameters: the other parameters keep their order and
 * spelling, an empty query is dropped. A URL without any is returned as it is.
 */
export function stripSessionParams(url: string): string {
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  const cleanPath = path.includes(';') ? path.replace(PATH_SESSION, '') : path;
  if (query === -1) return cleanPath;
  const pairs = url.slice(query + 1).split('&');
  const kept = pairs.filter((pair) => !isSessionParam(pair.split('=', 1)[0] ?? ''));
  if (kept.length === pairs.length) return cleanPath === path ? url : `${cleanPath}${url.slice(query)}`;
  return kept.every((pair) => pair === '') ? cleanPath : `${cleanPath}?${kept.join('&')}`;
}
