/**
 * Crawler traps: the rules that keep a crawl out of URL spaces with no end (docs/crawling.md, "Traps"). Each is on by
 * default and can be turned off per crawl (`traps: {<rule>: false}`). A URL a rule keeps from being fetched ends
 * `skipped` with the code `trap` and a reason naming the rule and the pattern (trapReason), so /errors, /stats, the
 * dashboard and Firecrawl's error lists say why.
 */
import { z } from 'zod';

export const TRAP_RULES = [
  /** A path that repeats a segment (or a run of segments) three times in a row, or one segment four times. */
  'repeatedSegments',
  /** A path far deeper than the host's pages that hold content of their own. */
  'deepPaths',
  /** URLs under a path whose page is the page of a shorter path again (a relative link on a page any path answers). */
  'pathEchoes',
  /** URL patterns that keep giving near-identical pages: calendars, facets, sort orders, pagination past the end. */
  'urlPatterns',
  /** Session ids and tracking parameters stripped from every URL (domain/url/session-params.ts). */
  'sessionParams',
  /** Pages that read as their host's "not found" page, answered 200 (soft 404s): not stored, links not followed. */
  'soft404',
] as const;
export type TrapRule = (typeof TRAP_RULES)[number];

const RULE_DESCRIPTIONS: Record<TrapRule, string> = {
  repeatedSegments: 'Skip paths that repeat a segment or a run of segments (/a/b/a/b/a/b/, /x/x/x/).',
  deepPaths: "Skip paths far deeper than the host's pages that have content of their own.",
  pathEchoes:
    "Skip URLs under a path whose page is a shorter path's page again (a relative link on a page that answers any path).",
  urlPatterns:
    'Skip URL patterns that keep giving near-identical pages (calendars, facets, sort orders, pagination past the end), and fold query parameters that never change a page.',
  sessionParams:
    'Strip session ids and tracking parameters (utm_*, sid, jsessionid, PHPSESSID, sessionid, gclid, fbclid...) from every URL.',
  soft404: 'Record pages that read as the host\'s "not found" page as soft_404: not stored, their links not followed.',
};

const on = (rule: TrapRule) => z.boolean().default(true).describe(RULE_DESCRIPTIONS[rule]);

export const trapSettingsSchema = z
  .object({
    repeatedSegments: on('repeatedSegments'),
    deepPaths: on('deepPaths'),
    pathEchoes: on('pathEchoes'),
    urlPatterns: on('urlPatterns'),
    sessionParams: on('sessionParams'),
    soft404: on('soft404'),
  } satisfies Record<TrapRule, z.ZodDefault<z.ZodBoolean>>)
  .strict()
  .describe('Crawler-trap rules, each on unless turned off here (docs/crawling.md, "Traps").');

/** The rules a crawl applies: every one on unless turned off. */
export type TrapSettings = z.output<typeof trapSettingsSchema>;

/** Every rule on: what a crawl applies when it says nothing. */
export const allTraps = (): TrapSettings => trapSettingsSchema.parse({});

/** What a rule found: the rule, and the pattern it found in the URL (words for people, with the URL's own parts). */
export interface TrapHit {
  rule: TrapRule;
  pattern: string;
}

/** The reason a trapped URL ends with: `trap: <rule> (<pattern>)`. */
export const trapReason = (hit: TrapHit): string => `trap: ${hit.rule} (${hit.pattern.slice(0, 300)})`;

/** Whether the crawl's rules learn from the pages it stores (their object is told of each chunk's pages). */
export const trapsLearn = (rules: TrapSettings): boolean => rules.urlPatterns || rules.pathEchoes || rules.deepPaths;
