import { type DomElement, type DomNode, isElement } from '../dom';
import { around, inside, largestContainer, markedIn } from './containers';
import { heartOf, widen } from './heart';
import { namedBoilerplate } from './patterns';
import { outerSection } from './sections';
import { type Stats, statsOf } from './stats';

/** How the root was chosen. */
export type Pick = 'structure' | 'density' | 'none';

/** A pick holding less than this share of the densest element's prose is a miss (a recipe's lists, a split article). */
const MISS_SHARE = 0.33;

/** The element whose prose most outweighs the rest of its text (prose counted twice, less all its text). */
function densest(body: DomElement, stats: Map<DomElement, Stats>): DomElement {
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

/**
 * Whether an element is inside furniture its class or role names (DocBook's navigation header table, a sidebar).
 * Ids are not read: documentation slugs its pages and sections into them ("ref-forms-widgets").
 */
function inNamedFurniture(element: DomElement, body: DomElement): boolean {
  for (let node: DomNode | null = element; node && node !== body && isElement(node); node = node.parentNode)
    if (namedBoilerplate(null, node.getAttribute('class'), node.getAttribute('role'))) return true;
  return false;
}

/**
 * The root of the main content. The heart of the prose (Readability's top candidate), widened over its content
 * siblings; a container the page marks inside it or around it; checked against the densest element, as
 * trafilatura checks its pick against a baseline. No prose at all, or prose everywhere: the largest marked container.
 */
export function chooseRoot(
  body: DomElement,
  stats: Map<DomElement, Stats>,
): { root: DomElement; pick: Pick; heart: DomElement | null } {
  const found = heartOf(stats);
  // A heart without prose in named furniture is no heart: a page of links whose only scored text is its header.
  const heart = found && (statsOf(stats, found).prose > 0 || !inNamedFurniture(found, body)) ? found : null;
  const wide = heart ? outerSection(widen(heart, body, stats), body, stats) : body;
  const marked = markedIn(body);
  if (!heart || wide === body) {
    const largest = largestContainer(marked, stats);
    if (largest) return { root: largest, pick: 'structure', heart: null };
    if (!heart) return { root: body, pick: 'none', heart: null };
  }
  const container = inside(marked, wide, stats) ?? around(marked, wide, stats);
  const root = container ?? wide;
  const dense = densest(body, stats);
  if (statsOf(stats, root).chars < statsOf(stats, dense).good * MISS_SHARE)
    return { root: dense, pick: 'density', heart: null };
  return { root, pick: container ? 'structure' : 'density', heart };
}
