/**
 * A counted pre-pass over markup before linkedom parses it, so that parsing costs at most a bounded amount of work
 * whatever the page: htmlparser2 keeps its open elements with Array.unshift (quadratic in nesting depth: 100,000
 * nested <div>s take minutes), and linkedom spends microseconds per node (every element, and every entity, which
 * becomes a text node of its own). One linear scan mirrors htmlparser2's tree building closely enough (void
 * elements, implied closes, raw-text elements, self-closing tags in SVG and MathML) to know each tag's depth:
 * - open tags deeper than `depth` are dropped with their matching close tags (their content stays, flattened into
 *   the element at the limit);
 * - past `elements` elements, or `nodes` nodes (tags, attributes, comments and character references), the rest of
 *   the markup is cut.
 * Character references in text that stand for characters the text can hold are written as those characters.
 * Otherwise markup within the bounds comes back as the same string, untouched.
 */

import { decodeHTML } from 'entities/decode';

export interface MarkupBounds {
  /** Open elements kept on the stack; deeper open tags are dropped. */
  depth: number;
  /** Elements (open tags) parsed; the markup is cut before the next one. */
  elements: number;
  /** Tags, attributes, comments and character references parsed; the markup is cut before the next one. */
  nodes: number;
}

export interface BoundedMarkup {
  html: string;
  /** The work counted: elements and nodes kept for the parser, and the character references among the nodes. */
  elements: number;
  nodes: number;
  entities: number;
  /** Open tags dropped for nesting past the depth bound (with their close tags). */
  flattened: number;
  /** Where the markup was cut (a character offset), or null when it was read to the end. */
  cutAt: number | null;
  /** Why it was cut. */
  cutBy: 'elements' | 'nodes' | null;
}

const VOID = new Set(
  'area base basefont br col command embed frame hr img input isindex keygen link meta param source track wbr'.split(
    ' ',
  ),
);
const RAW_TEXT = new Set(['script', 'style', 'title', 'textarea', 'xmp']);
const FOREIGN = new Set(['svg', 'math']);
/** HTML integration points inside SVG and MathML: in them, `<div/>` opens a div again. */
const INTEGRATION = new Set(['mi', 'mo', 'mn', 'ms', 'mtext', 'annotation-xml', 'foreignobject', 'desc', 'title']);
const P = ['p'];
const FORM = ['input', 'option', 'optgroup', 'select', 'button', 'datalist', 'textarea'];
/** htmlparser2's openImpliesClose: opening the key closes the open element on top while it is one of these. */
const IMPLIES_CLOSE = new Map<string, readonly string[]>([
  ['tr', ['tr', 'th', 'td']],
  ['th', ['th']],
  ['td', ['thead', 'th', 'td']],
  ['body', ['head', 'link', 'script']],
  ['li', ['li']],
  ['option', ['option']],
  ['optgroup', ['optgroup', 'option']],
  ['dd', ['dd', 'dt']],
  ['dt', ['dd', 'dt']],
  ['rt', ['rt', 'rp']],
  ['rp', ['rt', 'rp']],
  ['tbody', ['thead', 'tbody']],
  ['tfoot', ['thead', 'tbody']],
  ...['select', 'input', 'output', 'button', 'datalist', 'textarea'].map((k): [string, string[]] => [k, FORM]),
  ...(
    'p h1 h2 h3 h4 h5 h6 address article aside blockquote details div dl fieldset figcaption figure footer form ' +
    'header hr main nav ol pre section table ul'
  )
    .split(' ')
    .map((k): [string, string[]] => [k, P]),
]);

interface Scan {
  readonly html: string;
  readonly bounds: MarkupBounds;
  stack: string[];
  /** htmlparser2's foreignContext: true inside svg and math, false inside their HTML integration points. */
  foreign: boolean[];
  /** Dropped open tags by name, waiting for their close tags. */
  dropped: Map<string, number>;
  /** [start, end) ranges of markup to replace (with '' to remove), in order. */
  edits: [number, number, string][];
  elements: number;
  nodes: number;
  entities: number;
  flattened: number;
  /** The next `&` at or after the scan's position (-1: none left), so that text is searched once. */
  nextAmp: number;
  cutAt: number | null;
  cutBy: BoundedMarkup['cutBy'];
}

const isSpace = (c: number) => c === 32 || c === 9 || c === 10 || c === 12 || c === 13;
const isLetter = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);

/** The end of a tag's name, from just after `<` or `</`. */
function nameEnd(html: string, from: number): number {
  let j = from;
  while (j < html.length) {
    const c = html.charCodeAt(j);
    if (isSpace(c) || c === 47 || c === 62) break;
    j++;
  }
  return j;
}

/** Just past a tag's `>` (quoted attribute values skipped), whether it ends with `/>`, and its attributes (at most). */
function tagEnd(html: string, from: number): { end: number; selfClosing: boolean; attributes: number } {
  let afterEquals = false;
  let attributes = 0;
  for (let j = from; j < html.length; j++) {
    const c = html.charCodeAt(j);
    if (c === 62) return { end: j + 1, selfClosing: html.charCodeAt(j - 1) === 47, attributes };
    if ((c === 34 || c === 39) && afterEquals) {
      const close = html.indexOf(c === 34 ? '"' : "'", j + 1);
      if (close < 0) break;
      j = close;
      afterEquals = false;
    } else if (c === 61) afterEquals = true;
    else if (!isSpace(c)) {
      if (!afterEquals && isSpace(html.charCodeAt(j - 1))) attributes++;
      afterEquals = false;
    }
  }
  return { end: html.length, selfClosing: false, attributes };
}

/** Counts a node (and its attributes); false (and the markup cut at `at`) when it would pass a bound. */
function count(scan: Scan, at: number, element: boolean, attributes = 0): boolean {
  const elements = scan.elements + (element ? 1 : 0);
  const nodes = scan.nodes + 1 + attributes;
  if (elements <= scan.bounds.elements && nodes <= scan.bounds.nodes) {
    scan.elements = elements;
    scan.nodes = nodes;
    return true;
  }
  scan.cutAt = at;
  scan.cutBy = elements > scan.bounds.elements ? 'elements' : 'nodes';
  return false;
}

/** Where the raw text of a <script>, <style>, <title>, <textarea> or <xmp> opened at `from` ends. */
function rawTextEnd(html: string, name: string, from: number): number {
  const close = new RegExp(`</${name}`, 'gi');
  close.lastIndex = from;
  return close.exec(html)?.index ?? html.length;
}

/** An open tag at `at`: implied closes applied, then kept on the stack (and counted), or dropped past the depth bound. */
function openTag(scan: Scan, at: number): number {
  const { html } = scan;
  const nameStop = nameEnd(html, at + 1);
  const name = html.slice(at + 1, nameStop).toLowerCase();
  const { end, selfClosing, attributes } = tagEnd(html, nameStop);
  const implied = IMPLIES_CLOSE.get(name);
  if (implied)
    while (scan.stack.length > 0 && implied.includes(scan.stack[scan.stack.length - 1] ?? '')) scan.stack.pop();
  // Self-closing closes only in SVG or MathML, as htmlparser2 decides it: after this tag's own foreign context.
  const context = FOREIGN.has(name) || (!INTEGRATION.has(name) && scan.foreign[scan.foreign.length - 1] === true);
  const leaf = VOID.has(name) || (selfClosing && context);
  const raw = RAW_TEXT.has(name) && !selfClosing;
  if (!leaf && !raw && scan.stack.length >= scan.bounds.depth) {
    drop(scan, at, end);
    scan.dropped.set(name, (scan.dropped.get(name) ?? 0) + 1);
    return end;
  }
  if (!count(scan, at, true, attributes)) return html.length;
  if (VOID.has(name)) return end;
  if (FOREIGN.has(name) || INTEGRATION.has(name)) scan.foreign.push(FOREIGN.has(name));
  if (leaf) return end;
  scan.stack.push(name);
  return raw ? rawTextEnd(html, name, end) : end;
}

/** Replaces [start, end) of the markup (joined to the previous edit when they touch). */
function edit(scan: Scan, start: number, end: number, replacement: string): void {
  const last = scan.edits[scan.edits.length - 1];
  if (last && last[1] === start) {
    last[1] = end;
    last[2] += replacement;
  } else scan.edits.push([start, end, replacement]);
}

/** Removes a tag past the depth bound. */
function drop(scan: Scan, start: number, end: number): void {
  edit(scan, start, end, '');
  scan.flattened++;
}

/** A close tag at `at`: a dropped open tag's is dropped too; otherwise it closes its element and those inside. */
function closeTag(scan: Scan, at: number): number {
  const { html } = scan;
  const closeAt = html.indexOf('>', at);
  const end = closeAt < 0 ? html.length : closeAt + 1;
  if (!isLetter(html.charCodeAt(at + 2))) return end;
  const name = html.slice(at + 2, nameEnd(html, at + 2)).toLowerCase();
  const dropped = scan.dropped.get(name) ?? 0;
  if (dropped > 0) {
    scan.dropped.set(name, dropped - 1);
    drop(scan, at, end);
    scan.flattened--;
    return end;
  }
  if (!count(scan, at, false)) return html.length;
  if (FOREIGN.has(name) || INTEGRATION.has(name)) scan.foreign.pop();
  const index = scan.stack.lastIndexOf(name);
  if (index >= 0 && !VOID.has(name)) while (scan.stack.length > index) scan.stack.pop();
  return end;
}

/** A character reference that ends with `;`, at the regex's lastIndex. */
const REFERENCE = /&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});/y;

/**
 * What a character reference at `at` in text stands for, when the text can hold it as it is: not `<` or `&` (they
 * would read as markup), and only a reference ended by `;` (legacy ones without it depend on what follows).
 */
function decodedAt(html: string, at: number): { end: number; text: string } | null {
  REFERENCE.lastIndex = at;
  const match = REFERENCE.exec(html);
  if (!match) return null;
  const text = decodeHTML(match[0]);
  if (text === match[0] || text.includes('<') || text.includes('&')) return null;
  return { end: at + match[0].length, text };
}

/**
 * Character references in text from `from` to `to`. Those the text can hold as characters are written as them, so
 * that they cost the parser nothing (each one is otherwise a text node of its own: a 400 KB JSON blob in a hidden
 * element, its quotes written `&quot;`, is 100,000 nodes, which cut the article after it); the others are counted as
 * the text nodes they become.
 */
function countEntities(scan: Scan, from: number, to: number): boolean {
  if (scan.nextAmp >= 0 && scan.nextAmp < from) scan.nextAmp = scan.html.indexOf('&', from);
  while (scan.nextAmp >= 0 && scan.nextAmp < to) {
    const decoded = decodedAt(scan.html, scan.nextAmp);
    if (decoded && decoded.end <= to) edit(scan, scan.nextAmp, decoded.end, decoded.text);
    else {
      if (!count(scan, scan.nextAmp, false)) return false;
      scan.entities++;
    }
    scan.nextAmp = scan.html.indexOf('&', scan.nextAmp + 1);
  }
  return true;
}

/** The markup past the next `<` at `at`: a comment or declaration, a close tag, an open tag, or text. */
function step(scan: Scan, at: number): number {
  const { html } = scan;
  const next = html.charCodeAt(at + 1);
  if (next === 33 || next === 63) {
    if (!count(scan, at, false)) return html.length;
    // As htmlparser2: `<!-->` is a whole comment, and CDATA sections end at `]]>`.
    const end = html.startsWith('<!--', at)
      ? html.indexOf('-->', at + 2) + 3
      : html.startsWith('<![CDATA[', at)
        ? html.indexOf(']]>', at + 9) + 3
        : html.indexOf('>', at) + 1;
    return end <= 2 ? html.length : end;
  }
  if (next === 47) return closeTag(scan, at);
  if (isLetter(next)) return openTag(scan, at);
  return at + 1;
}

/** The markup within `bounds` (see the module's comment). */
export function boundMarkup(html: string, bounds: MarkupBounds): BoundedMarkup {
  const scan: Scan = {
    html,
    bounds,
    stack: [],
    foreign: [],
    dropped: new Map(),
    edits: [],
    elements: 0,
    nodes: 0,
    entities: 0,
    flattened: 0,
    nextAmp: html.indexOf('&'),
    cutAt: null,
    cutBy: null,
  };
  let at = 0;
  while (at < html.length && scan.cutAt === null) {
    const lt = html.indexOf('<', at);
    if (!countEntities(scan, at, lt < 0 ? html.length : lt) || lt < 0) break;
    at = step(scan, lt);
  }
  const { edits, cutAt, cutBy, elements, nodes, entities, flattened } = scan;
  if (edits.length === 0 && cutAt === null) return { html, elements, nodes, entities, flattened, cutAt, cutBy };
  const parts: string[] = [];
  let from = 0;
  for (const [start, end, replacement] of edits) {
    if (cutAt !== null && start >= cutAt) break;
    parts.push(html.slice(from, start), replacement);
    from = end;
  }
  parts.push(html.slice(from, cutAt ?? html.length));
  return { html: parts.join(''), elements, nodes, entities, flattened, cutAt, cutBy };
}
