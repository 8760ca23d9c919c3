import type { DomElement } from '../dom';
import { holds } from './containers';
import { chapterToc, namedFurniture } from './patterns';
import { FURNITURE, LINK_DENSE, type Stats, statsOf } from './stats';

/** Why an element is cut from the content. */
type Cut = 'furniture' | 'named' | 'links';

/** Elements never cut for their names or links: what they hold is content whatever they are called. */
const KEEP = new Set(['pre', 'code', 'table', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p', 'blockquote']);
/** Code is never pruned inside: a highlighter's `span.comment` is the code's comment, not a comment thread. */
const CODE = new Set(['pre', 'code']);
/** Blocks judged by their link density. */
const LINK_BLOCKS = new Set(['ul', 'ol', 'dl', 'div', 'section', 'header', 'li']);

/**
 * Classes of furniture that the shared word list does not hold: an authors' box, post meta, likes, disclosures.
 * Classes only: an id is often a heading's slug ("for-application-authors").
 */
const MORE_NAMES = /(^|[\s_-])(authors|postmetadata|saboxplugin-\w+|likes|disclosure|appstores)([\s_-]|$)/i;

/** Names that mark a paragraph itself as furniture: a newsletter box, a byline, a credit, a caption, a disclaimer. */
const PARAGRAPH_NAMES =
  /(^|[\s_-])(newsletter|subscribe|subscription|byline|credits?|caption|copyright|disclaimer|paywall)([\s_-]|$)/i;

interface Options {
  /** The heart of the prose: it and its ancestors are never cut. */
  heart: DomElement | null;
  stats: Map<DomElement, Stats>;
  links: boolean;
}

function cutOf(element: DomElement, options: Options): Cut | null {
  if (options.heart && holds(element, options.heart)) return null;
  const s = statsOf(options.stats, element);
  const name = element.localName;
  if (FURNITURE.has(name) || name === 'form' || name === 'figcaption') return 'furniture';
  if (
    name === 'p' &&
    PARAGRAPH_NAMES.test(`${element.getAttribute('id') ?? ''} ${element.getAttribute('class') ?? ''}`)
  )
    return 'named';
  if (KEEP.has(name)) return null;
  if (namedFurniture(element)) return 'named';
  const className = element.getAttribute('class');
  if (className && MORE_NAMES.test(className)) return 'named';
  if (options.links && LINK_BLOCKS.has(name) && s.chars > 0 && s.linkChars > s.chars * LINK_DENSE) return 'links';
  return null;
}

/** The elements to cut below `element`, outermost only. */
function collect(element: DomElement, options: Options, cuts: DomElement[]): void {
  for (const child of Array.from(element.children)) {
    // A chapter's table of its sections is the page's content, links and all; code is content whole.
    if (chapterToc(child) || CODE.has(child.localName)) continue;
    if (cutOf(child, options)) cuts.push(child);
    else collect(child, options, cuts);
  }
}

/**
 * Cuts page furniture out of the chosen root: nav, aside, footer and forms, elements named as furniture, and blocks
 * made mostly of links. When cutting links would leave less than a quarter of the text (an index page, a table of
 * contents: the links are the content), links stay.
 */
export function prune(root: DomElement, heart: DomElement | null, stats: Map<DomElement, Stats>): void {
  const total = statsOf(stats, root).chars;
  let cuts: DomElement[] = [];
  collect(root, { heart, stats, links: true }, cuts);
  const left = total - cuts.reduce((sum, cut) => sum + statsOf(stats, cut).chars, 0);
  if (left < total * 0.25) {
    cuts = [];
    collect(root, { heart, stats, links: false }, cuts);
  }
  for (const cut of cuts) cut.remove();
}
