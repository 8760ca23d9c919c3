import type { DomElement } from '../dom';
import { chooseRoot, type Pick } from './choose';
import { lines, trimEdges } from './edges';
import { cutElsewhere } from './lines';
import { type PageKind, prune } from './prune';

export type { Pick } from './choose';
export type { PageKind } from './prune';

import { measure, statsOf } from './stats';

/**
 * The main content of a page's body: a root chosen by structure or text density, its furniture cut out; and the
 * prose of the whole body before anything was cut (what the baseline may hold at most: main/baseline.ts); and the
 * warnings of what was cut from inside the text (lists of links between its paragraphs: main/prose-links.ts).
 */
export function findMain(
  body: DomElement,
  kind: PageKind = { product: false },
): { root: DomElement; pick: Pick; bodyProse: number; notes: string[] } {
  const stats = measure(body);
  const bodyProse = statsOf(stats, body).prose;
  const chosen = chooseRoot(body, stats);
  const notes = prune(chosen.root, chosen.heart, stats, kind);
  cutElsewhere(lines(chosen.root), chosen.root);
  trimEdges(chosen.root);
  return { root: chosen.root, pick: chosen.pick, bodyProse, notes };
}
