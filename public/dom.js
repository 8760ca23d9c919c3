// @ts-check
// DOM helpers of the dashboard: elements built from text and nodes only, never from markup.

/** @typedef {string | Node | null | undefined | false} Child */

/**
 * Creates an element; attributes starting with "on" are listeners, children are text or nodes.
 * @param {string} tag
 * @param {Record<string, string | number | boolean | EventListener | undefined>} [attrs]
 * @param {...(Child | Child[])} children
 * @returns {HTMLElement}
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    if (typeof value === 'function') el.addEventListener(name.slice(2), value);
    else if (value === true) el.setAttribute(name, '');
    else el.setAttribute(name, String(value));
  }
  for (const child of children.flat()) if (child !== null && child !== undefined && child !== false) el.append(child);
  return el;
}

/**
 * A table in a scrolling wrapper, with a caption for screen readers.
 * @param {string} caption
 * @param {(string | [string, string])[]} head  column titles, or [title, class]
 * @param {Child[][]} rows
 * @param {Child} [empty]
 */
export function table(caption, head, rows, empty = 'Nothing yet.') {
  if (rows.length === 0) return h('p', { class: 'muted' }, empty);
  const cls = head.map((c) => (Array.isArray(c) ? c[1] : undefined));
  return h(
    'div',
    { class: 'table' },
    h(
      'table',
      {},
      h('caption', { class: 'visually-hidden' }, caption),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          head.map((c, i) => h('th', { scope: 'col', class: cls[i] }, Array.isArray(c) ? c[0] : c)),
        ),
      ),
      h(
        'tbody',
        {},
        rows.map((row) =>
          h(
            'tr',
            {},
            row.map((cell, i) => h('td', { class: cls[i] }, cell)),
          ),
        ),
      ),
    ),
  );
}
