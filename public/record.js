// @ts-check
// A page's extraction record in the dashboard: its markdown rendered (as DOM built from text, never as markup),
// its text, metadata, fields and JSON-LD. Used by the page view and by the "try a spec" panel.

import { h, table } from './dom.js';

/** @typedef {import('./dom.js').Child} Child */

/**
 * @typedef {{ url: string, status?: number, contentType?: string | null, fetchedAt?: string, finalUrl?: string,
 *   metadata?: Record<string, unknown>, jsonLd?: unknown[], fields?: Record<string, unknown>, fieldErrors?: Record<string, string>,
 *   links?: string[], images?: { src: string, alt: string }[], wordCount?: number, contentHash?: string, warnings?: string[],
 *   markdown?: string, text?: string, html?: string }} PageRecord
 */

/**
 * A link's text: escaped characters, and brackets nested one level deep (a footnote link is `[[1]](url)`, or
 * `[\[1\]](url)` once escaped).
 */
const LINK_TEXT = String.raw`(?:\\.|[^\[\]\\]|\[(?:\\.|[^\[\]\\])*\])*`;
const INLINE = new RegExp(
  String.raw`(\x60+)([\s\S]*?)\1|!?\[(${LINK_TEXT})\]\((https?:[^)\s]+)\)|\*\*([^*]+)\*\*|(?<![\w\\])_([^_]+)_(?!\w)`,
  'g',
);

/** Inline Markdown: code spans, links (http(s) only, their text inline Markdown too), bold and italics; the rest is text. */
function inline(/** @type {string} */ text, inLink = false) {
  /** @type {Child[]} */
  const out = [];
  const pattern = INLINE;
  let last = 0;
  for (const m of text.matchAll(pattern)) {
    out.push(unescapeMarkdown(text.slice(last, m.index)));
    if (m[1]) out.push(h('code', {}, m[2] ?? ''));
    else if (m[4])
      out.push(
        m[0].startsWith('!')
          ? h('span', { class: 'muted' }, `[image: ${m[3] ?? ''}]`)
          : inLink
            ? unescapeMarkdown(m[0])
            : h('a', { href: m[4], rel: 'noopener noreferrer', target: '_blank' }, inline(m[3] ?? '', true)),
      );
    else if (m[5]) out.push(h('strong', {}, unescapeMarkdown(m[5])));
    else out.push(h('em', {}, unescapeMarkdown(m[6] ?? '')));
    last = (m.index ?? 0) + m[0].length;
  }
  out.push(unescapeMarkdown(text.slice(last)));
  return out;
}

const unescapeMarkdown = (/** @type {string} */ text) => text.replace(/\\([\\`*_[\]<>#+\-.|!])/g, '$1');

/** A GFM table from its lines. */
function gfmTable(/** @type {string[]} */ lines) {
  const cells = (/** @type {string} */ line) =>
    line
      .replace(/^\||\|$/g, '')
      .split(/(?<!\\)\|/)
      .map((c) => c.trim().replace(/\\\|/g, '|'));
  const [head = '', , ...body] = lines;
  return h(
    'div',
    { class: 'table' },
    h(
      'table',
      {},
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          cells(head).map((c) => h('th', {}, inline(c))),
        ),
      ),
      h(
        'tbody',
        {},
        body.map((row) =>
          h(
            'tr',
            {},
            cells(row).map((c) => h('td', {}, inline(c))),
          ),
        ),
      ),
    ),
  );
}

/** One block of Markdown (lines between blank lines, or a fenced code block). */
function block(/** @type {string[]} */ lines) {
  const first = lines[0] ?? '';
  const heading = /^(#{1,6}) (.*)$/.exec(first);
  if (heading && lines.length === 1)
    return h(`h${Math.min(6, (heading[1]?.length ?? 1) + 2)}`, {}, inline(heading[2] ?? ''));
  if (/^\|.*\|$/.test(first) && /^\|( --- \|)+$/.test(lines[1] ?? '')) return gfmTable(lines);
  if (lines.every((l) => /^(\s*)([-*]|\d+\.) /.test(l) || /^\s{2,}/.test(l))) {
    return h(
      'ul',
      {},
      lines.map((l) =>
        h(
          'li',
          { class: `indent-${Math.min(4, Math.floor((/^\s*/.exec(l)?.[0].length ?? 0) / 2))}` },
          inline(l.replace(/^\s*([-*]|\d+\.) /, '')),
        ),
      ),
    );
  }
  if (lines.every((l) => l.startsWith('>')))
    return h('blockquote', {}, inline(lines.map((l) => l.replace(/^> ?/, '')).join(' ')));
  if (first === '---') return h('hr', {});
  return h('p', {}, inline(lines.join(' ').replace(/\\$/, '')));
}

/** Markdown rendered as DOM nodes: headings, paragraphs, lists, quotes, tables, fenced code, links. */
function renderMarkdown(/** @type {string} */ markdown) {
  const root = h('div', { class: 'markdown' });
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; ) {
    const fence = /^(`{3,})(.*)$/.exec(lines[i] ?? '');
    if (fence) {
      const end = lines.findIndex((l, j) => j > i && l === fence[1]);
      const close = end < 0 ? lines.length : end;
      root.append(
        h('pre', {}, h('code', { 'data-lang': fence[2] || undefined }, lines.slice(i + 1, close).join('\n'))),
      );
      i = close + 1;
      continue;
    }
    const group = [];
    while (i < lines.length && (lines[i] ?? '') !== '' && !/^`{3,}/.test(lines[i] ?? '')) group.push(lines[i++] ?? '');
    if (group.length > 0) root.append(block(group));
    else i++;
  }
  return root;
}

/** @param {Record<string, unknown>} metadata */
function metadataTable(metadata) {
  const rows = Object.entries(metadata)
    .filter(([, v]) => v !== null && v !== undefined && !(typeof v === 'object' && Object.keys(v).length === 0))
    .map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]);
  return table('Metadata', ['Name', ['Value', 'wide']], rows, 'No metadata.');
}

const json = (/** @type {unknown} */ value) => h('pre', { class: 'json' }, JSON.stringify(value, null, 2));

/**
 * A record's parts, each in a titled section: rendered markdown, text, metadata, fields (and their errors), JSON-LD,
 * warnings. Missing parts are left out.
 * @param {PageRecord} record
 */
export function recordView(record) {
  /** @type {Child[]} */
  const parts = [];
  const section = (/** @type {string} */ title, /** @type {Child[]} */ ...body) =>
    parts.push(h('section', { class: 'record-part' }, h('h3', {}, title), ...body));
  const facts = [
    record.status !== undefined ? `HTTP ${record.status}` : '',
    record.wordCount !== undefined ? `${record.wordCount} words` : '',
    record.contentType ?? '',
  ].filter(Boolean);
  parts.push(h('p', { class: 'muted' }, facts.join(' · ')));
  if (record.warnings && record.warnings.length > 0)
    section(
      'Warnings',
      h(
        'ul',
        {},
        record.warnings.map((w) => h('li', {}, w)),
      ),
    );
  if (record.fields)
    section(
      'Fields',
      json(record.fields),
      record.fieldErrors && Object.keys(record.fieldErrors).length > 0
        ? json({ fieldErrors: record.fieldErrors })
        : null,
    );
  if (record.markdown !== undefined)
    section(
      'Markdown',
      renderMarkdown(record.markdown),
      h('details', {}, h('summary', {}, 'Markdown source'), h('pre', {}, record.markdown)),
    );
  if (record.text !== undefined) section('Text', h('pre', { class: 'text' }, record.text));
  if (record.metadata) section('Metadata', metadataTable(record.metadata));
  if (record.jsonLd)
    section('JSON-LD', record.jsonLd.length > 0 ? json(record.jsonLd) : h('p', { class: 'muted' }, 'None.'));
  return h('div', { class: 'record' }, ...parts);
}
