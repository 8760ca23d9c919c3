// @ts-check
// A crawl view's first step, shared by the crawl page and the pages browser: load the crawl, or say plainly why it
// cannot be shown (unknown or purged, or the API gone).

import { ApiError, json, messageOf } from './api.js';
import { h } from './dom.js';
import { byId } from './ui.js';

/** @typedef {import('../.types/api/responses').CrawlView} CrawlView */

/**
 * A view that cannot be shown, said plainly: what happened and what to do (back to the crawls, or try again).
 * @param {string} title @param {string} message @param {(() => void) | null} retry
 */
function errorView(title, message, retry) {
  byId('view').replaceChildren(
    h('p', {}, h('a', { href: '#/' }, '← All crawls')),
    h(
      'section',
      { class: 'card error-state', role: 'alert' },
      h('h1', {}, title),
      h('p', {}, message),
      retry ? h('button', { type: 'button', onclick: retry }, 'Try again') : null,
    ),
  );
}

/**
 * The crawl, or null once an error view says why it cannot be shown (unknown or purged, the API gone: `retry`
 * draws the view again).
 * @param {string} id @param {() => void} retry
 */
export async function loadCrawl(id, retry) {
  try {
    return /** @type {CrawlView} */ (await json(`/v1/crawls/${id}`));
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    if (error instanceof ApiError && error.status === 404)
      errorView('Crawl not found', `There is no crawl ${id}: the link may be wrong, or the crawl was purged.`, null);
    else
      errorView(
        'The API cannot be reached',
        `${messageOf(error)}. The crawler may have stopped; try again once it is back.`,
        retry,
      );
    return null;
  }
}
