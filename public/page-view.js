// @ts-check
// One page of a crawl: its essentials and its record in tabs (record.js), its diff against the previous crawl as
// a tab when the crawl is a recrawl, its screenshot when it has one. Each tab's data is fetched on its first opening.

import { call, json, messageOf } from './api.js';
import { diffView } from './changes.js';
import { h } from './dom.js';
import { essentials, recordView } from './record.js';
import { byId, card, loading } from './ui.js';

/** @typedef {import('../.types/api/responses').PageDiff} PageDiff */
/** @typedef {import('../.types/api/responses').PageList['pages'][number]} PageRow */
/** @typedef {import('./record.js').PageRecord} PageRecord */

/** One page of a crawl: its record in tabs; `tab` is the one shown first (the URL's `&tab=`). */
export async function pageView(/** @type {string} */ id, /** @type {string} */ url, /** @type {string} */ tab = '') {
  const base = `/v1/crawls/${id}`;
  const query = `url=${encodeURIComponent(url)}`;
  const body = h('div', {}, loading());
  byId('view').replaceChildren(
    h('p', {}, h('a', { href: `#/crawls/${id}` }, '← Crawl')),
    h('h1', { class: 'url-title' }, url),
    card('record', 'Record', body),
  );
  const view = location.hash;
  const [record, row, screenshot, changes] = await Promise.all([
    json(`${base}/record?${query}`).then(
      (r) => /** @type {PageRecord} */ (r),
      (error) => new Error(messageOf(error)),
    ),
    pageRow(base, url),
    // A screenshot and a diff only when there is one: their tabs are left out otherwise.
    optional(`${base}/screenshot?${query}`)
      .then((r) => r?.blob() ?? null)
      .catch(() => null),
    optional(`${base}/diff?${query}`)
      .then(async (r) => r && diffView(/** @type {PageDiff} */ (await r.json())))
      .catch(() => null),
  ]);
  if (location.hash !== view) return;
  if (record instanceof Error) {
    body.replaceChildren(row ? essentials(row) : '', h('p', { class: 'error', role: 'alert' }, record.message));
    return;
  }
  const onTab = (/** @type {string} */ key) =>
    history.replaceState(null, '', `#/crawls/${id}/page?${query}&tab=${encodeURIComponent(key)}`);
  const sources = pageSources(base, query, screenshot, changes);
  body.replaceChildren(recordView({ ...row, ...record }, sources, tab, onTab));
}

/** Where the page view's tabs get their data: the API, when each is opened. @returns {import('./record.js').Sources} */
function pageSources(
  /** @type {string} */ base,
  /** @type {string} */ query,
  /** @type {Blob | null} */ screenshot,
  /** @type {Node | null} */ changes,
) {
  const output = async (/** @type {string} */ format) => {
    const res = await optional(`${base}/content?${query}&format=${format}`);
    return res ? res.text() : undefined;
  };
  return {
    markdown: () => output('markdown'),
    text: () => output('text'),
    links: async () => /** @type {{ links: string[] }} */ (await json(`${base}/links?${query}`)).links,
    raw: async () => {
      const res = await optional(`${base}/content?${query}`);
      return res ? { blob: await res.blob(), name: 'page-body' } : undefined;
    },
    rawMissing: 'No stored body: the page was not a 2xx response, or is a duplicate.',
    screenshot: screenshot ? objectUrl(screenshot) : undefined,
    changes: changes ?? undefined,
  };
}

/** An object URL for `blob`, revoked when the view changes. */
function objectUrl(/** @type {Blob} */ blob) {
  const href = URL.createObjectURL(blob);
  addEventListener('hashchange', () => URL.revokeObjectURL(href), { once: true });
  return href;
}

/** A response, or null when the API answers 404 (the thing is not there); other errors are thrown. */
async function optional(/** @type {string} */ path) {
  try {
    return await call(path);
  } catch (error) {
    if (error instanceof Error && 'status' in error && error.status === 404) return null;
    throw error;
  }
}

/**
 * The page's row of the crawl's page list (rendered, duplicate of): found by a search for its URL, or nothing.
 * @returns {Promise<(PageRow & { duplicateOf?: string | null }) | null>}
 */
async function pageRow(/** @type {string} */ base, /** @type {string} */ url) {
  // By its path: a search for the whole URL answers 500 (a bug of the page search, to be fixed in the Worker).
  const { pathname, search } = new URL(url);
  const words = `${pathname}${search}`;
  if (words.length > 500 || /\s/.test(words)) return null;
  const found = await json(`${base}/pages?q=${encodeURIComponent(words)}&limit=100`).catch(() => null);
  const pages = /** @type {{ pages: PageRow[] } | null} */ (found)?.pages ?? [];
  return pages.find((p) => p.url === url) ?? null;
}
