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

/** The first container with a match around the widened heart: a generator's, or HTML's when it adds mostly prose. */
export function around(body: DomElement, wide: DomElement, stats: Map<DomElement, Stats>): DomElement | null {
  const inner = statsOf(stats, wide);
  for (const selector of CONTENT_SELECTORS)
    for (const match of selectAll(body, selector)) {
      if (match === wide || !holds(match, wide)) continue;
      const outer = statsOf(stats, match);
      if (!GENERIC.has(selector) || outer.good - inner.good >= (outer.chars - inner.chars) * AROUND_GOOD) return match;
    }
  return null;
}

/** The first container with a match inside the widened heart holding most of its prose. */
export function inside(wide: DomElement, stats: Map<DomElement, Stats>): DomElement | null {
  const need = statsOf(stats, wide).good * INNER_SHARE;
  for (const selector of CONTENT_SELECTORS)
    for (const match of selectAll(wide, selector))
      if (statsOf(stats, match).good >= need && match !== wide) return match;
  return null;
}

/** The container with the most text whatever it is made of: pages of links (indexes, tables of contents). */
export function largestContainer(body: DomElement, stats: Map<DomElement, Stats>): DomElement | null {
  let best: DomElement | null = null;
  let bestChars = 0;
  for (const selector of CONTENT_SELECTORS)
    for (const match of selectAll(body, selector)) {
      const chars = statsOf(stats, match).chars;
      if (chars > bestChars) {
        best = match;
        bestChars = chars;
      }
    }
  return best;
}
