// @ts-check
// The pages browser (#/crawls/<id>/pages?<filters>): every page of a crawl, a hundred at a time, filtered by status,
// outcome, content type, change and rendering, searched by title/URL or by extracted text. The filters live in the
// hash, so a filtered view can be linked and survives a reload; paging keeps a stack of cursors for Previous.

import { ApiError, json, messageOf } from './api.js';
import { loadCrawl } from './crawl-state.js';
import { h, table } from './dom.js';
import { byId, card, fmt, loading, shortener, when } from './ui.js';

/**
 * @typedef {import('../.types/api/responses').PageList} PageList
 * @typedef {PageList['pages'][number]} Page
 * @typedef {{ name: string, label: string, options: [string, string][] }} Choice
 */

/** Rows of a page of results. */
const PAGE = 100;

/** The filters the form offers, as the API names them, with their choices ('' is any). */
const CHOICES = /** @type {Choice[]} */ ([
  {
    name: 'status',
    label: 'Status',
    options: [
      ['', 'Any'],
      ['2xx', '2xx success'],
      ['3xx', '3xx redirect'],
      ['4xx', '4xx client error'],
      ['5xx', '5xx server error'],
    ],
  },
  {
    name: 'outcome',
    label: 'Outcome',
    options: [
      ['', 'Any'],
      ['stored', 'Stored'],
      ['duplicate', 'Duplicate'],
      ['failed', 'Failed'],
      ['skipped', 'Skipped'],
    ],
  },
  {
    name: 'contentType',
    label: 'Content type',
    options: [
      ['', 'Any'],
      ['html', 'HTML'],
      ['pdf', 'PDF'],
      ['text', 'Plain text'],
      ['image', 'Image'],
      ['json', 'JSON'],
      ['xml', 'XML'],
    ],
  },
  {
    name: 'change',
    label: 'Change',
    options: [
      ['', 'Any'],
      ['new', 'New'],
      ['changed', 'Changed'],
      ['unchanged', 'Unchanged'],
    ],
  },
  {
    name: 'rendered',
    label: 'Rendered',
    options: [
      ['', 'Any'],
      ['true', 'Rendered in a browser'],
      ['false', 'Fetched only'],
    ],
  },
]);

/** The query parameters the browser keeps in the hash (and sends to the API). */
const KEPT = ['status', 'outcome', 'contentType', 'change', 'rendered', 'q', 'text'];

/** The hash's filters, only those the browser knows, empty ones dropped. @param {URLSearchParams} params */
function filtersOf(params) {
  const out = new URLSearchParams();
  for (const key of KEPT) {
    const value = params.get(key)?.trim();
    if (value) out.set(key, value);
  }
  return out;
}

/** One labelled select of the form, its value from the hash (a value not offered, e.g. 404, is added). */
function select(/** @type {Choice} */ choice, /** @type {string} */ value) {
  const id = `filter-${choice.name}`;
  const options = choice.options.some(([v]) => v === value) ? choice.options : [...choice.options, [value, value]];
  return h(
    'div',
    { class: 'filter' },
    h('label', { for: id }, choice.label),
    h(
      'select',
      { id, name: choice.name },
      options.map(([v, text]) => h('option', { value: v, selected: v === value }, text)),
    ),
  );
}

/** The search box and where it searches: title, description and URL (q), or the extracted text (text). */
function searchField(/** @type {URLSearchParams} */ filters) {
  const inText = filters.has('text');
  const where = h(
    'select',
    { id: 'search-in', name: 'in' },
    h('option', { value: 'q', selected: !inText }, 'Title, description and URL'),
    h('option', { value: 'text', selected: inText }, 'Extracted text'),
  );
  return h(
    'div',
    { class: 'filter search' },
    h('label', { for: 'search' }, 'Search'),
    h('input', { id: 'search', name: 'search', type: 'search', value: filters.get(inText ? 'text' : 'q') ?? '' }),
    h('label', { for: 'search-in' }, 'Search in'),
    where,
  );
}

/** The hash of the browser with `filters`. @param {string} id @param {URLSearchParams} filters */
const browseHash = (id, filters) => `#/crawls/${id}/pages${filters.size > 0 ? `?${filters}` : ''}`;

/** The filter form: submitting it puts its filters in the hash (which draws the browser again). */
function filterForm(/** @type {string} */ id, /** @type {URLSearchParams} */ filters, /** @type {boolean} */ recrawl) {
  const choices = CHOICES.filter((c) => c.name !== 'change' || recrawl);
  const submit = (/** @type {Event} */ event) => {
    event.preventDefault();
    const data = new FormData(/** @type {HTMLFormElement} */ (event.currentTarget));
    const next = new URLSearchParams();
    for (const c of choices) {
      const value = String(data.get(c.name) ?? '');
      if (value) next.set(c.name, value);
    }
    const words = String(data.get('search') ?? '').trim();
    if (words) next.set(String(data.get('in') ?? 'q'), words);
    location.hash = browseHash(id, next);
  };
  return h(
    'form',
    { class: 'filters', 'aria-label': 'Filter pages', onsubmit: submit },
    h(
      'div',
      { class: 'filter-grid' },
      ...choices.map((c) => select(c, filters.get(c.name) ?? '')),
      searchField(filters),
    ),
    h(
      'div',
      { class: 'row' },
      h('button', { type: 'submit' }, 'Apply filters'),
      h('a', { href: browseHash(id, new URLSearchParams()) }, 'Clear filters'),
    ),
  );
}

/** @param {Page[]} pages @param {string} id @param {(url: string) => Node} short @param {boolean} filtered */
function resultsTable(pages, id, short, filtered) {
  const rows = pages.map((p) => [
    h('a', { href: `#/crawls/${id}/page?url=${encodeURIComponent(p.url)}` }, short(p.url)),
    String(p.status),
    p.duplicateOf
      ? h('span', { class: 'muted', title: p.duplicateOf }, `duplicate (${p.duplicateReason})`)
      : (p.title ?? ''),
    p.contentType?.split(';')[0] ?? '–',
    p.wordCount === null ? '–' : fmt(p.wordCount),
    p.rendered ? h('span', { title: `rendered: ${p.rendered}` }, 'JS') : 'no',
    when(p.fetchedAt),
  ]);
  return table(
    'Pages of the crawl',
    [['URL', 'url'], 'Status', ['Title', 'title'], 'Type', ['Words', 'num'], 'Rendered', 'Fetched'],
    rows,
    filtered ? 'No pages match these filters.' : 'This crawl has no pages yet.',
  );
}

/**
 * A page of results from `cursor`: one request, or for a filter that reads the crawl a window at a time, as many as
 * it takes to fill the page or reach the end; `progress` hears how many rows were searched. Stopped (`stopped`, and
 * the request in flight aborted), it ends with what it found, its cursor the last answer's.
 * @param {string} path @param {URLSearchParams} filters @param {string | null} cursor @param {Run} run
 */
async function fetchPage(path, filters, cursor, run) {
  /** @type {Page[]} */
  const pages = [];
  let next = cursor;
  let searched = 0;
  do {
    const query = new URLSearchParams(filters);
    query.set('limit', String(PAGE - pages.length));
    if (next) query.set('cursor', next);
    /** @type {PageList} */
    let answer;
    try {
      answer = await json(`${path}?${query}`, { signal: run.abort.signal });
    } catch (error) {
      if (run.stopped) break;
      throw error;
    }
    pages.push(...answer.pages);
    next = answer.cursor;
    searched += answer.searched ?? 0;
    run.progress(searched, pages.length);
  } while (next && pages.length < PAGE && !run.stopped);
  return { pages, next, searched };
}

/** A paging button, disabled until there is somewhere to go. @param {string} id @param {string} label */
const button = (id, label) =>
  /** @type {HTMLButtonElement} */ (h('button', { type: 'button', class: 'secondary', id, disabled: true }, label));

/** The results card's parts. */
function resultParts() {
  return {
    status: h('p', { id: 'pages-status', role: 'status', 'aria-live': 'polite', tabindex: -1 }),
    stop: h('button', { type: 'button', class: 'secondary', id: 'pages-stop', hidden: true }, 'Stop'),
    body: h('div', { id: 'pages-results' }, loading()),
    previous: button('pages-previous', 'Previous'),
    next: button('pages-next', 'Next'),
  };
}

/** @typedef {{ cursor: string | null, start: number }} At where a page of results starts: its cursor and index */
/** @typedef {{ stopped: boolean, abort: AbortController, progress: (searched: number, found: number) => void }} Run one page's requests */

/**
 * Shows the page of results at `at` in `parts` (unless another run or view took over meanwhile); its next cursor.
 * @param {ReturnType<typeof resultParts>} parts @param {{ id: string, filters: URLSearchParams, short: (url: string) => Node }} ctx
 * @param {At} at @param {Run} run @param {{ current: () => boolean, canGoBack: boolean, again: () => void }} state
 */
async function showPage(parts, ctx, at, run, { current, canGoBack, again }) {
  parts.previous.disabled = parts.next.disabled = true;
  parts.status.textContent = '';
  parts.stop.hidden = ctx.filters.size === 0;
  parts.body.replaceChildren(loading('Loading pages…'));
  try {
    const page = await fetchPage(`/v1/crawls/${ctx.id}/pages`, ctx.filters, at.cursor, run);
    if (!current()) return null;
    parts.body.replaceChildren(resultsTable(page.pages, ctx.id, ctx.short, ctx.filters.size > 0));
    parts.status.textContent = countText(at.start, page.pages.length, page.next, run.stopped);
    parts.previous.disabled = !canGoBack;
    parts.next.disabled = page.next === null;
    return { next: page.next, shown: page.pages.length };
  } catch (error) {
    if (current()) failed(parts, error, again);
    return null;
  } finally {
    if (current()) parts.stop.hidden = true;
  }
}

/**
 * The results: a page at a time, Next and Previous by the cursors (a stack of where each page started); returns
 * what shows the first page.
 * @param {ReturnType<typeof resultParts>} parts @param {{ id: string, filters: URLSearchParams, short: (url: string) => Node }} ctx
 */
function pager(parts, ctx) {
  const view = location.hash;
  /** @type {At[]} */
  const stack = [];
  /** @type {At} */
  let at = { cursor: null, start: 0 };
  /** @type {{ next: string | null, shown: number } | null} */
  let shown = null;
  /** @type {Run} */
  let run = { stopped: false, abort: new AbortController(), progress: () => {} };
  const stop = () => {
    run.stopped = true;
    run.abort.abort();
  };
  const show = async (/** @type {At} */ where) => {
    stop();
    /** @type {Run} */
    const mine = {
      stopped: false,
      abort: new AbortController(),
      progress: (searched, found) => {
        if (run === mine && ctx.filters.size > 0)
          parts.status.textContent = `Searched ${fmt(searched)} rows so far, ${fmt(found)} found…`;
      },
    };
    run = mine;
    at = where;
    shown = await showPage(parts, ctx, where, mine, {
      current: () => run === mine && location.hash === view,
      canGoBack: stack.length > 0,
      again: () => void show(where),
    });
    // A paging or Stop button disabled or hidden while it had the focus left it on nothing: it goes to the count.
    if (run === mine && (document.activeElement === document.body || document.activeElement === null))
      parts.status.focus();
  };
  parts.stop.addEventListener('click', stop);
  parts.next.addEventListener('click', () => {
    if (!shown?.next) return;
    stack.push(at);
    void show({ cursor: shown.next, start: at.start + shown.shown });
  });
  parts.previous.addEventListener('click', () => {
    const back = stack.pop();
    if (back) void show(back);
  });
  return () => void show(at);
}

/** "Pages 101–200", and whether there are more. */
function countText(
  /** @type {number} */ start,
  /** @type {number} */ n,
  /** @type {string | null} */ next,
  /** @type {boolean} */ stopped,
) {
  if (n === 0)
    return stopped
      ? `Stopped: no pages found so far.${next ? ' Next searches on.' : ''}`
      : next
        ? 'No pages found so far: Next searches on.'
        : 'No pages.';
  const range = `Pages ${fmt(start + 1)}–${fmt(start + n)}`;
  return stopped && next ? `${range} (stopped: Next searches on)` : next ? range : `${range} (the last)`;
}

/** An error of a results request: the API's message, or the API gone, with a way to try again. */
function failed(
  /** @type {ReturnType<typeof resultParts>} */ parts,
  /** @type {unknown} */ error,
  /** @type {() => void} */ retry,
) {
  const gone = !(error instanceof ApiError);
  const message = gone ? `The API cannot be reached: ${messageOf(error)}.` : messageOf(error);
  parts.status.textContent = '';
  parts.body.replaceChildren(
    h('div', { role: 'alert', class: 'error-state' }, h('p', { class: 'error' }, message)),
    h('button', { type: 'button', onclick: retry }, 'Try again'),
  );
}

/** The pages browser of crawl `id`, with the hash's filters. @param {string} id @param {URLSearchParams} params @param {() => void} retry */
export async function pagesView(id, params, retry) {
  byId('view').replaceChildren(loading());
  const crawl = await loadCrawl(id, retry);
  if (!crawl) return;
  const filters = filtersOf(params);
  const short = shortener(new URL(crawl.config.seeds[0] ?? location.href).host);
  const parts = resultParts();
  byId('view').replaceChildren(
    h('p', {}, h('a', { href: `#/crawls/${id}` }, '← Crawl')),
    h('h1', {}, 'Pages'),
    h('p', { class: 'muted crawl-of' }, `Crawl ${id} of ${crawl.config.seeds[0] ?? ''}`),
    card('filters', 'Filters', filterForm(id, filters, crawl.changes !== undefined)),
    card(
      'pages',
      'Results',
      h('div', { class: 'row' }, parts.status, parts.stop),
      parts.body,
      h('nav', { class: 'row', 'aria-label': 'Result pages' }, parts.previous, parts.next),
    ),
  );
  pager(parts, { id, filters, short })();
}
