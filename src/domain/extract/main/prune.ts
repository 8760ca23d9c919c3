import { type DomElement, type DomNode, isElement, selectAll } from '../dom';
import { holds } from './containers';
import { chapterToc, furnitureWords, namedFurniture, namedTags } from './patterns';
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
  /** A thread (a forum's, a discussion's): its posts are the content, whatever their names (`comment-123`). */
  thread?: boolean;
}

interface Options extends PageKind {
  /** The heart of the prose: it and its ancestors are never cut. */
  heart: DomElement | null;
  stats: Map<DomElement, Stats>;
  links: boolean;
  /** Whether names cut blocks of prose too (not when they would cut most of the prose: a page builder's names). */
  names: boolean;
  /** Furniture words in the class names the heart or its ancestors wear: the content's own, not furniture here. */
  own: ReadonlySet<string>;
}

/** How many elements, from the heart up, are read for the content's own names (a builder's block and its wrapper). */
const OWN_LEVELS = 3;

/**
 * The furniture words in the class names of the heart and the elements just around it, below the root (a page
 * builder's "widget"); not higher, where a CMS writes the post's categories (`category-social-media`).
 */
function ownNames(root: DomElement, heart: DomElement | null): Set<string> {
  const own = new Set<string>();
  let node: DomNode | null = heart;
  for (let level = 0; level < OWN_LEVELS && node && node !== root && isElement(node); level++, node = node.parentNode)
    for (const name of (node.getAttribute('class') ?? '').split(/\s+/))
      for (const word of furnitureWords(name)) own.add(word);
  return own;
}

/**
 * A form holding this much prose, most of its text, wraps content rather than asking for input (a forum's posts
 * inside its moderation form, an ASP.NET page inside its one form).
 */
const FORM_PROSE = 500;
const proseForm = (s: Stats) => s.good >= FORM_PROSE && s.good >= s.chars * 0.5;

/** Share of an element's text that prose (or a thread's posts) must make for a name not to cut it, names aside. */
const NAMED_PROSE = 0.5;

/** Whether a name spares an element: it is a thread's post, or mostly prose where names would cut most of it. */
function spared(s: Stats, options: Options): boolean {
  if (options.thread && s.good + s.talk >= s.chars * NAMED_PROSE) return true;
  return !options.names && s.good >= s.chars * NAMED_PROSE;
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
  if (FURNITURE.has(name) || name === 'figcaption' || (name === 'form' && !proseForm(s))) return 'furniture';
  if (
    name === 'p' &&
    PARAGRAPH_NAMES.test(`${element.getAttribute('id') ?? ''} ${element.getAttribute('class') ?? ''}`)
  )
    return 'named';
  if (KEEP.has(name)) return null;
  const className = element.getAttribute('class');
  if ((namedFurniture(element, options.own) || (className && MORE_NAMES.test(className))) && !spared(s, options))
    return 'named';
  if (options.links && LINK_BLOCKS.has(name) && linkDense(s) && !tabular(element, options.stats)) return 'links';
  return null;
}

/**
 * A data table: three rows or more, each of the first row's number of cells (two or more), no table inside, not named
 * as furniture. A layout table of navigation has one row of many cells, or rows of one.
 */
function dataTable(table: DomElement): boolean {
  const rows = selectAll(table, 'tr');
  const width = rows[0]?.children.length ?? 0;
  return (
    rows.length >= 3 &&
    width >= 2 &&
    rows.every((row) => row.children.length === width) &&
    table.querySelector('table') === null &&
    !namedFurniture(table)
  );
}

/** Share of a block of links that its data tables must hold for it to be read as tables, not as a block of links. */
const TABULAR_SHARE = 0.6;

/**
 * Whether a block is mostly data tables, whatever their cells' links (an API's index of functions, a grid of linked
 * names, in Sphinx's `section` with its heading): a table whose cells are mostly links is still a table.
 */
function tabular(element: DomElement, stats: Map<DomElement, Stats>): boolean {
  const chars = selectAll(element, 'table')
    .filter(dataTable)
    .reduce((sum, table) => sum + statsOf(stats, table).chars, 0);
  return chars >= statsOf(stats, element).chars * TABULAR_SHARE;
}

/** The elements to cut below `element`, outermost only. */
function collect(element: DomElement, options: Options, cuts: DomElement[]): void {
  for (const child of Array.from(element.children)) {
    if (whole(child, options)) continue;
    if (cutOf(child, options)) cuts.push(child);
    else collect(child, options, cuts);
  }
}

/** Characters of text, and of prose, that cutting `cuts` would take away. */
function taken(cuts: DomElement[], stats: Map<DomElement, Stats>): { chars: number; good: number } {
  let chars = 0;
  let good = 0;
  for (const cut of cuts) {
    const s = statsOf(stats, cut);
    chars += s.chars;
    good += s.good;
  }
  return { chars, good };
}

/**
 * Cuts page furniture out of the chosen root: nav, aside, footer and forms, elements named as furniture, and blocks
 * made mostly of links. When cutting links would leave less than a quarter of the text (an index page, a table of
 * contents: the links are the content), links stay. When names would cut most of the prose, they name a page
 * builder's blocks (Elementor's `elementor-widget-text-editor`), not furniture: the words the heart's own classes
 * wear do not cut (without a heart, no name cuts a block of prose). Returns a warning for each list of links cut
 * from between two paragraphs of the text (main/prose-links.ts).
 */
export function prune(
  root: DomElement,
  heart: DomElement | null,
  stats: Map<DomElement, Stats>,
  kind: PageKind = { product: false },
): string[] {
  const { chars: total, good } = statsOf(stats, root);
  const options: Options = { ...kind, heart, stats, links: true, names: true, own: new Set() };
  let cuts: DomElement[] = [];
  collect(root, options, cuts);
  const cut = taken(cuts, stats);
  const links = total - cut.chars >= total * 0.25;
  const names = good - cut.good >= good * NAMES_LEAVE || cut.good < NAMES_MIN;
  if (!links || !names) {
    cuts = [];
    const own = names ? options.own : ownNames(root, heart);
    collect(root, { ...options, links, names: names || heart !== null, own }, cuts);
  }
  const notes: string[] = [];
  for (const cut of cuts) {
    if (listInProse(cut, stats)) notes.push(listCut(cut, proseListCut(cut, kind.site) ?? 'mostly links'));
    cut.remove();
  }
  return notes;
}
/**
 * Cuts by name that would leave less than this share of the root's prose (and take at least NAMES_MIN characters of
 * it: a footer's line is no page builder's content) are not made in blocks of prose.
 */
const NAMES_LEAVE = 0.5;
const NAMES_MIN = 1000;
