import { type DomElement, type DomNode, selectAll } from '../dom';
import { CONTENT_SELECTORS } from './patterns';
import { type Stats, statsOf } from './stats';

/** HTML's own containers: around the heart, taken only when what they add is mostly prose (generators' are trusted). */
const GENERIC = new Set(['article', 'main', '[role="main"]']);
/** Material an HTML container adds around the widened heart must be this share prose. */
const AROUND_GOOD = 0.5;
/** A container inside the heart must hold this share of its prose to be taken instead. */
const INNER_SHARE = 0.6;

/** Whether `outer` is `inner` or one of its ancestors. */
export function holds(outer: DomNode, inner: DomNode): boolean {
  for (let node: DomNode | null = inner; node; node = node.parentNode) if (node === outer) return true;
  return false;
}

/**
 * The matches of each content selector below the body, each found on first need and kept for all that read them
 * (each is a walk over the whole body): `around`, `inside` and `largestContainer` read the same lists.
 */
export interface Marked {
  /** Matches of CONTENT_SELECTORS[index] below the body, in document order. */
  matches(index: number): DomElement[];
}

export function markedIn(body: DomElement): Marked {
  const found: DomElement[][] = [];
  let candidates: DomElement[] | null | undefined;
  return {
    matches: (index) => {
      if (candidates === undefined) candidates = candidatesIn(body);
      const selector = CONTENT_SELECTORS[index] ?? '';
      found[index] ??= candidates ? matching(candidates, selector) : selectAll(body, selector);
      return found[index];
    },
  };
}

/** Past this many elements matching some content selector, each selector walks the body itself. */
const CANDIDATES = 64;

/**
 * The elements below the body matching any content selector, found in one walk: each selector's matches are among
 * them. Null when they are too many to test one by one, or the selectors cannot be run as one list.
 */
function candidatesIn(body: DomElement): DomElement[] | null {
  try {
    const all = Array.from(body.querySelectorAll(CONTENT_SELECTORS.join(', ')));
    return all.length <= CANDIDATES ? all : null;
  } catch {
    return null;
  }
}

/** The candidates a selector matches, in document order (none when it cannot be run, as selectAll has it). */
function matching(candidates: DomElement[], selector: string): DomElement[] {
  try {
    return candidates.filter((element) => element.matches(selector));
  } catch {
    return [];
  }
}

/** The first container with a match around the widened heart: a generator's, or HTML's when it adds mostly prose. */
export function around(marked: Marked, wide: DomElement, stats: Map<DomElement, Stats>): DomElement | null {
  const inner = statsOf(stats, wide);
  for (const [index, selector] of CONTENT_SELECTORS.entries())
    for (const match of marked.matches(index)) {
      if (match === wide || !holds(match, wide)) continue;
      const outer = statsOf(stats, match);
      if (!GENERIC.has(selector) || outer.good - inner.good >= (outer.chars - inner.chars) * AROUND_GOOD) return match;
    }
  return null;
}

/** The first container with a match inside the widened heart holding most of its prose. */
export function inside(marked: Marked, wide: DomElement, stats: Map<DomElement, Stats>): DomElement | null {
  const need = statsOf(stats, wide).good * INNER_SHARE;
  for (const index of CONTENT_SELECTORS.keys())
    for (const match of marked.matches(index))
      if (statsOf(stats, match).good >= need && match !== wide && holds(wide, match)) return match;
  return null;
}

/** The container with the most text whatever it is made of: pages of links (indexes, tables of contents). */
export function largestContainer(marked: Marked, stats: Map<DomElement, Stats>): DomElement | null {
  let best: DomElement | null = null;
  let bestChars = 0;
  for (const index of CONTENT_SELECTORS.keys())
    for (const match of marked.matches(index)) {
      const chars = statsOf(stats, match).chars;
      if (chars > bestChars) {
        best = match;
        bestChars = chars;
      }
    }
  return best;
}
