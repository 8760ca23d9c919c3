// @ts-check
// One page of a crawl: its record, its outputs, and its diff against the previous crawl.

import { call, json, messageOf } from './api.js';
import { diffView } from './changes.js';
import { h } from './dom.js';
import { recordView } from './record.js';
import { byId, card, loading } from './ui.js';

/** @typedef {import('../.types/api/responses').PageDiff} PageDiff */

/** One page of a crawl: its extraction record and outputs. */
export async function pageView(/** @type {string} */ id, /** @type {string} */ url) {
  const base = `/v1/crawls/${id}`;
  const query = `url=${encodeURIComponent(url)}`;
  const body = h('div', {}, loading());
  byId('view').replaceChildren(
    h('p', {}, h('a', { href: `#/crawls/${id}` }, '← Crawl')),
    h('h1', { class: 'url-title' }, url),
    card('record', 'Extracted', body),
  );
  const output = (/** @type {string} */ format) =>
    call(`${base}/content?${query}&format=${format}`).then(
      (r) => r.text(),
      () => undefined,
    );
  void pageDiff(base, query);
  try {
    const [record, markdown, text] = await Promise.all([
      json(`${base}/record?${query}`),
      output('markdown'),
      output('text'),
    ]);
    body.replaceChildren(recordView({ .../** @type {import('./record.js').PageRecord} */ (record), markdown, text }));
  } catch (error) {
    body.replaceChildren(h('p', { class: 'muted' }, messageOf(error)));
  }
}

/** A recrawled page's diff against the previous crawl, in a card above its record (none outside recrawls). */
async function pageDiff(/** @type {string} */ base, /** @type {string} */ query) {
  const view = location.hash;
  const res = await call(`${base}/diff?${query}`).catch(() => null);
  if (!res?.ok || location.hash !== view) return;
  const box = card('diff', 'Changes since the previous crawl', diffView(/** @type {PageDiff} */ (await res.json())));
  byId('view').querySelector('#record-title')?.parentElement?.before(box);
}
