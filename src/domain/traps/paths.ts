/**
 * The rules read from a URL's path alone (docs/crawling.md, "Traps"): repeated segments, and how deep a path goes.
 * Pure and cheap: each is one pass over the path's segments.
 */
import { pathOf } from '../url/patterns';
import type { TrapHit } from './rules';

/** Consecutive repeats of a run of segments that make a loop: a third /guide/ in /guide/guide/guide/. */
const MAX_RUN_REPEATS = 2;
/** Runs of up to this many segments are looked for (/a/b/a/b/a/b/ is a run of two, thrice). */
const MAX_RUN_LENGTH = 3;
/** Times one segment may appear in a path at all (/a/x/a/y/a/z/a/ has it four times). */
const MAX_SEGMENT_COUNT = 3;

/** A path's segments (empty ones, from a trailing or doubled slash, left out). */
export function segmentsOf(url: string): string[] {
  return pathOf(url)
    .split('/')
    .filter((segment) => segment !== '');
}

const sameRun = (segments: readonly string[], a: number, b: number, length: number) => {
  for (let k = 0; k < length; k++) if (segments[a + k] !== segments[b + k]) return false;
  return true;
};

/** The run of segments repeated more than MAX_RUN_REPEATS times in a row, if any. */
function repeatedRun(segments: readonly string[]): string[] | null {
  for (let length = 1; length <= MAX_RUN_LENGTH; length++)
    for (let start = 0; start + length * (MAX_RUN_REPEATS + 1) <= segments.length; start++) {
      let repeats = 1;
      while (repeats <= MAX_RUN_REPEATS && sameRun(segments, start, start + repeats * length, length)) repeats++;
      if (repeats > MAX_RUN_REPEATS) return segments.slice(start, start + length);
    }
  return null;
}

/**
 * `repeatedSegments`: a path that repeats a run of one to three segments three times in a row (/guide/guide/guide/,
 * /a/b/a/b/a/b/), or has one segment four times anywhere. Real sites rarely repeat a segment twice; a relative link
 * (`guide/`) on a page that answers any path makes them without end.
 */
export function repeatedSegments(url: string): TrapHit | null {
  const segments = segmentsOf(url);
  const run = repeatedRun(segments);
  if (run) return { rule: 'repeatedSegments', pattern: `/${run.join('/')}/ ${MAX_RUN_REPEATS + 1} times in a row` };
  const counts = new Map<string, number>();
  for (const segment of segments) {
    const n = (counts.get(segment) ?? 0) + 1;
    if (n > MAX_SEGMENT_COUNT) return { rule: 'repeatedSegments', pattern: `/${segment}/ ${n} times` };
    counts.set(segment, n);
  }
  return null;
}

/** Paths this deep are always allowed, whatever the host's pages (a site's own deep docs reach it gradually). */
export const DEEP_FLOOR = 10;
/** How much deeper than the host's deepest page with content of its own a path may go. */
export const DEEP_MARGIN = 4;

/**
 * `deepPaths`: a path with more segments than max(DEEP_FLOOR, the host's deepest page of its own + DEEP_MARGIN).
 * `hostDepth`: the segments of the deepest page of the host stored with content of its own (not a copy of another).
 */
export function tooDeep(url: string, hostDepth: number): TrapHit | null {
  const depth = segmentsOf(url).length;
  const limit = Math.max(DEEP_FLOOR, hostDepth + DEEP_MARGIN);
  if (depth <= limit) return null;
  return {
    rule: 'deepPaths',
    pattern: `${depth} path segments, past ${limit} (the host's pages of their own reach ${hostDepth})`,
  };
}
