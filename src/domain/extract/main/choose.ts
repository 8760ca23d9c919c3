import { type DomElement, type DomNode, isElement, selectAll } from '../dom';
import { CONTENT_SELECTORS } from './patterns';
import type { Stats } from './stats';

/** How the root was chosen. */
export type Pick = 'structure' | 'density' | 'none';

/** A container inside the heart must hold this share of its prose to be taken instead. */
const INNER_SHARE = 0.6;

const ZERO: Stats = { chars: 0, linkChars: 0, good: 0, paragraphs: 0, prose: 0, score: 0 };

/** The element most of the prose hangs from: Readability's top candidate, its score scaled by what is not links. */
export function heartOf(stats: Map<DomElement, Stats>): DomElement | null {
  let best: DomElement | null = null;
  let bestValue = 0;
  for (const [element, s] of stats) {
    if (s.score <= 0) continue;
    const value = s.score * (1 - s.linkChars / (s.chars || 1));
    if (value > bestValue) {
      best = element;
      bestValue = value;
    }
  }
  return best;
}

/** Whether `outer` is `inner` or one of its ancestors. */
export function holds(outer: DomNode, inner: DomNode): boolean {
  for (let node: DomNode | null = inner; node; node = node.parentNode) if (node === outer) return true;
  return false;
}

/** HTML's own containers: around the heart, taken only when what they add is mostly prose (generators' are trusted). */
const GENERIC = new Set(['article', 'main', '[role="main"]']);

/** Material a container adds around the widened heart must be this share prose for the container to be taken. */
const AROUND_GOOD = 0.5;

/** The first container selector with a match around the widened heart, when what it adds is mostly prose. */
function around(body: DomElement, wide: DomElement, stats: Map<DomElement, Stats>): DomElement | null {
  const inner = stats.get(wide) ?? ZERO;
  for (const selector of CONTENT_SELECTORS)
    for (const match of selectAll(body, selector)) {
      if (match === wide || !holds(match, wide)) continue;
      const outer = stats.get(match) ?? ZERO;
      if (!GENERIC.has(selector) || outer.good - inner.good >= (outer.chars - inner.chars) * AROUND_GOOD) return match;
    }
  return null;
}

/** The first container selector with a match inside the heart holding most of its prose. */
function structural(heart: DomElement, stats: Map<DomElement, Stats>): DomElement | null {
  const need = (stats.get(heart) ?? ZERO).good * INNER_SHARE;
  for (const selector of CONTENT_SELECTORS)
    for (const match of selectAll(heart, selector))
      if ((stats.get(match) ?? ZERO).good >= need && match !== heart) return match;
  return null;
}

/** The structural container with the most text whatever it is made of: pages of links (indexes, tables of contents). */
function largestContainer(body: DomElement, stats: Map<DomElement, Stats>): DomElement | null {
  let best: DomElement | null = null;
  let bestChars = 0;
  for (const selector of CONTENT_SELECTORS)
    for (const match of selectAll(body, selector)) {
      const chars = (stats.get(match) ?? ZERO).chars;
      if (chars > bestChars) {
        best = match;
        bestChars = chars;
      }
    }
  return best;
}

/** The element whose prose most outweighs the rest of its text (prose counted twice, less all its text). */
export function densest(body: DomElement, stats: Map<DomElement, Stats>): DomElement {
  let best = body;
  let bestValue = Number.NEGATIVE_INFINITY;
  for (const [element, s] of stats) {
    const value = 2 * s.good - s.chars;
    if (value > bestValue) {
      best = element;
      bestValue = value;
    }
  }
  return best;
}

/** A pick holding less than this share of the densest element's prose is taken for a miss (a recipe's lists, a split article). */
const MISS_SHARE = 0.33;

/** The root of the main content: a known container around the heart of the prose, else the heart itself. */
export function chooseRoot(
  body: DomElement,
  stats: Map<DomElement, Stats>,
): { root: DomElement; pick: Pick; heart: DomElement | null } {
  const heart = heartOf(stats);
  if (heart) {
    const wide = widen(heart, body, stats);
    // Prose everywhere or nowhere (a footer's paragraph on an index page): a container the page marks is better.
    const marked = wide === body ? largestContainer(body, stats) : null;
    if (marked) return { root: marked, pick: 'structure', heart: null };
    const container = structural(wide, stats) ?? around(body, wide, stats);
    const root = container ?? wide;
    const dense = densest(body, stats);
    if ((stats.get(root) ?? ZERO).chars < (stats.get(dense) ?? ZERO).good * MISS_SHARE)
      return { root: dense, pick: 'density', heart: null };
    return { root, pick: container ? 'structure' : 'density', heart };
  }
  const largest = largestContainer(body, stats);
  return largest ? { root: largest, pick: 'structure', heart } : { root: body, pick: 'none', heart };
}

/** A sibling of the heart is content when its score is this share of the heart's (and at least SIBLING_MIN). */
const SIBLING_SHARE = 0.2;
const SIBLING_MIN = 10;
/** The heart widens to its parent when content siblings make at least this share of what the parent adds. */
const WIDEN_SHARE = 0.7;

/** Whether a sibling of the heart reads as more of the same content, as Readability judges siblings. */
function contentSibling(sibling: DomElement, current: DomElement, heartScore: number, stats: Map<DomElement, Stats>): boolean {
  const s = stats.get(sibling) ?? ZERO;
  if (s.score >= Math.max(SIBLING_MIN, heartScore * SIBLING_SHARE)) return true;
  const links = s.linkChars / (s.chars || 1);
  // More of the same: the next section of a document, the next box of a split article.
  const kind = current.getAttribute('class');
  if (kind && sibling.localName === current.localName && sibling.getAttribute('class') === kind && links < 0.5)
    return true;
  return s.prose > 0 && s.prose >= s.chars * 0.5 && links < 0.4;
}

/**
 * The heart widened to its parents while what they add is mostly content siblings: an article split in sibling
 * blocks (a lead and a body, a recipe's ingredients and its steps) is one.
 */
export function widen(heart: DomElement, top: DomElement, stats: Map<DomElement, Stats>): DomElement {
  const heartScore = (stats.get(heart) ?? ZERO).score;
  let current = heart;
  while (current !== top) {
    const parent = current.parentNode;
    if (!parent || !isElement(parent)) break;
    let added = 0;
    let content = 0;
    for (const sibling of Array.from(parent.children)) {
      if (sibling === current) continue;
      const chars = (stats.get(sibling) ?? ZERO).chars;
      added += chars;
      if (contentSibling(sibling, current, heartScore, stats)) content += chars;
    }
    if (added > 0 && content < added * WIDEN_SHARE) break;
    current = parent;
  }
  return current;
}
