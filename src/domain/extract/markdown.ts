import {
  absoluteUrl,
  collapse,
  type DomElement,
  type DomNode,
  imageSource,
  isElement,
  selectAll,
  TEXT_NODE,
} from './dom';
import { PAGE_LIMITS } from './spec';

/**
 * HTML to GitHub-flavoured Markdown, or to plain text, over linkedom's DOM: headings in order, GFM tables, fenced
 * code blocks with the page's language (highlighter markup and line-number gutters dropped, code verbatim), links
 * and images absolute, no scripts, no data: images, no javascript: links. Deterministic: the same DOM gives the
 * same text. Elements nested deeper than PAGE_LIMITS.depth are read as plain text.
 */
export type OutputMode = 'markdown' | 'text';

interface Context {
  mode: OutputMode;
  baseUrl: string;
  depth: number;
  /** Inside a link, a heading, a cell or emphasis: text there never starts a Markdown line. */
  inline: number;
  /** Tables open around the node: GFM has no nested tables, and each level escapes its cells' pipes again. */
  tables: number;
  /** Characters joined so far (each level of nesting joins its content again): past PAGE_LIMITS.markdownWork, what is left is read as text. */
  work: number;
  /** Code blocks, kept out of whitespace normalization and put back at the end. */
  blocks: string[];
}

const SKIP = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'iframe',
  'object',
  'embed',
  'svg',
  'canvas',
  'head',
  'meta',
  'link',
  'input',
  'select',
  'button',
  'textarea',
  'option',
  'dialog',
]);
const BLOCK = new Set([
  'p',
  'div',
  'section',
  'article',
  'main',
  'header',
  'footer',
  'aside',
  'nav',
  'figure',
  'figcaption',
  'address',
  'details',
  'summary',
  'dl',
  'dt',
  'dd',
  'fieldset',
  'center',
  'form',
  'body',
  'html',
  'hgroup',
  'caption',
  'legend',
]);
const GUTTER = /(^|\s)(linenos?|line-?numbers?|lineno|gutter|ln|ln-num|hljs-ln-numbers|line-number)(\s|$)/i;
const BLOCK_MARK = (i: number) => `\u0000${i}\u0000`;
/** Indentation that lists make on purpose: kept when stray spaces at the start of lines are dropped. */
const INDENT = '\u0002';

/** Markdown (or text) of an element's content. */
export function toMarkdown(
  root: DomElement,
  baseUrl: string,
  mode: OutputMode = 'markdown',
  warnings: string[] = [],
): string {
  const context: Context = { mode, baseUrl, depth: 0, inline: 0, tables: 0, work: 0, blocks: [] };
  const rendered = render(root, context);
  if (spent(context))
    warnings.push(
      `${mode}: past ${PAGE_LIMITS.markdownWork} characters of work, the rest of the content is read as text`,
    );
  const raw = rendered
    .replace(/^[ \t]+|[ \t]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: code-block marks and list indentation are control characters on purpose
    .replace(/\u0002/g, ' ')
    .trim();
  return restoreBlocks(raw, context.blocks);
}

/** Puts code blocks back, indented like the line that held their mark (a code block inside a list item). */
function restoreBlocks(text: string, blocks: string[]): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: code-block marks and list indentation are control characters on purpose
  return text.replace(/^([ >]*)(.*?)\u0000(\d+)\u0000/gm, (_m, indent: string, before: string, index: string) => {
    const pad = `${indent}${' '.repeat(before.length)}`;
    return `${indent}${before}${(blocks[Number(index)] ?? '').split('\n').join(`\n${pad}`)}`;
  });
}

/** Hidden by its attributes (a hidden tab panel is not: a reader opens it with a click). */
const hiddenAttribute = (node: DomElement) =>
  node.getAttribute('hidden') !== null || node.getAttribute('aria-hidden') === 'true';

function render(node: DomNode, context: Context): string {
  if (node.nodeType === TEXT_NODE) return text(node.textContent ?? '', context);
  if (!isElement(node)) return children(node, context);
  const name = node.localName;
  if (SKIP.has(name) || (hiddenAttribute(node) && node.getAttribute('role') !== 'tabpanel')) return '';
  if (context.depth >= PAGE_LIMITS.depth || spent(context)) return ` ${text(node.textContent ?? '', context)} `;
  context.depth++;
  try {
    return element(node, name, context);
  } finally {
    context.depth--;
  }
}

/**
 * Whether the walk has used its budget: from then on elements are read as text, and those it is inside pass their
 * content through (every level of nesting would otherwise run its regular expressions over all of it again).
 */
const spent = (context: Context) => context.work > PAGE_LIMITS.markdownWork;

function children(node: DomNode, context: Context): string {
  const parts: string[] = [];
  for (const child of Array.from(node.childNodes)) parts.push(render(child, context));
  const joined = parts.join('');
  context.work += joined.length;
  return joined;
}

function element(node: DomElement, name: string, context: Context): string {
  const heading = /^h([1-6])$/.exec(name);
  if (heading)
    return block(`${context.mode === 'markdown' ? `${'#'.repeat(Number(heading[1]))} ` : ''}${inline(node, context)}`);
  if (name === 'div' && isLineBlock(node)) return codeBlock(node, context);
  if (BLOCK.has(name)) return block(children(node, context));
  switch (name) {
    case 'br':
      return context.mode === 'markdown' ? '\\\n' : '\n';
    case 'hr':
      return context.mode === 'markdown' ? block('---') : '\n\n';
    case 'ul':
    case 'ol':
      return list(node, context);
    case 'li':
      return block(children(node, context));
    case 'blockquote':
      return blockquote(node, context);
    case 'pre':
      return codeBlock(node, context);
    case 'table':
      return table(node, context);
    case 'a':
      return link(node, context);
    case 'img':
      return image(node, context);
    case 'code':
    case 'kbd':
    case 'samp':
      return inlineCode(node, context);
    case 'strong':
    case 'b':
      return emphasis(node, '**', context);
    case 'em':
    case 'i':
      return emphasis(node, '_', context);
    case 'del':
    case 's':
    case 'strike':
      return emphasis(node, '~~', context);
    default:
      return children(node, context);
  }
}

/** Doxygen's code: `div.fragment` made of `div.line`s. */
export const isLineBlock = (node: DomElement): boolean =>
  /(^|\s)fragment(\s|$)/.test(node.getAttribute('class') ?? '') &&
  Array.from(node.children).some((child) => child.localName === 'div' && child.getAttribute('class') === 'line');

const block = (content: string): string => `\n\n${content.trim()}\n\n`;

/** Children rendered where text cannot start a Markdown line (inside a link, emphasis, a heading or a cell). */
function inlineChildren(node: DomElement, context: Context): string {
  context.inline++;
  try {
    return children(node, context);
  } finally {
    context.inline--;
  }
}

/** Content on one line (headings, table cells). */
function inline(node: DomElement, context: Context): string {
  const content = inlineChildren(node, context);
  return spent(context) ? content : collapse(content.replace(/\\\n/g, ' '));
}

const MARKDOWN_SPECIALS = /[\\*_`[\]<]/g;

function text(value: string, context: Context): string {
  const collapsed = value.replace(/\s+/g, ' ');
  if (context.mode === 'text') return collapsed;
  // Characters Markdown would read as markup, and markers at the start of a line ("1. " is escaped as "1\. ").
  const escaped = collapsed.replace(MARKDOWN_SPECIALS, (c) => `\\${c}`);
  if (context.inline > 0) return escaped;
  return escaped.replace(/^(\s*)(?:(#{1,6}|[-+>])(?=\s)|(\d{1,9})\.(?=\s))/, (_m, space: string, mark, digits) =>
    mark ? `${space}\\${mark}` : `${space}${digits}\\.`,
  );
}

function emphasis(node: DomElement, mark: string, context: Context): string {
  const content = inlineChildren(node, context);
  if (context.mode === 'text' || spent(context) || content.trim() === '') return content;
  const lead = /^\s*/.exec(content)?.[0] ?? '';
  const trail = /\s*$/.exec(content)?.[0] ?? '';
  return `${lead}${mark}${content.trim()}${mark}${trail}`;
}

function inlineCode(node: DomElement, context: Context): string {
  const code = collapse(node.textContent);
  if (context.mode === 'text' || code === '') return code;
  const longest = Math.max(0, ...[...code.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = code.startsWith('`') || code.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${code}${pad}${fence}`;
}

/** An absolute http(s) URL made safe inside Markdown's parentheses. */
const markdownUrl = (url: string) => url.replace(/[()\s]/g, (c) => encodeURIComponent(c));

/** A heading's permalink (Sphinx and MkDocs `¶`, rustdoc `§`, Docusaurus' hash link): not content. */
const PERMALINK_TEXT = /^[\s¶§#🔗⚓\u200b]*$/u;
const PERMALINK_CLASS = /(^|\s)(headerlink|header-link|anchor|anchorjs-link|hash-link|permalink|heading-anchor)(\s|$)/i;

function isPermalink(a: DomElement): boolean {
  if (!(a.getAttribute('href') ?? '').startsWith('#')) return false;
  const text = a.textContent ?? '';
  return PERMALINK_TEXT.test(text) || (PERMALINK_CLASS.test(a.getAttribute('class') ?? '') && text.trim().length <= 2);
}

function link(node: DomElement, context: Context): string {
  if (isPermalink(node)) return '';
  const content = inlineChildren(node, context);
  const url = absoluteUrl(node.getAttribute('href'), context.baseUrl);
  if (context.mode === 'text' || url === null || spent(context) || content.trim() === '') return content;
  return `[${content.trim().replace(/\n+/g, ' ')}](${markdownUrl(url)})`;
}

function image(node: DomElement, context: Context): string {
  if (context.mode === 'text') return '';
  const src = absoluteUrl(imageSource(node), context.baseUrl);
  if (src === null) return '';
  const alt = collapse(node.getAttribute('alt')).replace(/[[\]\\]/g, (c) => `\\${c}`);
  return `![${alt}](${markdownUrl(src)})`;
}

function list(node: DomElement, context: Context): string {
  if (spent(context)) return block(children(node, context));
  const ordered = node.localName === 'ol';
  let number = Number.parseInt(node.getAttribute('start') ?? '1', 10);
  if (!Number.isFinite(number)) number = 1;
  const items: string[] = [];
  for (const child of Array.from(node.children)) {
    if (child.localName !== 'li' && child.localName !== 'ul' && child.localName !== 'ol') continue;
    const content = render(child, context)
      .trim()
      .replace(/\n{2,}/g, '\n');
    if (child.localName !== 'li') {
      items.push(content.replace(/^/gm, INDENT.repeat(2)));
      continue;
    }
    const marker = ordered ? `${number++}. ` : '- ';
    items.push(`${marker}${content.replace(/\n/g, `\n${INDENT.repeat(marker.length)}`)}`);
  }
  return block(items.join('\n'));
}

function blockquote(node: DomElement, context: Context): string {
  if (spent(context)) return block(children(node, context));
  const content = children(node, context)
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  if (context.mode === 'text') return block(content);
  return block(content.replace(/^/gm, '> ').replace(/^> $/gm, '>'));
}

/** Languages a highlighter may name by a bare class on the block (rustdoc's `<pre class="rust">`, highlight.js). */
const BARE_LANGUAGES = new Set([
  'rust',
  'python',
  'javascript',
  'typescript',
  'java',
  'kotlin',
  'swift',
  'golang',
  'ruby',
  'php',
  'cpp',
  'csharp',
  'bash',
  'shell',
  'console',
  'sql',
  'json',
  'yaml',
  'toml',
  'haskell',
  'scala',
  'elixir',
]);
const NO_LANGUAGE = new Set(['none', 'plaintext', 'text', 'plain', 'default', 'nohighlight', 'txt']);

/** The language one element's attributes declare, if any. */
function declaredLanguage(element: DomElement): string | null {
  const data = element.getAttribute('data-lang') ?? element.getAttribute('data-language');
  if (data && /^[\w+#.-]{1,30}$/.test(data.trim())) return data.trim().toLowerCase();
  const classes = element.getAttribute('class') ?? '';
  const match =
    /(?:^|\s)(?:language|lang|highlight-source|highlight)-([\w+#.-]{1,30})(?:\s|$)/i.exec(classes) ??
    /brush:\s*([\w+#.-]{1,30})/i.exec(classes);
  const language = match?.[1]?.toLowerCase();
  if (language) return NO_LANGUAGE.has(language) ? null : language;
  if (element.localName !== 'pre' && element.localName !== 'code') return null;
  return (
    classes
      .split(/\s+/)
      .find((name) => BARE_LANGUAGES.has(name.toLowerCase()))
      ?.toLowerCase() ?? null
  );
}

/** The language a code block declares: on the <pre>, its <code>, or the highlighter's wrappers around it. */
function codeLanguage(pre: DomElement): string | null {
  const candidates: DomElement[] = [pre];
  const code = pre.querySelector('code');
  if (code) candidates.unshift(code);
  let parent = pre.parentNode;
  for (let i = 0; i < 2 && parent && isElement(parent); i++, parent = parent.parentNode) candidates.push(parent);
  for (const element of candidates) {
    const language = declaredLanguage(element);
    if (language) return language;
  }
  return null;
}

/** The code of a <pre> as written: <br> as line breaks, line-number gutters and highlighter markup dropped. */
export function codeText(pre: DomElement): string {
  for (const gutter of selectAll(pre, '[class]')) if (GUTTER.test(gutter.getAttribute('class') ?? '')) gutter.remove();
  for (const br of selectAll(pre, 'br')) br.textContent = '\n';
  // Doxygen writes code as a block of lines (`div.fragment > div.line`), not a <pre>.
  const lines = selectAll(pre, 'div.line');
  if (pre.localName !== 'pre' && lines.length > 0)
    return lines
      .map((line) => line.textContent ?? '')
      .join('\n')
      .replace(/\s+$/, '');
  return (pre.textContent ?? '').replace(/^\n/, '').replace(/\s+$/, '');
}

function codeBlock(pre: DomElement, context: Context): string {
  const language = codeLanguage(pre);
  const code = codeText(pre);
  if (context.mode === 'text') {
    context.blocks.push(code);
    return block(BLOCK_MARK(context.blocks.length - 1));
  }
  const longest = Math.max(2, ...[...code.matchAll(/`{3,}/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  context.blocks.push(`${fence}${language ?? ''}\n${code}\n${fence}`);
  return block(BLOCK_MARK(context.blocks.length - 1));
}

/** Rows of a table, its own only (not those of tables nested in it). */
function rowsOf(table: DomElement): DomElement[] {
  const rows: DomElement[] = [];
  for (const child of Array.from(table.children)) {
    if (child.localName === 'tr') rows.push(child);
    else if (['thead', 'tbody', 'tfoot'].includes(child.localName))
      for (const row of Array.from(child.children)) if (row.localName === 'tr') rows.push(row);
  }
  return rows;
}

function table(node: DomElement, context: Context): string {
  if (context.tables >= PAGE_LIMITS.markdownTables) return block(children(node, context));
  context.tables++;
  try {
    return gfmTable(node, context);
  } finally {
    context.tables--;
  }
}

/**
 * A table that lays out blocks rather than holding data: no header cell, and a cell holding a list or several
 * paragraphs (Sphinx's index pages and genindex). GFM cells are one line: such content is read as blocks.
 */
function laysOutBlocks(node: DomElement): boolean {
  if (selectAll(node, 'th').length > 0) return false;
  return selectAll(node, 'td').some(
    (cell) =>
      selectAll(cell, 'ul, ol, dl').length > 0 ||
      Array.from(cell.children).filter((child) => LAYOUT_BLOCKS.has(child.localName)).length > 1,
  );
}
const LAYOUT_BLOCKS = new Set(['p', 'div', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote']);

function gfmTable(node: DomElement, context: Context): string {
  // A highlighter's table (a gutter column beside the code), or a layout table: its content, as blocks.
  if (laysOutBlocks(node)) return block(children(node, context));
  if (selectAll(node, 'pre').length > 0) {
    for (const cell of selectAll(node, 'td, th')) if (GUTTER.test(cell.getAttribute('class') ?? '')) cell.remove();
    return block(children(node, context));
  }
  const rows = rowsOf(node).map((row) =>
    Array.from(row.children)
      .filter((cell) => cell.localName === 'td' || cell.localName === 'th')
      .flatMap((cell) => {
        const content =
          context.mode === 'markdown' ? inline(cell, context).replace(/\|/g, '\\|') : inline(cell, context);
        const span = Math.min(50, Math.max(1, Number.parseInt(cell.getAttribute('colspan') ?? '1', 10) || 1));
        return [content, ...Array<string>(span - 1).fill('')];
      }),
  );
  const width = Math.max(0, ...rows.map((r) => r.length));
  if (width === 0) return '';
  if (context.mode === 'text') return block(rows.map((r) => r.join('\t')).join('\n'));
  if (width === 1 && rows.length === 1) return block(rows[0]?.[0] ?? '');
  const line = (cells: string[]) => `| ${[...cells, ...Array<string>(width - cells.length).fill('')].join(' | ')} |`;
  const [head = [], ...body] = rows;
  return block([line(head), `|${' --- |'.repeat(width)}`, ...body.map(line)].join('\n'));
}
