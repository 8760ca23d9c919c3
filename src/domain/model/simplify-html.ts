/**
 * A sample page's HTML cut down for the model to write selectors from (issue 33): what selectors can hold on to (tags,
 * ids, classes, microdata, data-* attributes) and the text they would read, without what only costs tokens.
 */
import { bodyOf, collapse, type DomElement, type DomNode, isElement, parseBounded, TEXT_NODE } from '../extract/dom';
import { CONTENT_SELECTORS } from '../extract/main/patterns';
import { LEARN } from './learn-limits';

const COMMENT_NODE = 8;
const DROPPED = new Set([
  'script',
  'style',
  'svg',
  'noscript',
  'template',
  'iframe',
  'link',
  'meta',
  'object',
  'canvas',
]);
const KEPT_ATTRIBUTES = new Set(['id', 'class', 'itemprop', 'itemtype', 'property', 'name', 'href', 'src']);
/** Where a product's or an article's content is, most specific first (then the generators' containers). */
const MAIN_SELECTORS = ['[itemtype*="Product"]', '[itemtype*="Article"]', ...CONTENT_SELECTORS];

type Removable = DomNode & { remove(): void };
const removable = (node: DomNode): node is Removable => typeof Reflect.get(node, 'remove') === 'function';

function keepAttributes(element: DomElement): void {
  for (const { name, value } of Array.from(element.attributes)) {
    if (!KEPT_ATTRIBUTES.has(name) && !name.startsWith('data-')) element.removeAttribute(name);
    else if (value.length > LEARN.attrChars) element.setAttribute(name, value.slice(0, LEARN.attrChars));
  }
}

/** Comments and dropped elements removed, attributes kept only when selectors use them, text collapsed and cut. */
function clean(root: DomElement): void {
  const stack: DomElement[] = [root];
  for (let element = stack.pop(); element; element = stack.pop()) {
    keepAttributes(element);
    for (const node of Array.from(element.childNodes)) {
      if (node.nodeType === TEXT_NODE) {
        const text = (node.textContent ?? '').replace(/\s+/g, ' ');
        if (text.trim() === '' && removable(node)) node.remove();
        else node.textContent = text.length > LEARN.textChars ? `${text.slice(0, LEARN.textChars)}…` : text;
      } else if (node.nodeType === COMMENT_NODE && removable(node)) node.remove();
      else if (isElement(node)) {
        if (DROPPED.has(node.localName)) node.remove();
        else stack.push(node);
      }
    }
  }
}

/** The first container of the main content that holds text, or null. */
function mainOf(body: DomElement): DomElement | null {
  for (const selector of MAIN_SELECTORS) {
    const found = body.querySelector(selector);
    if (found && collapse(found.textContent) !== '') return found;
  }
  return null;
}

const escapeText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** `html` cut at `budget` characters, back to the end of the last whole tag. */
function cut(html: string, budget: number): string {
  if (html.length <= budget) return html;
  const head = html.slice(0, budget);
  const end = head.lastIndexOf('>');
  return `${end > 0 ? head.slice(0, end + 1) : head}…`;
}

/**
 * The page simplified: scripts, styles, svg, comments and the head (but its title) removed; attributes kept only id,
 * class, itemprop, itemtype, property, name, href, src and data-* (values cut to LEARN.attrChars); whitespace
 * collapsed and text nodes cut to LEARN.textChars; the main content first when a container says where it is, then
 * the rest of the body; all cut to `budget` characters.
 */
export function simplifyHtml(html: string, budget: number = LEARN.sampleChars): string {
  const { document } = parseBounded(html, []);
  const title = collapse(document.querySelector('title')?.textContent).slice(0, LEARN.textChars);
  const body = bodyOf(document);
  clean(body);
  let out = title === '' ? '' : `<title>${escapeText(title)}</title>`;
  const main = mainOf(body);
  if (main && main !== body) {
    out += main.outerHTML;
    main.remove();
  }
  out += body.innerHTML;
  return cut(out, budget);
}
