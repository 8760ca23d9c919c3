/**
 * The visible text of a DOM subtree as a reader sees it: block elements on lines of their own (so words of adjacent
 * blocks never run together, which textContent does when markup has no whitespace between blocks), table cells apart,
 * code kept verbatim, other whitespace collapsed.
 */

/** The shape of linkedom's nodes this module reads. */
export interface TextNode {
  nodeType: number;
  nodeName: string;
  textContent: string | null;
  childNodes: ArrayLike<TextNode>;
}

const BLOCKS = new Set(
  'ADDRESS ARTICLE ASIDE BLOCKQUOTE BR CAPTION DD DETAILS DIV DL DT FIELDSET FIGCAPTION FIGURE FOOTER FORM H1 H2 H3 H4 H5 H6 HEADER HR LI MAIN NAV OL P SECTION SUMMARY TABLE TBODY THEAD TFOOT TR UL'.split(
    ' ',
  ),
);
const SKIP = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'HEAD']);

function walk(node: TextNode, out: string[]): void {
  if (node.nodeType === 3) {
    out.push((node.textContent ?? '').replace(/\s+/g, ' '));
    return;
  }
  if (node.nodeType !== 1 && node.nodeType !== 9 && node.nodeType !== 11) return;
  const name = node.nodeName.toUpperCase();
  if (SKIP.has(name)) return;
  if (name === 'PRE') {
    out.push(`\n${node.textContent ?? ''}\n`);
    return;
  }
  const block = BLOCKS.has(name);
  const cell = name === 'TD' || name === 'TH';
  if (block) out.push('\n');
  for (let i = 0; i < node.childNodes.length; i++) {
    const child = node.childNodes[i];
    if (child) walk(child, out);
  }
  if (block) out.push('\n');
  if (cell) out.push(' \t ');
}

/** The subtree's text: lines trimmed, blank lines dropped (code lines kept as they are). */
export function blockText(node: TextNode): string {
  const out: string[] = [];
  walk(node, out);
  return out
    .join('')
    .split('\n')
    .map((line) => line.replace(/[ \t]+$/, ''))
    .filter((line) => line.trim() !== '')
    .join('\n');
}

/** Text on one line, whitespace collapsed. */
export const inlineText = (text: string | null | undefined) => (text ?? '').replace(/\s+/g, ' ').trim();

/** The shape of linkedom's elements the docs truth reads (linkedom's own types are loose). */
export interface DomElement extends TextNode {
  tagName: string;
  parentElement: DomElement | null;
  getAttribute(name: string): string | null;
  querySelector(selectors: string): DomElement | null;
  querySelectorAll(selectors: string): Iterable<DomElement> & ArrayLike<DomElement>;
  closest(selectors: string): DomElement | null;
  contains(other: DomElement): boolean;
  remove(): void;
}
