import { type DomElement, type DomNode, isElement } from '../dom';
import { type Stats, statsOf } from './stats';

/** A sibling is content when its score is this share of the heart's (and at least SIBLING_MIN), as Readability has it. */
const SIBLING_SHARE = 0.2;
const SIBLING_MIN = 10;
/** The heart widens to its parent when content siblings make at least this share of what the parent adds. */
const WIDEN_SHARE = 0.7;
/** A sibling mostly of prose paragraphs, with links under this share of its text, is content. */
const SIBLING_LINKS = 0.4;
/** A sibling of the same tag and class is content with links under this share. */
const KIN_LINKS = 0.5;

/** Candidates for the heart looked at, best first, for one outside a footer. */
const CANDIDATES = 5;
const FOOTER = /(^|[\s_-])(footer|colophon)([\s_-]|$)/i;

/** Whether an element is inside a footer named by its id, class or role: a footer's paragraph is never the heart. */
function inFooter(element: DomElement): boolean {
  for (let node: DomNode | null = element; node && isElement(node); node = node.parentNode) {
    if (node.localName === 'body') return false;
    if (node.getAttribute('role') === 'contentinfo') return true;
    if (FOOTER.test(`${node.getAttribute('id') ?? ''} ${node.getAttribute('class') ?? ''}`)) return true;
  }
  return false;
}

/**
 * The element most of the prose hangs from: Readability's top candidate, its score scaled by what is not links, the
 * best of the first few that is not in a footer.
 */
export function heartOf(stats: Map<DomElement, Stats>): DomElement | null {
  const ranked: [DomElement, number][] = [];
  for (const [element, s] of stats)
    if (s.score > 0) ranked.push([element, s.score * (1 - s.linkChars / (s.chars || 1))]);
  ranked.sort((a, b) => b[1] - a[1]);
  const top = ranked.slice(0, CANDIDATES);
  return (top.find(([element]) => !inFooter(element)) ?? top[0])?.[0] ?? null;
}

/** Whether a sibling reads as more of the same content: scored like it, of the same kind, or prose. */
function contentSibling(sibling: DomElement, current: DomElement, heartScore: number, stats: Map<DomElement, Stats>) {
  const s = statsOf(stats, sibling);
  if (s.score >= Math.max(SIBLING_MIN, heartScore * SIBLING_SHARE)) return true;
  const links = s.linkChars / (s.chars || 1);
  // More of the same: the next section of a document, the next box of a split article.
  const kind = current.getAttribute('class');
  if (kind && sibling.localName === current.localName && sibling.getAttribute('class') === kind && links < KIN_LINKS)
    return true;
  return s.prose > 0 && s.prose >= s.chars * 0.5 && links < SIBLING_LINKS;
}

/**
 * The heart widened to its parents while what they add is mostly content siblings: an article split in sibling
 * blocks (a lead and a body, the sections of a document) is one.
 */
export function widen(heart: DomElement, top: DomElement, stats: Map<DomElement, Stats>): DomElement {
  const heartScore = statsOf(stats, heart).score;
  let current = heart;
  while (current !== top) {
    const parent = current.parentNode;
    if (!parent || !isElement(parent)) break;
    let added = 0;
    let content = 0;
    for (const sibling of Array.from(parent.children)) {
      if (sibling === current) continue;
      const chars = statsOf(stats, sibling).chars;
      added += chars;
      if (contentSibling(sibling, current, heartScore, stats)) content += chars;
    }
    if (added > 0 && content < added * WIDEN_SHARE) break;
    current = parent;
  }
  return current;
}
