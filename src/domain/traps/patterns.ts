/**
 * URL patterns that keep giving near-identical pages (the `urlPatterns` rule, docs/crawling.md "Traps"). URLs are
 * grouped two ways: by their path (every query of one path: facets, sort orders, a calendar's `?month=`), and by their
 * path's shape, digits masked (`/events/{n}/{n}/`: a calendar's months, pagination in the path). Each group keeps how
 * its recent pages compared with the pages before them (patternTrapped decides), and each host how pages that differ
 * in one query parameter alone compared (paramIgnored decides). Pure: the crawl's object keeps the state.
 */
import { pathOf } from '../url/patterns';

/** A group's recent pages looked at (each: was it near-identical to a page of the group before it?). */
export const PATTERN_WINDOW = 8;
/** Of those, how many near-identical make the group a trap. */
export const PATTERN_SIMILAR = 5;
/** Pages that differ from another in one parameter alone, and read the same, before the parameter is ignored. */
export const PARAM_SAME = 3;

/** The origin of a URL (scheme://host:port), as written in the normalized URL. */
export const originOf = (url: string): string => {
  const start = url.indexOf('//') + 2;
  const end = url.indexOf('/', start);
  return end === -1 ? url : url.slice(0, end);
};

/** The group of every query of one path: origin and path. */
export const pathGroup = (url: string): string => `${originOf(url)}${pathOf(url)}`;

/** The group of a path's shape (digit runs masked), or null for a path without digits. */
export function shapeGroup(url: string): string | null {
  const path = pathOf(url);
  if (!/\d/.test(path)) return null;
  return `${originOf(url)}${path.replace(/\d+/g, '{n}')}`;
}

/** A URL's query parameters: name → value, as written (a repeated name keeps its values joined). */
export function paramsOf(url: string): Map<string, string> {
  const params = new Map<string, string>();
  const query = url.indexOf('?');
  if (query === -1) return params;
  for (const pair of url.slice(query + 1).split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const [name, value] = eq === -1 ? [pair, ''] : [pair.slice(0, eq), pair.slice(eq + 1)];
    params.set(name, params.has(name) ? `${params.get(name)}&${value}` : value);
  }
  return params;
}

/** The names of the parameters two URLs' queries differ in (a parameter one of them lacks counts). */
export function paramsDiffering(a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>): string[] {
  const names = new Set([...a.keys(), ...b.keys()]);
  return [...names].filter((name) => a.get(name) !== b.get(name));
}

/** Whether a group's recent comparisons (true: near-identical to a page before it) make it a trap. */
export function patternTrapped(recent: readonly boolean[]): boolean {
  return recent.slice(-PATTERN_WINDOW).filter(Boolean).length >= PATTERN_SIMILAR;
}

/** What pages differing in one parameter alone said of it: how many read the same, how many did not. */
export interface ParamEvidence {
  same: number;
  differs: number;
}

/** A parameter that never changed a page (PARAM_SAME pairs read the same, none differed) is ignored on its host. */
export const paramIgnored = (evidence: ParamEvidence): boolean => evidence.differs === 0 && evidence.same >= PARAM_SAME;

/**
 * A parameter that changes the page more often than not when it alone differs (a real `?page=2`): a URL whose
 * parameters all do still passes a group found a trap. One that changed a page once (a calendar's month with an event
 * among empty ones) does not.
 */
export const paramMatters = (evidence: ParamEvidence | undefined): boolean =>
  evidence !== undefined && evidence.differs > evidence.same;

/** The URL without the named parameters (their other parameters kept in order); the base when none is left. */
export function withoutParams(url: string, names: ReadonlySet<string>): string {
  const query = url.indexOf('?');
  if (query === -1) return url;
  const kept = url
    .slice(query + 1)
    .split('&')
    .filter((pair) => !names.has(pair.split('=', 1)[0] ?? ''));
  return kept.length === 0 ? url.slice(0, query) : `${url.slice(0, query)}?${kept.join('&')}`;
}

/** A group's shape for people: `https://a.test/events/{n}/{n}/`, or a path with `?…` for its queries. */
export const describeGroup = (group: string, byShape: boolean): string => (byShape ? group : `${group}?…`);
