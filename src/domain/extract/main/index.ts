import type { DomElement } from '../dom';
import { chooseRoot, type Pick } from './choose';
import { lines, trimEdges } from './edges';
import { cutElsewhere } from './lines';
import { type PageKind, prune } from './prune';

export type { PageKind } from './prune';

import { measure, statsOf } from './stats';

/**
 * The main content of a page's body: a root chosen by structure or text density, its furniture cut out; and the
 * prose and discussion of the whole body before anything was cut (what a second opinion may hold at most:
 * main/baseline.ts); and the warnings of what was cut from inside the text (lists of links between its paragraphs:
 * main/prose-links.ts).
 */
export function findMain(body: DomElement, kind: PageKind = { product: false }): Found {
  const stats = measure(body, kind.thread);
  const { prose: bodyProse, talk: bodyTalk } = statsOf(stats, body);
  const chosen = chooseRoot(body, stats);
  const notes = prune(chosen.root, chosen.heart, stats, kind);
  cutElsewhere(lines(chosen.root), chosen.root);
  trimEdges(chosen.root);
  return { root: chosen.root, pick: chosen.pick, bodyProse, bodyTalk, notes };
}

/** What findMain found: the root, how it was picked, and the body's prose and discussion before anything was cut. */
export interface Found {
  root: DomElement;
  pick: Pick;
  /** Characters of prose in the whole body (what a second opinion may find at most). */
  bodyProse: number;
  /** Characters of a discussion's readable blocks in the whole body (comments, a forum's posts). */
  bodyTalk: number;
  /** Warnings of what was cut from inside the text (lists of links between its paragraphs: main/prose-links.ts). */
  notes: string[];
}
