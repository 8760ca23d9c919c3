import { type DomElement, type DomNode, isElement, TEXT_NODE } from '../dom';

/** What one walk learns of an element's subtree: the facts every later choice is made from. */
export interface Stats {
  /** Characters of text, whitespace runs counted as one. */
  chars: number;
  /** Of which inside links. */
  linkChars: number;
  /** Of those, inside code (`<a><code>abs()</code></a>`, `<code>impl <a>Debug</a></code>`): names of an API, not navigation. */
  codeLinkChars: number;
  /** Characters in blocks that read as prose: mostly not links, not inside nav, aside or footer. */
  good: number;
  /** Blocks of prose (at least PROSE_CHARS of mostly unlinked text). */
  paragraphs: number;
  /** Characters in those blocks. */
  prose: number;
  /** Readability's measure: each paragraph scores its parent fully and its grandparent by half. */
  score: number;
  /** Characters in blocks that would be prose but sit in a discussion (comments, a forum's posts): not in `good`. */
  talk: number;
}

const ZERO: Stats = { chars: 0, linkChars: 0, codeLinkChars: 0, good: 0, paragraphs: 0, prose: 0, score: 0, talk: 0 };

/** Inline elements: their text belongs to the nearest block around them. */
export const INLINE = new Set(
  'a abbr b bdi bdo br cite code data del dfn em font i img ins kbd label mark q s samp small span strong sub sup time tt u var wbr'.split(
    ' ',
  ),
);
const IGNORED = new Set(
  'script style noscript template iframe object embed svg canvas head meta link input select button textarea option'.split(
    ' ',
  ),
);
/** Elements whose text is code: a link in one names something of the document's subject. */
const CODE_TEXT = new Set(['code', 'tt', 'kbd', 'samp', 'var']);
/** Elements whose text is page furniture wherever they are. */
export const FURNITURE = new Set(['nav', 'aside', 'footer', 'menu']);
/** A block whose links make up this share of its text or more reads as navigation. */
export const LINK_DENSE = 0.5;
const PROSE_CHARS = 80;
/** Readability's shortest scored paragraph. */
const SCORED_CHARS = 25;
/** Blocks that are not paragraphs: list items, headings, cells of a header. */
const UNSCORED = new Set([
  'li',
  'dt',
  'th',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'caption',
  'figcaption',
  'label',
  'legend',
]);

/** Comment threads: prose, but not the page's. */
const DISCUSSION = /(^|[\s_-])(comments?|comment-list|commentlist|respond|disqus|replies)([\s_-]|$)/i;
const WRAPPERS = new Set(['html', 'body', 'main', 'article']);

function discussion(element: DomElement): boolean {
  if (WRAPPERS.has(element.localName)) return false;
  const id = element.getAttribute('id');
  const className = element.getAttribute('class');
  return (id !== null || className !== null) && DISCUSSION.test(`${id ?? ''} ${className ?? ''}`);
}

interface Open {
  chars: number;
  link: number;
  commas: number;
}

/** Characters of a text with its whitespace runs counted as one (edges not counted), and its commas. */
export function textChars(text: string): { chars: number; commas: number } {
  let chars = 0;
  let commas = 0;
  let space = true;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const isSpace = c === 32 || c === 10 || c === 9 || c === 13 || c === 12 || c === 160;
    if (isSpace) space = true;
    else {
      chars += space && chars > 0 ? 2 : 1;
      space = false;
      if (c === 44 || c === 0xff0c || c === 0x3001) commas++;
    }
  }
  return { chars, commas };
}

/** A paragraph's worth to the element around it, as Readability counts: one, its commas, a point per 100 chars up to 3. */
function credit(element: DomElement, open: Open, stats: Map<DomElement, Stats>): void {
  const worth = 1 + open.commas + Math.min(Math.floor(open.chars / 100), 3);
  const parent = element.parentNode;
  const up = parent && isElement(parent) ? stats.get(parent) : undefined;
  if (!up || !parent) return;
  up.score += worth;
  const grand = parent.parentNode;
  const upper = grand && isElement(grand) ? stats.get(grand) : undefined;
  if (upper) upper.score += worth / 2;
}

/**
 * One walk over `root`: Stats for every element below it (and itself). In a thread (a forum's page), the posts are
 * the prose: a discussion is not set apart.
 */
export function measure(root: DomElement, thread = false): Map<DomElement, Stats> {
  const stats = new Map<DomElement, Stats>();
  visit(root, { link: false, boiler: false, code: false, furniture: false, thread }, stats);
  return stats;
}

/** What the elements around a node make of its text. */
interface Within {
  link: boolean;
  boiler: boolean;
  code: boolean;
  /** Inside nav, aside, footer or menu: not even a discussion's prose. */
  furniture: boolean;
  /** The page is a thread: its discussion is its content. */
  thread: boolean;
}

function visit(element: DomElement, within: Within, stats: Map<DomElement, Stats>): Open {
  const own: Stats = { chars: 0, linkChars: 0, codeLinkChars: 0, good: 0, paragraphs: 0, prose: 0, score: 0, talk: 0 };
  stats.set(element, own);
  const name = element.localName;
  if (IGNORED.has(name)) return { chars: 0, link: 0, commas: 0 };
  const furniture = within.furniture || FURNITURE.has(name);
  const inner: Within = {
    link: within.link || name === 'a',
    boiler: within.boiler || furniture || (!within.thread && discussion(element)),
    code: within.code || CODE_TEXT.has(name),
    furniture,
    thread: within.thread,
  };
  const boiler = inner.boiler;
  const open: Open = { chars: 0, link: 0, commas: 0 };
  // One walk state for all the children (addChild changes what own and open hold, never the state itself).
  const walk: Walk = { ...inner, own, open, stats };
  const children = element.childNodes;
  for (let i = 0; i < children.length; i++) addChild(children[i] as DomNode, walk);
  if (INLINE.has(name)) return open;
  // A block: the inline text gathered in it is one paragraph, prose or not.
  const readable = open.chars > 0 && open.link < open.chars * LINK_DENSE;
  if (boiler && !furniture && readable) own.talk += open.chars;
  if (!boiler && readable) {
    own.good += open.chars;
    if (open.chars >= PROSE_CHARS) {
      own.paragraphs++;
      own.prose += open.chars;
    }
    if (open.chars >= SCORED_CHARS && !UNSCORED.has(name)) credit(element, open, stats);
  }
  return { chars: 0, link: 0, commas: 0 };
}

interface Walk extends Within {
  own: Stats;
  open: Open;
  stats: Map<DomElement, Stats>;
}

function addChild(child: DomNode, walk: Walk): void {
  const { own, open } = walk;
  if (child.nodeType === TEXT_NODE) {
    const { chars, commas } = textChars(child.textContent ?? '');
    own.chars += chars;
    open.chars += chars;
    open.commas += commas;
    if (walk.link) {
      own.linkChars += chars;
      open.link += chars;
      if (walk.code) own.codeLinkChars += chars;
    }
    return;
  }
  if (!isElement(child)) return;
  const inner = visit(child, walk, walk.stats);
  const sub = walk.stats.get(child);
  if (!sub) return;
  own.chars += sub.chars;
  own.linkChars += sub.linkChars;
  own.codeLinkChars += sub.codeLinkChars;
  own.good += sub.good;
  own.paragraphs += sub.paragraphs;
  own.prose += sub.prose;
  own.talk += sub.talk;
  open.chars += inner.chars;
  open.link += inner.link;
  open.commas += inner.commas;
}

/** The stats of an element (zeros for one the walk did not reach). */
export const statsOf = (stats: Map<DomElement, Stats>, element: DomElement): Stats => stats.get(element) ?? ZERO;
