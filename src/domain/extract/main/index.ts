import type { DomElement } from '../dom';
import { chooseRoot, type Pick } from './choose';
import { lines, trimEdges } from './edges';
import { cutElsewhere } from './lines';
import { type PageKind, prune } from './prune';

export type { Pick } from './choose';
export type { PageKind } from './prune';

import { measure } from './stats';

/** The main content of a page's body: a root chosen by structure or text density, its furniture cut out. */
export function findMain(body: DomElement, kind: PageKind = { product: false }): { root: DomElement; pick: Pick } {
  const stats = measure(body);
  const chosen = chooseRoot(body, stats);
  prune(chosen.root, chosen.heart, stats, kind);
  cutElsewhere(lines(chosen.root), chosen.root);
  trimEdges(chosen.root);
  return chosen;
}
