// @ts-check
// A page's record in the dashboard: its essentials, then tabs for its markdown (rendered as DOM built from text,
// never as markup), text, metadata, JSON-LD, fields, the language model's JSON and summary, links, screenshot, raw body
// and changes. Used by the page view
// and by the "try a spec" panel; each tab's data comes from `sources`, on the tab's first opening.

import { h, table } from './dom.js';
import { renderMarkdown } from './markdown-view.js';
import { tabSet } from './tabs.js';
import { announce, fmt, when } from './ui.js';

/** @typedef {import('./dom.js').Child} Child */

/**
 * @typedef {{ url: string, status?: number, contentType?: string | null, fetchedAt?: string, finalUrl?: string,
 *   metadata?: Record<string, unknown>, jsonLd?: unknown[], fields?: Record<string, unknown>, fieldErrors?: Record<string, string>,
 *   links?: string[], images?: { src: string, alt: string }[], wordCount?: number | null, contentHash?: string, warnings?: string[],
 *   markdown?: string, text?: string, html?: string, rendered?: string | null, cachedFrom?: string | null,
 *   duplicateOf?: string | null, cached?: boolean, json?: unknown, summary?: string,
 *   model?: { name: string, answer: 'model' | 'cached' | 'selectors' | 'none' } }} PageRecord
 * @typedef {{ blob: Blob, name: string }} Raw
 * @typedef {{ markdown: () => Promise<string | undefined>, text: () => Promise<string | undefined>,
 *   links: () => Promise<string[] | undefined>, raw: () => Promise<Raw | undefined>, rawMissing?: string,
 *   screenshot?: string, changes?: Node }} Sources
 */

/** The most of a raw body shown as text; the whole is a download. */
const RAW_SHOWN = 200 * 1024;

/**
 * The record's essentials and its tabs; `tab` is the one shown first, `onTab` told of each choice.
 * @param {PageRecord} record @param {Sources} sources @param {string} [tab] @param {(key: string) => void} [onTab]
 */
export function recordView(record, sources, tab, onTab) {
  /** @type {import('./tabs.js').Tab[]} */
  const tabs = [
    { key: 'markdown', label: 'Markdown', render: () => markdownTab(sources) },
    { key: 'text', label: 'Text', render: () => textTab(sources) },
    { key: 'metadata', label: 'Metadata', render: () => metadataTab(record) },
    { key: 'json-ld', label: 'JSON-LD', render: () => jsonLdTab(record) },
    { key: 'fields', label: 'Fields', render: () => fieldsTab(record) },
  ];
  if (hasModel(record)) tabs.push({ key: 'model', label: 'JSON & summary', render: () => modelTab(record) });
  tabs.push({ key: 'links', label: 'Links', render: () => linksTab(record.url, sources) });
  const screenshot = sources.screenshot;
  if (screenshot)
    tabs.push({ key: 'screenshot', label: 'Screenshot', render: () => screenshotTab(record, screenshot) });
  tabs.push({ key: 'raw', label: 'Raw', render: () => rawTab(sources) });
  const changes = sources.changes;
  if (changes) tabs.push({ key: 'changes', label: 'Changes', render: () => changes });
  return h('div', { class: 'record' }, essentials(record), tabSet('Record', tabs, tab, onTab));
}

/** The page's essentials as a definition list; what the record does not say is left out. @param {PageRecord} r */
export function essentials(r) {
  /** @type {[string, Child][]} */
  const rows = [
    ['URL', r.url],
    ['Final URL', r.finalUrl && r.finalUrl !== r.url ? r.finalUrl : null],
    ['Status', r.status === undefined ? null : `HTTP ${r.status}`],
    ['Content type', r.contentType ?? null],
    ['Fetched', r.fetchedAt ? when(r.fetchedAt) : null],
    ['Words', r.wordCount === undefined || r.wordCount === null ? null : fmt(r.wordCount)],
    ['Rendered', r.rendered === undefined ? null : r.rendered ? `yes: ${r.rendered}` : 'no'],
    ['Duplicate of', r.duplicateOf ?? null],
    ['Cached from', r.cachedFrom ? `crawl ${r.cachedFrom}` : r.cached ? 'the page cache' : null],
    ['Language model', r.model ? `${r.model.name}: ${MODEL_ANSWERS[r.model.answer] ?? r.model.answer}` : null],
  ];
  const warnings = r.warnings ?? [];
  if (warnings.length > 0)
    rows.push([
      'Warnings',
      h(
        'ul',
        {},
        warnings.map((w) => h('li', {}, w)),
      ),
    ]);
  return h(
    'dl',
    { class: 'essentials' },
    rows.filter(([, v]) => v !== null && v !== '').map(([k, v]) => h('div', {}, h('dt', {}, k), h('dd', {}, v))),
  );
}

/** How a record's json and summary were had, in words. @type {Record<string, string>} */
const MODEL_ANSWERS = {
  model: 'read this page',
  cached: 'its earlier answer for the same content reused (no call)',
  selectors: "read by the selectors it learned for this page's template (no call)",
  none: 'no answer',
};

const empty = (/** @type {string} */ words) => h('p', { class: 'muted empty' }, words);

/** Buttons that copy `text` and download it as `name`. */
function toolbar(
  /** @type {string} */ text,
  /** @type {string | null} */ name,
  /** @type {string} */ type,
  /** @type {Child} */ more = null,
) {
  const copy = h('button', { type: 'button', class: 'secondary' }, 'Copy');
  copy.addEventListener('click', () =>
    navigator.clipboard.writeText(text).then(
      () => announce('Copied to the clipboard.'),
      () => announce('Could not copy: the browser refused the clipboard.'),
    ),
  );
  return h(
    'div',
    { class: 'row toolbar' },
    copy,
    name
      ? h(
          'button',
          { type: 'button', class: 'secondary', onclick: () => download(new Blob([text], { type }), name) },
          'Download',
        )
      : null,
    more,
  );
}

/** Saves `blob` as a file named `name`. */
function download(/** @type {Blob} */ blob, /** @type {string} */ name) {
  const href = URL.createObjectURL(blob);
  const a = h('a', { href, download: name, hidden: true });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 1000);
}

async function markdownTab(/** @type {Sources} */ sources) {
  const markdown = await sources.markdown();
  if (markdown === undefined) return empty("No markdown: the crawl's extract.formats does not include it.");
  if (markdown.trim() === '') return empty('This page has no markdown: its main content is empty.');
  return [toolbar(markdown, 'page.md', 'text/markdown'), renderMarkdown(markdown)];
}

async function textTab(/** @type {Sources} */ sources) {
  const text = await sources.text();
  if (text === undefined) return empty("No text: the crawl's extract.formats does not include it.");
  if (text.trim() === '') return empty('This page has no text.');
  return [toolbar(text, 'page.txt', 'text/plain'), h('pre', { class: 'text', tabindex: 0 }, text)];
}

function metadataTab(/** @type {PageRecord} */ record) {
  if (!record.metadata) return empty("No metadata: the crawl's extract.formats does not include it.");
  const rows = Object.entries(record.metadata)
    .filter(([, v]) => v !== null && v !== undefined && !(typeof v === 'object' && Object.keys(v).length === 0))
    .map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]);
  return table('Metadata', ['Name', ['Value', 'wide']], rows, 'This page has no metadata.');
}

function jsonLdTab(/** @type {PageRecord} */ record) {
  if (!record.jsonLd) return empty("No JSON-LD: the crawl's extract.formats does not include it.");
  if (record.jsonLd.length === 0) return empty('This page has no JSON-LD.');
  return record.jsonLd.map((item, i) => {
    const type = item && typeof item === 'object' && '@type' in item ? String(item['@type']) : '';
    return h(
      'section',
      { class: 'json-ld' },
      h('h3', {}, `Item ${i + 1}${type ? `: ${type}` : ''}`),
      h('pre', { class: 'json', tabindex: 0 }, JSON.stringify(item, null, 2)),
    );
  });
}

/** Whether the record has anything of the language model's. @param {PageRecord} r */
const hasModel = (r) => r.model !== undefined || r.json !== undefined || r.summary !== undefined;

/** The model's summary and JSON (as text, never markup), which model and how, and why there is no JSON. */
function modelTab(/** @type {PageRecord} */ record) {
  const why = record.fieldErrors?.json;
  const json = record.json === undefined ? null : JSON.stringify(record.json, null, 2);
  /** @type {Child[]} */
  const jsonPart =
    json === null
      ? [why === undefined ? empty('No JSON.') : null]
      : [toolbar(json, 'page.json', 'application/json'), h('pre', { class: 'json', tabindex: 0 }, json)];
  return [
    record.model
      ? h('p', {}, `Model ${record.model.name}: ${MODEL_ANSWERS[record.model.answer] ?? record.model.answer}.`)
      : null,
    h('h3', {}, 'Summary'),
    record.summary === undefined ? empty('No summary.') : h('p', { class: 'summary' }, record.summary),
    h('h3', {}, 'JSON'),
    why === undefined ? null : h('p', { class: 'error' }, `No JSON: ${why}`),
    ...jsonPart,
  ];
}

function fieldsTab(/** @type {PageRecord} */ record) {
  const fields = record.fields ?? {};
  // fieldErrors.json is the model's (its tab shows it) unless a declared field is named json.
  const { json: modelError, ...others } = record.fieldErrors ?? {};
  const errors =
    modelError !== undefined && (record.model === undefined || 'json' in fields)
      ? { ...others, json: modelError }
      : others;
  const names = [...new Set([...Object.keys(fields), ...Object.keys(errors)])];
  if (names.length === 0) return empty('No fields: the extract spec declares none.');
  const value = (/** @type {unknown} */ v) =>
    v === undefined || v === null ? '–' : typeof v === 'string' ? v : JSON.stringify(v);
  return table(
    'Fields',
    ['Name', ['Value', 'wide'], 'Error'],
    names.map((name) => [name, value(fields[name]), errors[name] ?? '']),
  );
}

async function linksTab(/** @type {string} */ url, /** @type {Sources} */ sources) {
  const links = await sources.links();
  if (links === undefined) return empty("No links: the crawl's extract.formats does not include them.");
  if (links.length === 0) return empty('This page has no links.');
  const host = new URL(url).host;
  const internal = links.filter((l) => URL.canParse(l) && new URL(l).host === host);
  const external = links.filter((l) => !internal.includes(l));
  const lists = h('div', {});
  const status = h('p', { role: 'status', class: 'muted' });
  const show = (/** @type {string} */ filter) => {
    const match = (/** @type {string} */ l) => l.toLowerCase().includes(filter.toLowerCase());
    const group = (/** @type {string} */ title, /** @type {string[]} */ list) => {
      const shown = list.filter(match);
      return h(
        'section',
        { class: 'links' },
        h('h3', {}, `${title} (${fmt(shown.length)})`),
        shown.length === 0
          ? empty('None.')
          : h(
              'ul',
              {},
              shown.map((l) =>
                h('li', {}, h('a', { href: l, rel: 'noopener noreferrer nofollow', target: '_blank' }, l)),
              ),
            ),
      );
    };
    lists.replaceChildren(group('Internal', internal), group('External', external));
    status.textContent = filter ? `${fmt(links.filter(match).length)} of ${fmt(links.length)} links match.` : '';
  };
  const input = h('input', {
    id: 'links-filter',
    type: 'search',
    oninput: (e) => show(/** @type {HTMLInputElement} */ (e.target).value),
  });
  show('');
  return [
    h(
      'p',
      { class: 'links-count' },
      `${fmt(links.length)} links: ${fmt(internal.length)} internal, ${fmt(external.length)} external.`,
    ),
    h('label', { for: 'links-filter' }, 'Filter links'),
    input,
    status,
    lists,
  ];
}

function screenshotTab(/** @type {PageRecord} */ record, /** @type {string} */ src) {
  return h('div', { class: 'screenshot' }, h('img', { src, alt: `Screenshot of ${record.url}` }));
}

async function rawTab(/** @type {Sources} */ sources) {
  const raw = await sources.raw();
  if (raw === undefined) return empty(sources.rawMissing ?? 'This page has no stored body.');
  const textual = /^text\/|json|xml|javascript/.test(raw.blob.type) || raw.blob.type === '';
  const save = h(
    'button',
    { type: 'button', class: 'secondary', onclick: () => download(raw.blob, raw.name) },
    'Download',
  );
  if (!textual) return [h('p', {}, `A ${raw.blob.type} body of ${fmt(raw.blob.size)} bytes: not shown as text.`), save];
  const text = await raw.blob.slice(0, RAW_SHOWN).text();
  const cut = raw.blob.size > RAW_SHOWN;
  return [
    toolbar(text, null, raw.blob.type, save),
    h(
      'p',
      { class: 'muted' },
      `${raw.blob.type}, ${fmt(raw.blob.size)} bytes${cut ? `: the first ${fmt(RAW_SHOWN)} shown` : ''}.`,
    ),
    h('pre', { class: 'raw', tabindex: 0 }, text),
  ];
}
