import { collapse, type DomElement } from '../dom';
import type { Pick } from './choose';
import { lines, trimEdges } from './edges';
import { cutElsewhere } from './lines';
import { type PageKind, prune } from './prune';
import { measure, statsOf } from './stats';

/**
 * A second, simpler extraction, to compare the first with where it looks poor (trafilatura's baseline): no root is
 * chosen, the whole body is pruned as a chosen root is (furniture, named boilerplate, blocks of links, "read also"
 * and meta lines cut). It misses nothing the first could have missed by choosing the wrong element; it keeps
 * whatever else the page has.
 */
function baseline(body: DomElement, kind: PageKind): DomElement {
  const stats = measure(body);
  prune(body, null, stats, kind);
  cutElsewhere(lines(body), body);
  trimEdges(body);
  return body;
}

/** Characters of prose (blocks of at least 80 characters, mostly not links, outside furniture) under an element. */
const proseOf = (element: DomElement): number => statsOf(measure(element), element).prose;

/**
 * A content this short (characters) is compared with the baseline, taken when it has BASELINE_GAIN times the
 * content's prose (and at least BASELINE_MIN). Chosen on the dev half of trafilatura's set (1,500 and 3,000
 * characters, gains 2 and 3 tried): 3,000 found 3 snippets more of 1,470 and cost every page under it a second walk.
 */
const COMPARE_BELOW = 1500;
const BASELINE_GAIN = 2;
const BASELINE_MIN = 200;

/**
 * The content found, or the baseline of `whole()` (a copy of the body before the first extraction cut it) where the content is
 * short and the baseline holds several times its prose: the first extraction chose an element that misses most of
 * the text (a sidebar's one paragraph over an article of short lines).
 */
export function compared(
  found: { root: DomElement; pick: Pick; bodyProse: number },
  whole: () => DomElement,
  kind: PageKind,
): { root: DomElement; pick: Pick } {
  const { root, pick } = found;
  if (collapse(root.textContent).length >= COMPARE_BELOW) return { root, pick };
  const needed = Math.max(proseOf(root) * BASELINE_GAIN, BASELINE_MIN);
  // Pruning only takes away: a body without that much prose before it gives a baseline without it either.
  if (found.bodyProse <= needed) return { root, pick };
  const other = baseline(whole(), kind);
  if (proseOf(other) > needed) return { root: other, pick: 'density' };
  return { root, pick };
}
