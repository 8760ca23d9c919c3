import { z } from 'zod';
import { PAGE_CHANGES, PAGE_OUTCOMES, type PageFilters, type StatusFilter } from '../storage/d1/page-filters';

/** Values a comma list filter takes at most. */
const MAX_LIST = 10;

/** A comma list of values (empty items dropped), each parsed by `item` or an issue naming it. */
function commaList<T>(name: string, item: (value: string) => T | null, expected: string) {
  return z
    .string()
    .max(500)
    .transform((raw, ctx): T[] => {
      const values = raw
        .split(',')
        .map((v) => v.trim().toLowerCase())
        .filter((v) => v !== '');
      if (values.length > MAX_LIST) {
        ctx.addIssue({ code: 'custom', message: `${name} takes at most ${MAX_LIST} values` });
        return z.NEVER;
      }
      const parsed: T[] = [];
      for (const value of values) {
        const one = item(value);
        if (one === null) {
          ctx.addIssue({ code: 'custom', message: `"${value}" is not ${expected}` });
          return z.NEVER;
        }
        parsed.push(one);
      }
      return parsed;
    });
}

/** '404' (a code) or '4xx' (a class); null for anything else. */
export function parseStatus(value: string): StatusFilter | null {
  if (/^[1-5][0-9][0-9]$/.test(value)) return { code: Number(value) };
  const cls = /^([1-5])xx$/.exec(value);
  return cls ? { class: Number(cls[1]) } : null;
}

/** Shorthands of a content type filter: the MIME prefixes they stand for. */
const CONTENT_TYPE_SHORTHANDS: Record<string, string[]> = {
  html: ['text/html', 'application/xhtml+xml'],
  pdf: ['application/pdf'],
  text: ['text/plain'],
  image: ['image/'],
  json: ['application/json'],
  xml: ['application/xml', 'text/xml'],
};

/** A shorthand's MIME prefixes, or a MIME prefix ('text/html', 'image/', 'application') itself; null if neither. */
export function parseContentType(value: string): string[] | null {
  const shorthand = CONTENT_TYPE_SHORTHANDS[value];
  if (shorthand) return shorthand;
  return /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9!#$&^_.+-]*$/.test(value) ? [value] : null;
}

const oneOf =
  <T extends string>(values: readonly T[]) =>
  (value: string): T | null =>
    values.find((v) => v === value) ?? null;

/** Words a text search takes at most. */
const MAX_TEXT_WORDS = 8;

/** The filter parameters of GET /v1/crawls/:id/pages (they combine: a page must pass every one given). */
export const pageFilterFields = {
  status: commaList('status', parseStatus, 'a status code (404) or class (2xx, 3xx, 4xx, 5xx)')
    .optional()
    .describe('HTTP status: a code (404) or a class (4xx), or a comma list of them (any of them).'),
  contentType: commaList(
    'contentType',
    parseContentType,
    `a MIME prefix (text/html, image/) or one of ${Object.keys(CONTENT_TYPE_SHORTHANDS).join(', ')}`,
  )
    .transform((lists) => lists.flat())
    .optional()
    .describe(
      `Content type: a MIME prefix (text/html, image/) or a shorthand (${Object.keys(CONTENT_TYPE_SHORTHANDS).join(', ')}; html is text/html and application/xhtml+xml), or a comma list (any of them).`,
    ),
  change: commaList('change', oneOf(PAGE_CHANGES), PAGE_CHANGES.join(', '))
    .optional()
    .describe("A recrawl's pages by how they changed since the crawl before: new, changed, unchanged (a comma list)."),
  rendered: z
    .enum(['true', 'false'], { message: 'rendered must be true or false' })
    .transform((v) => v === 'true')
    .optional()
    .describe('true: pages rendered in a browser; false: pages fetched only.'),
  outcome: commaList('outcome', oneOf(PAGE_OUTCOMES), PAGE_OUTCOMES.join(', '))
    .optional()
    .describe(
      "What became of a fetched URL (a comma list): stored (its body stored, not a duplicate), duplicate (its content is another page's), failed or skipped (recorded in GET /errors with that outcome, e.g. a 404 or a 5xx after its retries). A URL that failed or was skipped without a response (a network error, robots.txt) has no page row: GET /errors lists it. A redirect is none of these.",
    ),
  text: z
    .string()
    .max(500)
    .transform((q) => q.split(/\s+/).filter((word) => word !== ''))
    .refine((words) => words.length <= MAX_TEXT_WORDS, `text takes at most ${MAX_TEXT_WORDS} words`)
    .optional()
    .describe(
      "Words that must each appear (case-insensitive, anywhere) in the page's extracted text (its record's text, else its markdown: the crawl's extract.formats must hold one). Costly: each request reads at most 200 records from R2 (one ranged read per segment) and answers a cursor to continue.",
    ),
};

/** The filters of a validated query (undefined where not given). */
export function pageFiltersOf(query: {
  q?: string[] | undefined;
  status?: StatusFilter[] | undefined;
  contentType?: string[] | undefined;
  change?: PageFilters['change'];
  rendered?: boolean | undefined;
  outcome?: PageFilters['outcome'];
  duplicates: NonNullable<PageFilters['duplicates']>;
}): PageFilters {
  const { q, status, contentType, change, rendered, outcome, duplicates } = query;
  return { q, status, contentType, change, rendered, outcome, duplicates };
}
