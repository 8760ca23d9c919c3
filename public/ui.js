// @ts-check
// Small pieces every view of the dashboard uses: formatting of numbers, times and money, badges, cards, the
// live-region announcer, and the loading, empty and error states.

import { h } from './dom.js';

/** @typedef {import('./dom.js').Child} Child */

/** @param {string} id @returns {HTMLElement} */
export function byId(id) {
  const el = document.getElementById(id);
  if (!el) throw new Error(`#${id} missing`);
  return el;
}

/** Says `message` to screen readers (the page's polite live region). @param {string} message */
export function announce(message) {
  byId('announce').textContent = message;
}

const number = new Intl.NumberFormat();
/** @param {number} n */
export const fmt = (n) => number.format(n);
/** @param {string | null} iso */
export const when = (iso) => (iso ? new Date(iso).toLocaleString() : '–');
/** @param {string} iso */
export const clock = (iso) => new Date(iso).toLocaleTimeString();
/** @param {number} ms */
export const seconds = (ms) => (ms > 0 ? `${(ms / 1000).toFixed(1)} s` : 'now');
/** US dollars, with enough digits for a crawl that has cost a fraction of a cent. */
export const usd = (/** @type {number} */ n) =>
  n === 0 ? '$0' : n < 0.01 ? `$${n.toPrecision(2)}` : `$${n.toFixed(2)}`;

/** @param {string} status */
export const badge = (status) => h('span', { class: `badge ${status}` }, status);

/** A titled section; its heading names it. @param {string} key @param {string} title @param {...Child} body */
export const card = (key, title, ...body) =>
  h('section', { class: 'card', 'aria-labelledby': `${key}-title` }, h('h2', { id: `${key}-title` }, title), ...body);

/** What a box shows while its data is on its way. @param {string} [what] */
export const loading = (what = 'Loading…') => h('p', { class: 'muted', role: 'status' }, what);

/** A URL on the first seed's host shown as its path, others in full; the full URL is the element's title. */
export const shortener = (/** @type {string} */ seedHost) => (/** @type {string} */ url) => {
  const u = new URL(url);
  return h('span', { title: url }, u.host === seedHost ? `${u.pathname}${u.search}` : url);
};
