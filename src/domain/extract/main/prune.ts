import type { DomElement } from '../dom';
import { holds } from './containers';
import { chapterToc, namedFurniture, namedTags } from './patterns';
import { linkDense, listCut, listInProse, proseListCut } from './prose-links';
import { FURNITURE, type Stats, statsOf } from './stats';

/** Why an element is cut from the content. */
type Cut = 'furniture' | 'named' | 'links';

/** Elements never cut for their names or links: what they hold is content whatever they are called. */
const KEEP = new Set(['pre', 'code', 'table', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p', 'blockquote']);
/** Code is never pruned inside: a highlighter's `span.comment` is the code's comment, not a comment thread. */
const CODE = new Set(['pre', 'code']);
const HEADING = /^h[1-6]$/;
/** Blocks a heading holds only when its markup is broken (an unclosed `<h3>` around the rest of the article). */
const BLOCKS_IN_HEADING = 'p, div, ul, ol, dl, table, section, article, aside, nav, header, footer, form';
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

/** What the page says it is, where that changes what its content holds. */
export interface PageKind {
  /** A product (../product.ts): the tags and categories in its content are facts of the product, not metadata. */
  product: boolean;
  /** The page's address (its base URL): links to its host are the site's own (main/prose-links.ts). */
  site?: string;
}

interface Options extends PageKind {
  /** The heart of the prose: it and its ancestors are never cut. */
  heart: DomElement | null;
  stats: Map<DomElement, Stats>;
  links: boolean;
}

/**
 * Content whole, never pruned inside: code, a heading (a link in it, Sphinx's `a.toc-backref`, is its text), a data
 * table (it has a header cell) not named as furniture (the Python docs' table of linked function names; Wikipedia's
 * navbox is pruned inside as any block), a chapter's table of its sections, a product's list of tags.
 */
function whole(element: DomElement, options: Options): boolean {
  const name = element.localName;
  if (CODE.has(name) || (options.product && namedTags(element))) return true;
  if (HEADING.test(name)) return element.querySelector(BLOCKS_IN_HEADING) === null;
  if (name === 'table') return element.querySelector('th') !== null && !namedFurniture(element);
  if (chapterToc(element)) return true;
  // A list of links inside the text that leads off-site: the text's sources (main/prose-links.ts).
  return (
    listInProse(element, options.stats) &&
    cutOf(element, options) === 'links' &&
    proseListCut(element, options.site) === null
  );
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
  if (options.links && LINK_BLOCKS.has(name) && linkDense(s)) return 'links';
  return null;
}

/** The elements to cut below `element`, outermost only. */
function collect(element: DomElement, options: Options, cuts: DomElement[]): void {
  for (const child of Array.from(element.children)) {
    if (whole(child, options)) continue;
    if (cutOf(child, options)) cuts.push(child);
    else collect(child, options, cuts);
  }
}

/**
 * Cuts page furniture out of the chosen root: nav, aside, footer and forms, elements named as furniture, and blocks
 * made mostly of links. When cutting links would leave less than a quarter of the text (an index page, a table of
 * contents: the links are the content), links stay. Returns a warning for each list of links cut from between two
 * paragraphs of the text (main/prose-links.ts).
 */
export function prune(
  root: DomElement,
  heart: DomElement | null,
  stats: Map<DomElement, Stats>,
  kind: PageKind = { product: false },
): string[] {
  const total = statsOf(stats, root).chars;
  let cuts: DomElement[] = [];
  collect(root, { ...kind, heart, stats, links: true }, cuts);
  const left = total - cuts.reduce((sum, cut) => sum + statsOf(stats, cut).chars, 0);
  if (left < total * 0.25) {
    cuts = [];
    collect(root, { ...kind, heart, stats, links: false }, cuts);
  }
  const notes: string[] = [];
  for (const cut of cuts) {
    if (listInProse(cut, stats)) notes.push(listCut(cut, proseListCut(cut, kind.site) ?? 'mostly links'));
    cut.remove();
  }
  return notes;
}
