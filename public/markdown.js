// @ts-check
// Markdown parsed into a small tree of plain objects (no DOM, no markup: record.js renders it as DOM built from
// text). Blocks: headings, paragraphs, fenced and indented code, nested lists, blockquotes, GFM tables with their
// alignment, rules and footnote definitions; inline: code spans, links (their text inline Markdown too), images,
// autolinks, footnote references, bold, italics and hard line breaks.

/**
 * @typedef {{ type: 'text', text: string } | { type: 'code', text: string } | { type: 'br' }
 *   | { type: 'strong' | 'em', children: Inline[] } | { type: 'link', href: string, children: Inline[] }
 *   | { type: 'image', alt: string, href: string } | { type: 'footref', id: string, n: number }} Inline
 * @typedef {'left' | 'center' | 'right' | null} Align
 * @typedef {{ type: 'heading', level: number, children: Inline[] } | { type: 'paragraph', children: Inline[] }
 *   | { type: 'code', lang: string, text: string } | { type: 'hr' } | { type: 'quote', blocks: Block[] }
 *   | { type: 'list', ordered: boolean, start: number, items: Block[][] }
 *   | { type: 'table', align: Align[], head: Inline[][], rows: Inline[][][] }} Block
 * @typedef {{ id: string, n: number, blocks: Block[] }} Footnote
 * @typedef {{ blocks: Block[], footnotes: Footnote[] }} Document
 * @typedef {{ defined: Set<string>, order: Map<string, number>, defs: Map<string, Block[]> }} Context
 */

/** Only these schemes become links; anything else (javascript:, data:, relative) stays text. */
export const safeHref = (/** @type {string} */ href) => /^(https?:\/\/|mailto:)/i.test(href.trim());

/**
 * A link's text: escaped characters, and brackets nested one level deep (a footnote link is `[[1]](url)`, or
 * `[\[1\]](url)` once escaped).
 */
const LINK_TEXT = String.raw`(?:\\.|[^\[\]\\]|\[(?:\\.|[^\[\]\\])*\])*`;
/** A link's destination: no spaces, parentheses nested one level deep; an optional "title". */
const DEST = String.raw`\(\s*((?:[^()\s]|\([^()\s]*\))+)(?:\s+"[^"]*")?\s*\)`;
const INLINE = new RegExp(
  [
    String.raw`(\x60+)([\s\S]*?[^\x60])\1(?!\x60)`, // 1, 2: code span
    String.raw`!\[(${LINK_TEXT})\]${DEST}`, // 3, 4: image
    String.raw`\[\^([^\]\s]+)\](?!:)`, // 5: footnote reference
    String.raw`\[(${LINK_TEXT})\]${DEST}`, // 6, 7: link
    String.raw`<((?:https?:\/\/|mailto:)[^<>\s]+)>`, // 8: autolink
    String.raw`(?<!\\)\*\*(?!\s)((?:\\.|[^\\])+?)(?<!\s)\*\*`, // 9: strong
    String.raw`(?<![\w\\])__(?!\s)((?:\\.|[^\\])+?)(?<!\s)__(?!\w)`, // 10: strong
    String.raw`(?<![\\*])\*(?![\s*])((?:\\.|[^\\*])+?)(?<!\s)\*`, // 11: em
    String.raw`(?<![\w\\])_(?![\s_])((?:\\.|[^\\_])+?)(?<!\s)_(?!\w)`, // 12: em
    String.raw`(?: {2,}|\\)\n`, // hard line break
  ].join('|'),
  'g',
);

/** Backslash escapes removed: `\*` is `*`. */
const unescapeMarkdown = (/** @type {string} */ text) => text.replace(/\\([!-/:-@[-`{-~])/g, '$1');

/** Inline Markdown as a list of nodes. In a link's text (`inLink`), links and autolinks stay text. */
function parseInline(/** @type {string} */ text, /** @type {Context} */ ctx, inLink = false) {
  /** @type {Inline[]} */
  const out = [];
  const push = (/** @type {string} */ t) => {
    if (t === '') return;
    const last = out.at(-1);
    if (last?.type === 'text') last.text += t;
    else out.push({ type: 'text', text: t });
  };
  let last = 0;
  for (const m of text.matchAll(INLINE)) {
    push(unescapeMarkdown(text.slice(last, m.index)));
    const node = inlineNode(m, ctx, inLink);
    if (typeof node === 'string') push(node);
    else out.push(node);
    last = (m.index ?? 0) + m[0].length;
  }
  push(unescapeMarkdown(text.slice(last)));
  return out;
}

/** The node one match of INLINE stands for, or text. @returns {Inline | string} */
function inlineNode(/** @type {RegExpMatchArray} */ m, /** @type {Context} */ ctx, /** @type {boolean} */ inLink) {
  if (m[1]) return { type: 'code', text: (m[2] ?? '').replace(/^ (.*) $/s, '$1') };
  if (m[4] !== undefined) return { type: 'image', alt: unescapeMarkdown(m[3] ?? ''), href: m[4] };
  if (m[5] !== undefined) {
    const id = m[5];
    if (!ctx.defined.has(id)) return m[0];
    const n = ctx.order.get(id) ?? ctx.order.size + 1;
    ctx.order.set(id, n);
    return { type: 'footref', id, n };
  }
  if (m[7] !== undefined) {
    if (inLink || !safeHref(m[7])) return unescapeMarkdown(m[0]);
    return { type: 'link', href: m[7], children: parseInline(m[6] ?? '', ctx, true) };
  }
  if (m[8] !== undefined) return inLink ? m[8] : { type: 'link', href: m[8], children: [{ type: 'text', text: m[8] }] };
  const strong = m[9] ?? m[10];
  if (strong !== undefined) return { type: 'strong', children: parseInline(strong, ctx, inLink) };
  const em = m[11] ?? m[12];
  if (em !== undefined) return { type: 'em', children: parseInline(em, ctx, inLink) };
  return { type: 'br' };
}

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([^\s`]*)/;
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const RULE = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const ITEM = /^( *)([-*+]|\d{1,9}[.)])(?:[ \t]+(.*))?$/;
const FOOTNOTE = /^\[\^([^\]\s]+)\]:[ \t]*(.*)$/;
const DELIMITER = /^ *\|? *:?-+:? *(\| *:?-+:? *)*\|? *$/;
const indentOf = (/** @type {string} */ line) => /^ */.exec(line)?.[0].length ?? 0;
const blank = (/** @type {string | undefined} */ line) => line === undefined || line.trim() === '';

/** Whether `line` starts a block other than a paragraph (and so ends one). */
function startsBlock(/** @type {string} */ line) {
  return FENCE.test(line) || HEADING.test(line) || RULE.test(line) || /^ {0,3}>/.test(line) || ITEM.test(line);
}

/** Parses Markdown into blocks and the footnotes its text refers to, numbered in order of reference. */
export function parseMarkdown(/** @type {string} */ markdown) {
  const lines = markdown.replace(/\r\n?/g, '\n').replace(/\t/g, '    ').split('\n');
  /** @type {Context} */
  const ctx = { defined: new Set(), order: new Map(), defs: new Map() };
  for (const line of lines) {
    const def = FOOTNOTE.exec(line);
    if (def?.[1]) ctx.defined.add(def[1]);
  }
  const blocks = parseBlocks(lines, ctx);
  /** @type {Footnote[]} */
  const footnotes = [...ctx.order].map(([id, n]) => ({ id, n, blocks: ctx.defs.get(id) ?? [] }));
  return /** @type {Document} */ ({ blocks, footnotes });
}

/** Blocks of lines (a document, a quote's or a list item's content). */
function parseBlocks(/** @type {string[]} */ lines, /** @type {Context} */ ctx) {
  /** @type {Block[]} */
  const blocks = [];
  let i = 0;
  while (i < lines.length) {
    if (blank(lines[i])) {
      i++;
      continue;
    }
    const [block, next] = parseBlock(lines, i, ctx);
    if (block) blocks.push(block);
    i = next;
  }
  return blocks;
}

/** The block starting at line i, and the line after it. @returns {[Block | null, number]} */
function parseBlock(/** @type {string[]} */ lines, /** @type {number} */ i, /** @type {Context} */ ctx) {
  const line = lines[i] ?? '';
  if (FENCE.test(line)) return fenced(lines, i);
  if (indentOf(line) >= 4) return indented(lines, i);
  const heading = HEADING.exec(line);
  if (heading)
    return [{ type: 'heading', level: heading[1]?.length ?? 1, children: parseInline(heading[2] ?? '', ctx) }, i + 1];
  if (RULE.test(line)) return [{ type: 'hr' }, i + 1];
  if (/^ {0,3}>/.test(line)) return quote(lines, i, ctx);
  if (ITEM.test(line)) return list(lines, i, ctx);
  if (FOOTNOTE.test(line)) return footnote(lines, i, ctx);
  if (line.includes('|') && DELIMITER.test(lines[i + 1] ?? '') && (lines[i + 1] ?? '').includes('|'))
    return table(lines, i, ctx);
  let end = i + 1;
  while (end < lines.length && !blank(lines[end]) && !startsBlock(lines[end] ?? '')) end++;
  const text = lines
    .slice(i, end)
    .map((l) => l.replace(/^ +/, ''))
    .join('\n');
  return [{ type: 'paragraph', children: parseInline(text.replace(/(?: +|\\)$/, ''), ctx) }, end];
}

/** A fenced code block; its language is the info string's first word. @returns {[Block, number]} */
function fenced(/** @type {string[]} */ lines, /** @type {number} */ i) {
  const open = FENCE.exec(lines[i] ?? '');
  const marker = open?.[1] ?? '```';
  const indent = indentOf(lines[i] ?? '');
  let end = i + 1;
  const closes = (/** @type {string} */ l) =>
    l.trim().startsWith(marker[0]?.repeat(marker.length) ?? marker) && /^[`~]+$/.test(l.trim());
  while (end < lines.length && !closes(lines[end] ?? '')) end++;
  const body = lines.slice(i + 1, end).map((l) => l.slice(Math.min(indent, indentOf(l))));
  return [{ type: 'code', lang: open?.[2] ?? '', text: body.join('\n') }, end + 1];
}

/** Code indented by four spaces: its lines and the blank ones between them. @returns {[Block, number]} */
function indented(/** @type {string[]} */ lines, /** @type {number} */ i) {
  let end = i;
  while (end < lines.length && (blank(lines[end]) || indentOf(lines[end] ?? '') >= 4)) end++;
  while (end > i && blank(lines[end - 1])) end--;
  return [
    {
      type: 'code',
      lang: '',
      text: lines
        .slice(i, end)
        .map((l) => l.slice(4))
        .join('\n'),
    },
    end,
  ];
}

/** A blockquote: its lines without their `>`, parsed as blocks (lazy continuation lines included). */
function quote(/** @type {string[]} */ lines, /** @type {number} */ i, /** @type {Context} */ ctx) {
  const inner = [];
  let end = i;
  while (
    end < lines.length &&
    !blank(lines[end]) &&
    (/^ {0,3}>/.test(lines[end] ?? '') || !startsBlock(lines[end] ?? ''))
  ) {
    inner.push((lines[end] ?? '').replace(/^ {0,3}> ?/, ''));
    end++;
  }
  return /** @type {[Block, number]} */ ([{ type: 'quote', blocks: parseBlocks(inner, ctx) }, end]);
}

/** A footnote's definition: its first line and the indented ones after it, kept for the footnotes list. */
function footnote(/** @type {string[]} */ lines, /** @type {number} */ i, /** @type {Context} */ ctx) {
  const def = FOOTNOTE.exec(lines[i] ?? '');
  const inner = [def?.[2] ?? ''];
  let end = i + 1;
  while (
    end < lines.length &&
    (indentOf(lines[end] ?? '') >= 2 || (blank(lines[end]) && indentOf(lines[end + 1] ?? '') >= 2))
  ) {
    inner.push((lines[end] ?? '').replace(/^ {1,4}/, ''));
    end++;
  }
  ctx.defs.set(def?.[1] ?? '', parseBlocks(inner, ctx));
  return /** @type {[null, number]} */ ([null, end]);
}

/** A list: its items (each parsed as blocks, nested lists included) while the marker's kind and indent hold. */
function list(/** @type {string[]} */ lines, /** @type {number} */ i, /** @type {Context} */ ctx) {
  const first = ITEM.exec(lines[i] ?? '');
  const base = first?.[1]?.length ?? 0;
  const ordered = /\d/.test(first?.[2] ?? '');
  /** @type {string[][]} */
  const items = [];
  let end = i;
  while (end < lines.length) {
    const line = lines[end] ?? '';
    const item = ITEM.exec(line);
    if (item && (item[1]?.length ?? 0) === base && /\d/.test(item[2] ?? '') === ordered) {
      items.push([item[3] ?? '']);
    } else if (blank(line)) {
      const next = lines[end + 1];
      if (blank(next) || (indentOf(next ?? '') <= base && !ITEM.exec(next ?? ''))) break;
      items.at(-1)?.push('');
    } else if (indentOf(line) > base) {
      items.at(-1)?.push(line.slice(Math.min(indentOf(line), base + (first?.[2]?.length ?? 1) + 1)));
    } else if (!blank(lines[end - 1]) && !startsBlock(line)) {
      items.at(-1)?.push(line.trim());
    } else break;
    end++;
  }
  const start = ordered ? Number.parseInt(first?.[2] ?? '1', 10) : 1;
  const parsed = items.map((item) => parseBlocks(item, ctx));
  return /** @type {[Block, number]} */ ([{ type: 'list', ordered, start, items: parsed }, end]);
}

/** A GFM table: header, alignment from the delimiter row, body rows until a blank line. */
function table(/** @type {string[]} */ lines, /** @type {number} */ i, /** @type {Context} */ ctx) {
  const cells = (/** @type {string} */ line) =>
    line
      .trim()
      .replace(/^\|/, '')
      .replace(/(?<!\\)\|$/, '')
      .split(/(?<!\\)\|/)
      .map((c) => c.trim().replace(/\\\|/g, '|'));
  /** @type {Align[]} */
  const align = cells(lines[i + 1] ?? '').map((c) =>
    c.startsWith(':') && c.endsWith(':') ? 'center' : c.endsWith(':') ? 'right' : c.startsWith(':') ? 'left' : null,
  );
  const width = align.length;
  const row = (/** @type {string} */ line) => {
    const texts = cells(line);
    return Array.from({ length: width }, (_, k) => parseInline(texts[k] ?? '', ctx));
  };
  let end = i + 2;
  while (end < lines.length && !blank(lines[end]) && (lines[end] ?? '').includes('|')) end++;
  const rows = lines.slice(i + 2, end).map(row);
  return /** @type {[Block, number]} */ ([{ type: 'table', align, head: row(lines[i] ?? ''), rows }, end]);
}
