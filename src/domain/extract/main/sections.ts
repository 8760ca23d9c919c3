import { type DomElement, isElement } from '../dom';
import { type Stats, statsOf } from './stats';

/** What a section around the root adds must be at most this share links... */
const SECTION_LINKS = 0.3;
/** ...and at least this share text of content blocks (not links, not furniture, not comments). */
const SECTION_GOOD = 0.6;
const SECTION_CLASS = /(^|\s)section(\s|$)/;

/** A section of a document: HTML's `section`, or a block generators class as one (Sphinx, DocBook's `div.sect1`). */
function isSection(element: DomElement): boolean {
  return element.localName === 'section' || SECTION_CLASS.test(element.getAttribute('class') ?? '');
}

/**
 * The root widened to the outermost document section around it whose added text is content: a document's first
 * section holds its title, its lead and its other sections beside the one the prose scored highest (a release note's
 * short sections, each too small to read as prose, with the title heading and the date above them).
 */
export function outerSection(root: DomElement, body: DomElement, stats: Map<DomElement, Stats>): DomElement {
  const inner = statsOf(stats, root);
  let best = root;
  for (let node = root.parentNode; node && isElement(node) && node !== body; node = node.parentNode) {
    if (!isSection(node)) continue;
    const outer = statsOf(stats, node);
    const added = outer.chars - inner.chars;
    if (outer.linkChars - inner.linkChars > added * SECTION_LINKS) break;
    if (outer.good - inner.good < added * SECTION_GOOD) break;
    best = node;
  }
  return best;
}
