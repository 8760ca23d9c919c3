// @ts-check
// The new-crawl form's extraction group: the spec as JSON (the one source of truth: the format checkboxes and the
// main-content box edit it), its syntax errors by line and column, and "Try spec on one URL" (POST /v1/scrape).

import { json, messageOf } from './api.js';
import { check, field, lines } from './crawl-fields.js';
import { h } from './dom.js';
import { modelFields } from './model-spec.js';
import { recordView } from './record.js';

const FORMATS = [
  'markdown',
  'text',
  'html',
  'metadata',
  'jsonLd',
  'links',
  'images',
  'screenshot',
  'screenshot@fullPage',
  'json',
  'summary',
];
/** The API's formats when a spec names none. */
const DEFAULT_FORMATS = ['markdown', 'metadata'];

/** Where JSON.parse stopped in `text`: the longest prefix that could still start valid JSON. */
function errorOffset(/** @type {string} */ text, /** @type {string} */ message) {
  const given = /at position (\d+)/.exec(message);
  if (given) return Number(given[1]);
  const viable = (/** @type {number} */ p) => {
    try {
      JSON.parse(text.slice(0, p));
      return true;
    } catch (e) {
      return /end of JSON input/i.test(messageOf(e));
    }
  };
  let [lo, hi] = [0, text.length];
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (viable(mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * The spec in `text`: undefined when empty (the API's default: markdown and metadata), null for `null` (a plain
 * crawl: no extraction), or why it is not JSON, with the line and column.
 * @param {string} text @returns {{ spec: unknown, error?: undefined } | { error: string, spec?: undefined }}
 */
export function parseSpec(text) {
  if (text.trim() === '') return { spec: undefined };
  try {
    return { spec: JSON.parse(text) };
  } catch (e) {
    const message = messageOf(e);
    const at = errorOffset(text, message);
    const before = text.slice(0, at);
    const line = before.split('\n').length;
    const column = at - before.lastIndexOf('\n');
    const reason = message.replace(/\s*\(line \d+ column \d+\)/, '').replace(/ in JSON at position \d+/, '');
    return { error: `Not valid JSON at line ${line}, column ${column}: ${reason}` };
  }
}

/** @param {unknown} v @returns {v is Record<string, unknown>} */
const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The checkboxes that edit the spec: the formats, and whether the main content is kept. They follow the JSON as
 * it is typed, and are disabled while it is not valid JSON.
 * @param {HTMLTextAreaElement} area
 */
function specBoxes(area) {
  const box = (/** @type {string} */ id, /** @type {string} */ value) =>
    /** @type {HTMLInputElement} */ (h('input', { type: 'checkbox', id, value }));
  const formats = FORMATS.map((f) => box(`format-${f.replace('@', '-')}`, f));
  const main = box('main-content', 'main');
  const write = (/** @type {(spec: Record<string, unknown>) => void} */ edit) => {
    const parsed = parseSpec(area.value);
    const spec = isObject(parsed.spec) ? parsed.spec : {};
    edit(spec);
    area.value = Object.keys(spec).length === 0 ? '' : JSON.stringify(spec, null, 2);
  };
  const onFormat = () => {
    const chosen = formats.filter((b) => b.checked).map((b) => b.value);
    // No format at all is no extraction: a plain crawl (an empty spec would be the default formats).
    if (chosen.length === 0) area.value = 'null';
    else
      write((spec) => {
        spec.formats = chosen;
      });
  };
  const onMain = () =>
    write((spec) => {
      if (main.checked) delete spec.mainContent;
      else spec.mainContent = false;
    });
  for (const b of formats) b.addEventListener('change', onFormat);
  main.addEventListener('change', onMain);
  const follow = () => {
    const { spec, error } = parseSpec(area.value);
    for (const b of [...formats, main]) b.disabled = error !== undefined;
    if (error !== undefined) return;
    const given = isObject(spec) && Array.isArray(spec.formats) ? spec.formats : null;
    const chosen = spec === null ? [] : (given ?? DEFAULT_FORMATS);
    for (const b of formats) b.checked = chosen.includes(b.value);
    main.checked = spec !== null && (!isObject(spec) || spec.mainContent !== false);
  };
  area.addEventListener('input', follow);
  follow();
  return { formats, main };
}

/**
 * The extraction group's fields, registered in `reg` ("extract" is the spec editor, every issue inside the spec
 * shows under it; "ignore" the selectors removed before pages are compared).
 * @param {import('./crawl-fields.js').Registry} reg
 */
export function extractionFields(reg) {
  const area = /** @type {HTMLTextAreaElement} */ (
    h('textarea', {
      id: 'extract-spec',
      name: 'extract',
      rows: 8,
      spellcheck: 'false',
      'data-kind': 'json',
      placeholder: '{"formats": ["markdown"], "fields": {"price": {"selector": ".price", "type": "number"}}}',
    })
  );
  const { formats, main } = specBoxes(area);
  const formatSet = h(
    'fieldset',
    { class: 'choices' },
    h('legend', {}, 'Formats'),
    h(
      'div',
      { class: 'checks' },
      formats.map((b) => check(b, b.value)),
    ),
  );
  return [
    formatSet,
    check(main, 'Main content only (navigation, footers and ads left out)'),
    field(
      reg,
      'extract',
      'Extraction spec (JSON)',
      area,
      'Empty: markdown and metadata of the main content (the default). null: no extraction, a plain crawl (the raw body, title and links). Keys: formats, mainContent, include and exclude (CSS selectors), fields: {"name": {"selector", "attr", "type": text|code|html|number|url, "list", "fields"}}, json: {schema, prompt, learnSelectors} and summary: {prompt} (the language model\'s, edited by the fields below).',
    ),
    modelFields(reg, area, parseSpec),
    field(
      reg,
      'ignore',
      'Ignore selectors (one per line)',
      lines('ignore', 'ignore', '.timestamp'),
      'Removed before pages are extracted and compared.',
    ),
    tryPanel(area),
  ];
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

/** "Try spec on one URL": the page scraped now with the spec, its record shown as a crawl would store it. */
function tryPanel(/** @type {HTMLTextAreaElement} */ area) {
  const url = /** @type {HTMLInputElement} */ (
    h('input', {
      id: 'try-url',
      type: 'url',
      placeholder: 'https://example.com/article',
      'aria-describedby': 'try-error',
    })
  );
  const result = h('div', { id: 'try-result', 'aria-live': 'polite' });
  const error = h('p', { id: 'try-error', class: 'error', role: 'alert' });
  const run = async () => {
    error.textContent = '';
    const { spec, error: syntax } = parseSpec(area.value);
    const problem =
      syntax !== undefined ? syntax : url.value.trim() === '' ? 'Give the URL of a page to try the spec on.' : '';
    if (problem) {
      error.textContent = problem;
      return;
    }
    const body = { url: url.value.trim(), ...(spec === null || spec === undefined ? {} : { extract: spec }) };
    result.replaceChildren(h('p', { class: 'muted', role: 'status' }, 'Fetching…'));
    try {
      const record = /** @type {import('./record.js').PageRecord & { screenshot?: string | null }} */ (
        await json('/v1/scrape', { method: 'POST', body: JSON.stringify(body) })
      );
      result.replaceChildren(recordView(record, scrapeSources(record)));
    } catch (e) {
      result.replaceChildren();
      error.textContent = messageOf(e);
    }
  };
  return h(
    'div',
    { class: 'try' },
    h('label', { for: 'try-url' }, 'Page URL to try the spec on'),
    url,
    h(
      'div',
      { class: 'row' },
      h('button', { type: 'button', class: 'secondary', onclick: () => void run() }, 'Try spec on one URL'),
    ),
    error,
    result,
  );
}
