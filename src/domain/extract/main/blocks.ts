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
 * date line, a teaser, a share prompt, an author's box, a list of related links), wherever the block is. The model's
 * weights (block-model.json) are fit by `npm run fit:blocks` on the dev halves of trafilatura's evaluation set and
 * web-content-2025 together, and reported on their held-out halves (the JSON's `fit` line).
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
/** Words of what surrounds an article: sharing, following, subscribing, comments, rights, advertising, signing in. */
const BOILER_WORDS =
  /\b(share|shares|tweet|follow us|subscribe|newsletter|sign up|sign in|log in|login|register|comments?|reply|copyright|all rights reserved|advertisement|sponsored|cookies?|privacy|terms of|related|read more|teilen|abonnieren|kommentare?|anzeige|werbung|anmelden|impressum|datenschutz|partager|commentaires?|compartir|comentarios?)\b|©/iu;

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
  /** Per parent of blocks' elements: the blocks under it, their characters and link characters. */
  parents: Map<DomNode | null, { count: number; chars: number; linkChars: number }>;
}

function contextOf(root: DomElement, blocks: readonly Block[]): Context {
  const before: number[] = [];
  const parents: Context['parents'] = new Map();
  let sum = 0;
  for (const block of blocks) {
    before.push(sum);
    sum += block.chars;
    const parent = parents.get(block.element.parentNode) ?? { count: 0, chars: 0, linkChars: 0 };
    parent.count++;
    parent.chars += block.chars;
    parent.linkChars += block.linkChars;
    parents.set(block.element.parentNode, parent);
  }
  return { root, blocks, total: sum || 1, before, parents };
}

const linkShare = (block: Block | undefined) => (block ? block.linkChars / (block.chars || 1) : 0);

/** The features of block `i` that read its neighbours and its parent's other blocks, and its words. */
function around(context: Context, i: number, block: Block): number[] {
  const parent = context.parents.get(block.element.parentNode);
  return [
    BOILER_WORDS.test(block.text) ? 1 : 0,
    linkShare(context.blocks[i - 1]),
    linkShare(context.blocks[i + 1]),
    parent ? parent.linkChars / (parent.chars || 1) : 0,
    Math.log1p(parent?.count ?? 1),
  ];
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
    ...around(context, i, block),
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

/** A fact line beside a fact line ("Price: 10.50", "Stock: 4": edges.ts) is content: a product's facts, however short. */
const inFacts = (blocks: readonly Block[], i: number) =>
  factLine(blocks[i]?.text ?? '') && (factLine(blocks[i - 1]?.text ?? '') || factLine(blocks[i + 1]?.text ?? ''));
/** A content of fewer blocks is left as it is: too little to tell its edges from its body (trimEdges does the same). */
const MIN_BLOCKS = 4;

/**
 * A block the model never removes: one holding code, a table or a picture, and a list item that is not mostly links
 * (a product's facts, "Drop: 6 mm"; the rules already judged lists by their links).
 */
export const kept = (block: Block) =>
  block.holds || ([...block.kinds].some((k) => LISTS.has(k)) && block.linkChars < block.chars * 0.5);

/**
 * A content left shorter than this (characters of its blocks) by the model is left as it was: content.ts would take
 * the whole body instead of a content under 140 characters.
 */
const MIN_KEPT_CHARS = 200;

/**
 * The blocks the model reads as boilerplate (odds over model.threshold), those it never removes aside; none when
 * they are every block or leave too little.
 */
function boilerBlocks(root: DomElement, model: BlockModel): Block[] {
  const blocks = blocksOf(root);
  if (blocks.length < MIN_BLOCKS) return [];
  const context = contextOf(root, blocks);
  const drop = blocks.filter(
    (block, i) => !kept(block) && !inFacts(blocks, i) && boilerOdds(featuresAt(context, i), model) > model.threshold,
  );
  const left = context.total - drop.reduce((sum, block) => sum + block.chars, 0);
  return drop.length === blocks.length || left < MIN_KEPT_CHARS ? [] : drop;
}

/**
 * Removes the blocks of the content that the model reads as boilerplate, wherever they are: a date line, sharing, a
 * newsletter prompt, an author's box, teasers, a line of related links between paragraphs. Never a block holding code,
 * a table or a picture, a list item not mostly links, nor every block. Returns how many it removed.
 */
export function dropBoilerplate(root: DomElement, model: BlockModel): number {
  const drop = boilerBlocks(root, model);
  for (const block of drop) removeBlock(block);
  return drop.length;
}
