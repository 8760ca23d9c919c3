// @ts-check
// Markdown rendered as DOM: markdown.js parses it into plain objects, and every node here is made with
// createElement and text; nothing of a crawled page is ever parsed as markup. Images are never loaded (a link to
// them, as text); footnote links move focus within the page without touching the URL's hash (the router's).

import { h } from './dom.js';
import { parseMarkdown, safeHref } from './markdown.js';

/** @typedef {import('./markdown.js').Inline} Inline */
/** @typedef {import('./markdown.js').Block} Block */
/** @typedef {import('./dom.js').Child} Child */

let renders = 0;
/** Footnote references already given an id (by id). */
const referenced = new Set();

/** Markdown as a `.markdown` element, its footnotes in a list at its end. */
export function renderMarkdown(/** @type {string} */ markdown) {
  const doc = parseMarkdown(markdown);
  const prefix = `md${++renders}`;
  const root = h(
    'div',
    { class: 'markdown' },
    doc.blocks.map((b) => block(b, prefix)),
  );
  if (doc.footnotes.length > 0)
    root.append(
      h(
        'section',
        { class: 'footnotes', 'aria-label': 'Footnotes' },
        h('hr', {}),
        h(
          'ol',
          {},
          doc.footnotes.map((note) =>
            h(
              'li',
              { id: `${prefix}-fn-${note.n}`, tabindex: '-1' },
              note.blocks.map((b) => block(b, prefix)),
              ' ',
              jump(`${prefix}-ref-${note.n}`, '↩', `Back to reference ${note.n}`),
            ),
          ),
        ),
      ),
    );
  return root;
}

/** A link to an element of this page, by id: focuses it without changing the URL. */
function jump(/** @type {string} */ id, /** @type {string} */ text, /** @type {string} */ label) {
  const go = (/** @type {Event} */ event) => {
    event.preventDefault();
    const target = document.getElementById(id);
    target?.scrollIntoView({ block: 'center' });
    target?.focus();
  };
  return h('a', { href: `#${id}`, class: 'footnote-link', 'aria-label': label, onclick: go }, text);
}

/** One block as an element. @returns {HTMLElement} */
function block(/** @type {Block} */ b, /** @type {string} */ prefix) {
  const inl = (/** @type {Inline[]} */ nodes) => nodes.map((n) => inline(n, prefix));
  switch (b.type) {
    case 'heading':
      // The page's own headings sit below the view's (h1, h2): h3 and down.
      return h(`h${Math.min(6, b.level + 2)}`, {}, inl(b.children));
    case 'paragraph':
      return h('p', {}, inl(b.children));
    case 'code':
      return h(
        'figure',
        { class: 'code' },
        b.lang ? h('figcaption', {}, b.lang) : null,
        h('pre', {}, h('code', { 'data-lang': b.lang || undefined }, b.text)),
      );
    case 'hr':
      return h('hr', {});
    case 'quote':
      return h(
        'blockquote',
        {},
        b.blocks.map((c) => block(c, prefix)),
      );
    case 'list':
      return h(
        b.ordered ? 'ol' : 'ul',
        { start: b.ordered && b.start !== 1 ? b.start : undefined },
        b.items.map((item) => h('li', {}, listItem(item, prefix))),
      );
    case 'table':
      return gfmTable(b, prefix);
  }
}

/** A list item's blocks; a lone paragraph (a tight item) as its inline content. @returns {Child[]} */
function listItem(/** @type {Block[]} */ blocks, /** @type {string} */ prefix) {
  return blocks.map((b, i) =>
    b.type === 'paragraph' && i === 0
      ? h(
          'span',
          {},
          b.children.map((n) => inline(n, prefix)),
        )
      : block(b, prefix),
  );
}

/** A GFM table in a scrolling wrapper, its columns aligned as the delimiter row says. */
function gfmTable(/** @type {Extract<Block, { type: 'table' }>} */ t, /** @type {string} */ prefix) {
  const cell = (/** @type {'th' | 'td'} */ tag, /** @type {Inline[]} */ nodes, /** @type {number} */ i) =>
    h(
      tag,
      { class: t.align[i] ? `align-${t.align[i]}` : undefined, scope: tag === 'th' ? 'col' : undefined },
      nodes.map((n) => inline(n, prefix)),
    );
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
          t.head.map((c, i) => cell('th', c, i)),
        ),
      ),
      h(
        'tbody',
        {},
        t.rows.map((row) =>
          h(
            'tr',
            {},
            row.map((c, i) => cell('td', c, i)),
          ),
        ),
      ),
    ),
  );
}

/** One inline node: text, or an element holding text. @returns {Child} */
function inline(/** @type {Inline} */ n, /** @type {string} */ prefix) {
  const kids = (/** @type {Inline[]} */ nodes) => nodes.map((c) => inline(c, prefix));
  switch (n.type) {
    case 'text':
      return n.text;
    case 'code':
      return h('code', {}, n.text);
    case 'br':
      return h('br', {});
    case 'strong':
      return h('strong', {}, kids(n.children));
    case 'em':
      return h('em', {}, kids(n.children));
    case 'link':
      return link(n.href, kids(n.children));
    case 'image':
      return safeHref(n.href)
        ? link(n.href, h('span', { class: 'image-ref' }, `[image: ${n.alt}]`))
        : h('span', { class: 'image-ref' }, `[image: ${n.alt}]`);
    case 'footref': {
      // The first reference to a note is the one its back link returns to.
      const id = `${prefix}-ref-${n.n}`;
      const first = !referenced.has(id);
      referenced.add(id);
      const ref = jump(`${prefix}-fn-${n.n}`, String(n.n), `Footnote ${n.n}`);
      return h('sup', { id: first ? id : undefined, class: 'footnote-ref' }, ref);
    }
  }
}

/** A link out of the dashboard: a new tab, no referrer, no opener, not followed. */
const link = (/** @type {string} */ href, /** @type {Child | Child[]} */ children) =>
  h('a', { href, rel: 'noopener noreferrer nofollow', target: '_blank' }, children);
