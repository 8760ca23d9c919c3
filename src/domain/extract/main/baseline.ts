import { collapse, type DomElement } from '../dom';
import type { Pick } from './choose';
import { lines, trimEdges } from './edges';
import { type Found, findMain } from './index';
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
const proseOf = (element: DomElement, thread = false): number => statsOf(measure(element, thread), element).prose;

/**
 * A content this short (characters) is compared with the baseline, taken when it has BASELINE_GAIN times the
 * content's prose (and at least BASELINE_MIN). Chosen on the dev half of trafilatura's set (1,500 and 3,000
 * characters, gains 2 and 3 tried): 3,000 found 3 snippets more of 1,470 and cost every page under it a second walk.
 */
const COMPARE_BELOW = 1500;
const BASELINE_GAIN = 2;
const BASELINE_MIN = 200;
/**
 * A content whose text is under this share of the body's prose (or of its discussion) looks collapsed: a second
 * opinion is asked whatever its length. Its text is at least its prose, so no walk is needed to tell.
 */
const COLLAPSE_SHARE = 0.25;
/**
 * A discussion this long (characters of readable blocks) beside a collapsed content of less than THREAD_WEAK
 * characters of prose (a post of a line or two: Hacker News, old Reddit) may be the page: a thread. An article's
 * comments are beside more prose than that.
 */
const THREAD_MIN = 1000;
const THREAD_WEAK = 400;

/** A candidate for the content, and the prose it holds. */
interface Opinion {
  root: DomElement;
  pick: Pick;
  prose: number;
}

/**
 * The content found, or a second opinion where it looks poor: short, or a small share of the body's prose or of its
 * discussion (the first extraction chose a sidebar's paragraph over an article of short lines, a popover over a
 * forum's posts). The opinions, each from `whole()` (a copy of the body before the first extraction cut it): the
 * baseline (the whole body pruned), and, beside a long discussion on a page that does not say it is a thread, the
 * page read as a thread (its posts are prose: Hacker News, old Reddit). The one with the most prose wins, by
 * BASELINE_GAIN times the content's.
 */
export function compared(found: Found, whole: () => DomElement, kind: PageKind): { root: DomElement; pick: Pick } {
  const { root, pick, bodyProse, bodyTalk } = found;
  const chars = collapse(root.textContent).length;
  const collapsed = chars < bodyProse * COLLAPSE_SHARE;
  const talk = !kind.thread && bodyTalk >= THREAD_MIN && chars < bodyTalk * COLLAPSE_SHARE;
  if (chars >= COMPARE_BELOW && !collapsed && !talk) return { root, pick };
  const first = proseOf(root);
  let best: Opinion = { root, pick, prose: first };
  const needed = () => Math.max(best.prose * BASELINE_GAIN, BASELINE_MIN);
  // Pruning only takes away: a body without that much prose before it gives a baseline without it either.
  if (bodyProse > needed()) best = better(best, baseline(whole(), kind), needed());
  if (talk && first < THREAD_WEAK && bodyTalk > needed()) {
    const thread = findMain(whole(), { ...kind, thread: true }).root;
    const prose = proseOf(thread, true);
    if (prose > needed() && holdsOpening(thread, root)) best = { root: thread, pick: 'density', prose };
  }
  return { root: best.root, pick: best.pick };
}

/** Words of the content's opening that a thread read instead must hold (most of them: markup joins a few). */
const OPENING_WORDS = 12;
const OPENING_SHARE = 0.75;

const wordsOf = (element: DomElement): string[] =>
  (element.textContent ?? '').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/**
 * Whether `other` holds the opening of `found`'s text: a thread read in place of a short text must hold it (the post
 * is the thread's first), not be a comment section beside it.
 */
function holdsOpening(other: DomElement, found: DomElement): boolean {
  const opening = wordsOf(found).slice(0, OPENING_WORDS);
  const words = new Set(wordsOf(other));
  return opening.filter((word) => words.has(word)).length >= opening.length * OPENING_SHARE;
}

/** The baseline when it holds more than `needed` characters of prose, else the best so far. */
function better(best: Opinion, other: DomElement, needed: number): Opinion {
  const prose = proseOf(other);
  return prose > needed ? { root: other, pick: 'density', prose } : best;
}
