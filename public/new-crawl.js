// @ts-check
// The home page's forms: start a crawl, and try an extraction spec on one URL.

import { json, messageOf } from './api.js';
import { h } from './dom.js';
import { recordView } from './record.js';
import { byId, card } from './ui.js';

/** The form that starts a crawl. */
export function newCrawlForm() {
  const numberField = (
    /** @type {string} */ id,
    /** @type {string} */ name,
    /** @type {string} */ label,
    /** @type {number} */ min,
  ) =>
    h('div', {}, h('label', { for: id }, label), h('input', { id, name, type: 'number', min, inputmode: 'numeric' }));
  return h(
    'form',
    { id: 'new-crawl', onsubmit: startCrawl },
    h('label', { for: 'seeds' }, 'Seed URLs (one per line)'),
    h('textarea', { id: 'seeds', name: 'seeds', required: true, placeholder: 'https://example.com/' }),
    h(
      'div',
      { class: 'field-row' },
      numberField('max-pages', 'maxPages', 'Max pages', 1),
      numberField('max-depth', 'maxDepth', 'Max depth', 0),
    ),
    h('label', { for: 'scope' }, 'Scope'),
    h(
      'select',
      { id: 'scope', name: 'scope' },
      ['same-host', 'same-domain', 'same-origin', 'any'].map((s) => h('option', { value: s }, s)),
    ),
    h('label', { for: 'render' }, 'JavaScript'),
    h(
      'select',
      { id: 'render', name: 'render' },
      [
        ['auto', 'auto: render pages that need it'],
        ['always', 'always render'],
        ['never', 'never render'],
      ].map(([value, label]) => h('option', { value }, label)),
    ),
    h('div', { class: 'row' }, h('button', { type: 'submit' }, 'Start crawl')),
    h('p', { id: 'start-error', class: 'error', role: 'alert' }),
  );
}

async function startCrawl(/** @type {Event} */ event) {
  event.preventDefault();
  const form = /** @type {HTMLFormElement} */ (event.currentTarget);
  const data = new FormData(form);
  const seeds = String(data.get('seeds') ?? '')
    .split(/\s+/)
    .filter(Boolean);
  /** @type {Record<string, unknown>} */
  const request = { seeds, scope: data.get('scope'), render: data.get('render') };
  if (data.get('maxPages')) request.maxPages = Number(data.get('maxPages'));
  if (data.get('maxDepth')) request.maxDepth = Number(data.get('maxDepth'));
  const button = /** @type {HTMLButtonElement} */ (form.querySelector('button[type=submit]'));
  button.disabled = true;
  try {
    const { id } = /** @type {{ id: string }} */ (
      await json('/v1/crawls', { method: 'POST', body: JSON.stringify(request) })
    );
    location.hash = `#/crawls/${id}`;
  } catch (error) {
    byId('start-error').textContent = messageOf(error);
  } finally {
    button.disabled = false;
  }
}

/**
 * The tabs' data of a scrape's answer: all in it (its screenshot a data URL); a scrape stores no body.
 * @param {import('./record.js').PageRecord & { screenshot?: string | null }} record
 * @returns {import('./record.js').Sources}
 */
const scrapeSources = (record) => ({
  markdown: async () => record.markdown,
  text: async () => record.text,
  links: async () => record.links,
  raw: async () =>
    record.html === undefined ? undefined : { blob: new Blob([record.html], { type: 'text/html' }), name: 'page.html' },
  rawMissing: "A scrape keeps no body: add 'html' to the formats to see the page's cleaned HTML here.",
  screenshot: record.screenshot ?? undefined,
});

/** The "try a spec" panel: one URL scraped now with a spec, its record shown as a crawl would store it. */
export function trySpecPanel() {
  const result = h('div', { id: 'try-result', 'aria-live': 'polite' });
  const error = h('p', { class: 'error', role: 'alert' });
  const spec = JSON.stringify(
    { formats: ['markdown', 'metadata', 'jsonLd'], mainContent: true, fields: { title: { selector: 'h1' } } },
    null,
    2,
  );
  const submit = async (/** @type {Event} */ event) => {
    event.preventDefault();
    const form = /** @type {HTMLFormElement} */ (event.target);
    const data = new FormData(form);
    error.textContent = '';
    try {
      const body = { url: String(data.get('url') ?? '').trim(), extract: JSON.parse(String(data.get('spec') ?? '{}')) };
      result.replaceChildren(h('p', { class: 'muted' }, 'Fetching…'));
      const record = /** @type {import('./record.js').PageRecord & { screenshot?: string | null }} */ (
        await json('/v1/scrape', { method: 'POST', body: JSON.stringify(body) })
      );
      result.replaceChildren(recordView(record, scrapeSources(record)));
    } catch (e) {
      result.replaceChildren();
      error.textContent =
        e instanceof SyntaxError
          ? `The spec is not valid JSON: ${e.message}`
          : e instanceof Error
            ? e.message
            : String(e);
    }
  };
  const form = h(
    'form',
    { id: 'try-spec', onsubmit: (event) => void submit(event) },
    h('label', { for: 'try-url' }, 'Page URL'),
    h('input', { id: 'try-url', name: 'url', type: 'url', required: true, placeholder: 'https://example.com/article' }),
    h('label', { for: 'try-spec-json' }, 'Extraction spec (JSON)'),
    h('textarea', { id: 'try-spec-json', name: 'spec', rows: 8, spellcheck: 'false' }, spec),
    h('div', { class: 'row' }, h('button', { type: 'submit' }, 'Try spec')),
    error,
  );
  return card('try', 'Try an extraction spec', form, result);
}
