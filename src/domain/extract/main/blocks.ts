import { type DomElement, type DomNode, isElement, TEXT_NODE } from '../dom';
import { isLineBlock } from '../markdown';
import { type BlockModel, FEATURES } from './block-model';
import { factLine, STOP } from './edges';
import { namedFurniture } from './patterns';
import { INLINE, textChars } from './stats';

/**
 * The last decision on the content's blocks, learned rather than hand-set: each block of text left after the rules
 * (main/prune, lines, edges) is read as numbers (FEATURES: its length, links, punctuation, position in the content,
 * its neighbours, its kind of element, its names) and a logistic model gives the odds that it is boilerplate (a
 * date line, a teaser, a share prompt, an author's box). The model's weights are fit by `npm run fit:blocks` on the
 * dev half of trafilatura's evaluation set and reported on the other half (block-model.ts says with what figures).
 */

/** Blocks that hold code (Doxygen's `div.fragment` too), tables or pictures are content whatever the model says. */
const HOLDS = new Set(['pre', 'code', 'table', 'img', 'figure']);
/** Elements read as a block's own text (lines(): inline elements, and items, cells and code inside it). */
const OWN = new Set([...INLINE, ...STOP]);
const LISTS = new Set(['li', 'ul', 'ol', 'dl', 'dt', 'dd']);
const CELLS = new Set(['td', 'th', 'tr', 'table']);
const SENTENCE_END = /[.!?…"“”»。！？:;)]$/;
const DATE = /\b\d{1,2}[./-]\d{1,2}[./-]\d{2,4}\b|\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}:\d{2}\b/;
const SEPARATORS = /[|·•/»›]/g;
const PROSE_CHARS = 80;

/** One block of the content: its element, the nodes that are its own text, and what is measured of them. */
export interface Block {
  element: DomElement;
  own: DomNode[];
  text: string;
  chars: number;
  linkChars: number;
  /** Links among its own nodes. */
  links: number;
  holds: boolean;
  kinds: Set<string>;
}

/** What one walk over a block's own nodes counts: link text, links, and whether it holds code, a table or a picture. */
interface Scan {
  linkChars: number;
  links: number;
  holds: boolean;
}

function scanNode(node: DomNode, inLink: boolean, scan: Scan): void {
  if (node.nodeType === TEXT_NODE) {
    if (inLink) scan.linkChars += textChars(node.textContent ?? '').chars;
    return;
  }
  if (!isElement(node)) return;
  const name = node.localName;
  if (name === 'a') scan.links++;
  if (name === 'pre' || name === 'table' || name === 'img') scan.holds = true;
  const children = node.childNodes;
  for (let i = 0; i < children.length; i++) {
    const child = children[i];
    if (child) scanNode(child, inLink || name === 'a', scan);
  }
}

/**
 * The block an element makes of its own text (none when it has no text), placed where its first text is, and the
 * blocks below it: in document order.
 */
function collect(element: DomElement, into: Block[]): void {
  const own: DomNode[] = [];
  const kinds = new Set<string>([element.localName]);
  let at = -1;
  for (const child of Array.from(element.childNodes)) {
    const mine = child.nodeType === TEXT_NODE || (isElement(child) && (OWN.has(child.localName) || isLineBlock(child)));
    if (mine) {
      own.push(child);
      if (isElement(child)) kinds.add(child.localName);
      if (at < 0 && (child.textContent ?? '').trim() !== '') at = into.length;
    } else if (isElement(child)) collect(child, into);
  }
  if (at < 0) return;
  const text = own
    .map((node) => node.textContent ?? '')
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
  into.splice(at, 0, measured(element, own, text, kinds));
}

function measured(element: DomElement, own: DomNode[], text: string, kinds: Set<string>): Block {
  const scan: Scan = { linkChars: 0, links: 0, holds: false };
  for (const node of own) {
    if (isElement(node) && (HOLDS.has(node.localName) || isLineBlock(node))) scan.holds = true;
    scanNode(node, false, scan);
  }
  const { linkChars, links, holds } = scan;
  return { element, own, text, chars: textChars(text).chars, linkChars, links, holds, kinds };
}

/** The blocks of a content root, in document order. */
export function blocksOf(root: DomElement): Block[] {
  const blocks: Block[] = [];
  collect(root, blocks);
  return blocks;
}

const prose = (block: Block | undefined) =>
  block !== undefined && block.chars >= PROSE_CHARS && block.linkChars < block.chars * 0.3;

function depthBelow(element: DomElement, root: DomElement): number {
  let depth = 0;
  for (let node: DomNode | null = element; node && node !== root; node = node.parentNode) depth++;
  return depth;
}

function named(element: DomElement, root: DomElement): boolean {
  for (let node: DomNode | null = element; node && isElement(node); node = node.parentNode) {
    if (namedFurniture(node)) return true;
    if (node === root) break;
  }
  return false;
}

/** What a block's features are measured against: the content's blocks, its characters, those before each block. */
interface Context {
  root: DomElement;
  blocks: readonly Block[];
  total: number;
  before: number[];
}

function contextOf(root: DomElement, blocks: readonly Block[]): Context {
  const before: number[] = [];
  let sum = 0;
  for (const block of blocks) {
    before.push(sum);
    sum += block.chars;
  }
  return { root, blocks, total: sum || 1, before };
}

/** The features of block `i`, in FEATURES' order. */
function featuresAt(context: Context, i: number): number[] {
  const { root, blocks, total } = context;
  const block = blocks[i] as Block;
  const { text, chars } = block;
  const before = context.before[i] ?? 0;
  const words = text.split(' ').length;
  const letters = text.replace(/[^\p{L}]/gu, '');
  const sentence = SENTENCE_END.test(text);
  const position = blocks.length > 1 ? i / (blocks.length - 1) : 0;
  const short = chars < 50 && !sentence ? 1 : 0;
  return [
    Math.log1p(chars),
    block.linkChars / (chars || 1),
    sentence ? 1 : 0,
    Math.min(1, ((text.match(/[,，、]/g)?.length ?? 0) * 20) / (chars || 1)),
    (text.match(/\d/g)?.length ?? 0) / (chars || 1),
    position,
    (total - before - chars) / total,
    before / total,
    /^h[1-6]$/.test(block.element.localName) ? 1 : 0,
    [...block.kinds].some((k) => LISTS.has(k)) ? 1 : 0,
    block.element.localName === 'p' ? 1 : 0,
    [...block.kinds].some((k) => CELLS.has(k)) ? 1 : 0,
    short,
    named(block.element, root) ? 1 : 0,
    (letters.match(/\p{Lu}/gu)?.length ?? 0) / (letters.length || 1),
    Math.min(1, chars / words / 10),
    prose(blocks[i - 1]) ? 1 : 0,
    prose(blocks[i + 1]) ? 1 : 0,
    DATE.test(text) ? 1 : 0,
    chars / total,
    Math.min(1, ((text.match(SEPARATORS)?.length ?? 0) * 10) / (chars || 1)),
    Math.min(1, depthBelow(block.element, root) / 10),
    Math.log1p(block.links),
    position * short,
    position * (sentence ? 0 : 1),
    (1 - position) * short,
  ];
}

/** The features of each block, in FEATURES' order (what fit:blocks fits on). */
export function featuresOf(root: DomElement, blocks: readonly Block[]): number[][] {
  const context = contextOf(root, blocks);
  return blocks.map((_, i) => featuresAt(context, i));
}

/** The odds, from 0 to 1, that a block with these features is boilerplate. */
function boilerOdds(features: readonly number[], model: BlockModel): number {
  let z = model.bias;
  for (let f = 0; f < FEATURES.length; f++) {
    const x = ((features[f] ?? 0) - (model.mean[f] ?? 0)) / (model.scale[f] || 1);
    z += x * (model.weights[f] ?? 0);
  }
  return 1 / (1 + Math.exp(-z));
}

/** Removes a block's own text; the element goes too when nothing is left in it. */
function removeBlock(block: Block): void {
  for (const node of block.own) if (isElement(node)) node.remove();
  for (const node of block.own) if (node.nodeType === TEXT_NODE) node.textContent = '';
  if ((block.element.textContent ?? '').trim() === '') block.element.remove();
}

/**
 * What the model never cuts, and what stops the run: a heading, a list (the rules judge lists by their
 * links: a product's facts, an index's entries), and a paragraph this long that ends a sentence and is not mostly
 * links. Chosen on the dev half (none, 300, 150: dev F1 0.920, 0.919, 0.919), for Readability's pages (token F1 0.955,
 * 0.959, 0.959), where the run from a Wikipedia article's end took a linked paragraph with its references.
 */
const GUARD_CHARS = 300;
const guarded = (block: Block) =>
  /^h[1-6]$/.test(block.element.localName) ||
  [...block.kinds].some((k) => LISTS.has(k)) ||
  (block.chars >= GUARD_CHARS && SENTENCE_END.test(block.text) && block.linkChars < block.chars * 0.5);
/**
 * A sentence that goes on from the prose before it, in the same element (an article's last line, "The end."), is the
 * text's own, however short: what follows an article sits in blocks of its own.
 */
const closesProse = (block: Block, previous: Block | undefined) =>
  previous !== undefined &&
  prose(previous) &&
  previous.element.parentNode === block.element.parentNode &&
  block.element.localName === previous.element.localName &&
  SENTENCE_END.test(block.text) &&
  block.linkChars < block.chars * 0.5;
/** A fact line after a fact line ("Price: 10.50", "Stock: 4": edges.ts) is content: a product's facts, however short. */
const endsFacts = (block: Block, previous: Block | undefined) =>
  previous !== undefined && factLine(block.text) && factLine(previous.text);
/** A content of fewer blocks is left as it is: too little to tell its edges from its body (trimEdges does the same). */
const MIN_BLOCKS = 4;

/**
 * The blocks at the end of the content whose odds are over the threshold, back to the first that is not (each
 * block's features measured only when the run reaches it).
 */
function tailRun(context: Context, model: BlockModel): Block[] {
  const run: Block[] = [];
  for (let i = context.blocks.length - 1; i >= 0; i--) {
    const block = context.blocks[i];
    const previous = context.blocks[i - 1];
    if (!block || block.holds || guarded(block) || closesProse(block, previous) || endsFacts(block, previous)) break;
    if (boilerOdds(featuresAt(context, i), model) <= model.threshold) break;
    run.push(block);
  }
  return run;
}

/**
 * Removes the blocks at the end of the content that the model reads as boilerplate (odds over model.threshold), from
 * the last back to the first it reads as content: what follows an article (a date line, sharing, a newsletter prompt,
 * an author's box, teasers) is where the rules leak most. Inside the content nothing is removed (a long article's
 * later headings and linked paragraphs read like the tail of a short one), nor at its start (the dev half gained one
 * snippet there, and documentation lost its opening lines), nor a block holding code, a table or a picture, nor every
 * block. Returns how many it removed.
 */
export function dropBoilerplate(root: DomElement, model: BlockModel): number {
  const blocks = blocksOf(root);
  if (blocks.length < MIN_BLOCKS) return 0;
  const tail = tailRun(contextOf(root, blocks), model);
  if (tail.length === blocks.length) return 0;
  for (const block of tail) removeBlock(block);
  return tail.length;
}
