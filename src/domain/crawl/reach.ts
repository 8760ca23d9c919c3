/**
 * Whether a crawl reached every page it found a link to, and what two crawls' reaches let a recrawl say of a page
 * one of them has and the other has not (docs/crawling.md, "What changed, page by page").
 *
 * A crawl's reach is complete when it ended `completed` having followed every link it found: no URL refused by
 * `maxPages` (discovered < maxPages), no link cut by `maxDepth` (no page stored at depth >= maxDepth), and no URL
 * that ended without an answer from the site about it (a 5xx, a timeout, a network error, a render that failed...: its
 * links, if any, were never read). A 4xx, a redirect, robots.txt and a refused private address are answers: they
 * leave nothing unread. Then a page the crawl did not find is linked from no page it fetched.
 */
import type { OutcomeCode } from './outcome-codes';

/** Why a crawl's reach is not complete. `unmeasured`: it ended before reaches were measured. */
export const REACH_CUTS = [
  'running',
  'cancelled',
  'maxPages',
  'maxPagesPerHost',
  'maxDepth',
  'traps',
  'unread',
  'unmeasured',
] as const;
export type ReachCut = (typeof REACH_CUTS)[number];

export interface Reach {
  complete: boolean;
  cuts: ReachCut[];
}

export const reachOf = (cuts: readonly ReachCut[]): Reach => ({ complete: cuts.length === 0, cuts: [...cuts] });

/**
 * Codes of URLs the site answered about (domain/crawl/outcome-codes.ts): a 4xx (not 408 or 429, which ask to come back
 * later), a redirect, a 401 to a request without credentials, robots.txt, a refused private address, a soft 404. They
 * leave no link unread. Every other code that ends a URL failed or skipped (a 5xx, a timeout, a network failure, a
 * credential refused, a body over the cap, a failed render, a trap rule, a cancel...) may hide links.
 */
const ANSWER_CODES: ReadonlySet<OutcomeCode> = new Set<OutcomeCode>([
  'http_4xx',
  'auth_required',
  'redirect',
  'redirect_out_of_scope',
  'robots_disallowed',
  'private_address',
  'soft_404',
]);

/**
 * Whether a URL that ended failed or skipped with this code may hide links: the site gave no answer about it. Read from
 * codes only, never from a reason's words (they are for people, and change).
 */
export function leavesLinksUnread(code: OutcomeCode | null): boolean {
  return code === null || !ANSWER_CODES.has(code);
}

/** What of a crawl's settings decides which pages it can reach. */
export interface ReachRules {
  seeds: readonly string[];
  scope: string;
  include: readonly string[];
  exclude: readonly string[];
  maxDepth: number | null;
  sitemaps: boolean;
}

const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && [...a].sort().every((x, i) => x === [...b].sort()[i]);

/** Whether a crawl with rules `a` reaches every page one with rules `b` can: the same rules, or wider. */
export function reachesAsFar(a: ReachRules, b: ReachRules): boolean {
  return (
    b.seeds.every((seed) => a.seeds.includes(seed)) &&
    a.scope === b.scope &&
    sameList(a.include, b.include) &&
    sameList(a.exclude, b.exclude) &&
    (a.maxDepth === null || (b.maxDepth !== null && a.maxDepth >= b.maxDepth)) &&
    (a.sitemaps || !b.sitemaps)
  );
}

/** A crawl as a comparison sees it: how far it reached, under which rules. */
export interface Reached {
  reach: Reach;
  rules: ReachRules;
}

/**
 * What a recrawl (`now`) may conclude of pages against the crawl before it (`before`; null: a schedule's first run,
 * nothing to compare with):
 * - `unlinkedGone`: a page the previous crawl stored that this one never found is gone (no page it fetched links to
 *   it), which needs this crawl's reach complete, under rules that reach as far as the previous crawl's;
 * - `unseenNew`: a page this crawl stored that the previous one never found is new, which needs the previous crawl's
 *   reach complete, under rules that reach as far as this one's;
 * - `provisional`: either crawl is still running, so pages may still be reached and the figures move.
 */
export interface Comparison {
  unlinkedGone: boolean;
  unseenNew: boolean;
  provisional: boolean;
}

export function compareReaches(now: Reached, before: Reached | null): Comparison {
  const running = (r: Reach) => r.cuts.includes('running');
  if (before === null) return { unlinkedGone: false, unseenNew: true, provisional: running(now.reach) };
  return {
    unlinkedGone: now.reach.complete && reachesAsFar(now.rules, before.rules),
    unseenNew: before.reach.complete && reachesAsFar(before.rules, now.rules),
    provisional: running(now.reach) || running(before.reach),
  };
}

/**
 * What a recrawl says of a page against the crawl before it: `new`, `changed`, `unchanged` (this crawl stored it),
 * `gone` (the previous crawl stored it, and the site no longer has it: its URL answered 404, 410, 301 or 308, or no
 * page this crawl fetched links to it while this crawl reached all it found), `unreached` (the previous crawl stored
 * it, this one did not reach it or got no answer about it: not gone), `unreachedBefore` (this crawl stored it, the
 * previous one did not reach it: not new).
 */
export const CHANGE_KINDS = ['new', 'changed', 'unchanged', 'gone', 'unreached', 'unreachedBefore'] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

/** A recrawl's pages by kind, and whether the figures may still move (a crawl still runs). */
export type ChangeCounts = Record<ChangeKind, number> & { provisional: boolean };
