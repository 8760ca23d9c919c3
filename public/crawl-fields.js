// @ts-check
// The new-crawl form's fields: labelled controls, each with its hint and its error line, registered by the path of
// the setting they edit (so that an issue the API reports on ["webhook", "url"] lands next to that input), and the
// request read back from them: only what the operator filled in or changed, the API's defaults left to the API.

import { h } from './dom.js';

/** @typedef {import('./dom.js').Child} Child */
/** @typedef {{ control: HTMLElement, error: HTMLElement, label: string }} FieldEntry */
/** The form's fields by the path of their setting ("maxPages", "webhook.url", "extract"). @typedef {Map<string, FieldEntry>} Registry */

/**
 * A labelled control with its hint and error line, registered under `key`.
 * @param {Registry} reg @param {string} key @param {string} label @param {HTMLElement} control @param {string} [hint]
 */
export function field(reg, key, label, control, hint) {
  const id = control.id;
  const error = h('p', { id: `${id}-error`, class: 'error field-error' });
  const hintEl = hint ? h('p', { id: `${id}-hint`, class: 'hint muted' }, hint) : null;
  control.setAttribute('aria-describedby', `${hintEl ? `${id}-hint ` : ''}${id}-error`);
  reg.set(key, { control, error, label });
  return h('div', { class: 'field' }, h('label', { for: id }, label), control, hintEl, error);
}

/** A checkbox with its label after it. @param {HTMLElement} box @param {string} label */
export const check = (box, label) => h('div', { class: 'check' }, box, h('label', { for: box.id }, label));

/** @param {string} id @param {string} name @param {number} min @param {number} max */
export const intAttrs = (id, name, min, max) => ({
  id,
  name,
  type: 'number',
  min,
  max,
  step: 1,
  inputmode: 'numeric',
  'data-kind': 'int',
});
/** @param {string} id @param {string} name @param {number} min @param {number} max */
export const int = (id, name, min, max) => h('input', intAttrs(id, name, min, max));
/** @param {string} id @param {string} name @param {Record<string, string>} [attrs] */
export const text = (id, name, attrs = {}) => h('input', { id, name, type: 'text', 'data-kind': 'text', ...attrs });
/** One value per line. @param {string} id @param {string} name @param {string} [placeholder] */
export const lines = (id, name, placeholder) =>
  h('textarea', { id, name, rows: 2, spellcheck: 'false', 'data-kind': 'lines', placeholder });
/** A choice whose first option is the API's default (left out of the request). @param {string} id @param {string} name @param {string[][]} options */
export const choice = (id, name, options) =>
  h(
    'select',
    { id, name, 'data-kind': 'choice', 'data-default': options[0]?.[0] ?? '' },
    options.map(([value, label]) => h('option', { value }, label ?? value)),
  );

/**
 * A section of the form: an open fieldset, or (rarely used settings) a closed <details> that opens itself when a
 * field inside has an error.
 * @param {string} key @param {string} title @param {boolean} open @param {...Child} children
 */
export function group(key, title, open, ...children) {
  if (open) return h('fieldset', { class: 'group', id: `group-${key}` }, h('legend', {}, title), ...children);
  return h(
    'details',
    { class: 'group', id: `group-${key}` },
    h('summary', {}, title),
    h('fieldset', {}, h('legend', { class: 'visually-hidden' }, title), ...children),
  );
}

/**
 * A control's value for the request, or undefined when it is left to the API's default.
 * @param {HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement} el
 * @returns {unknown}
 */
function requestValue(el) {
  const v = el.value.trim();
  switch (el.dataset.kind) {
    case 'words':
      return v.split(/\s+/).filter(Boolean);
    case 'lines': {
      const list = v.split('\n').map((s) => s.trim());
      return v === '' ? undefined : list.filter(Boolean);
    }
    case 'int':
      return v === '' ? undefined : Number(v);
    case 'int-or-text':
      return v === '' ? undefined : /^\d+$/.test(v) ? Number(v) : v;
    case 'choice':
      return v === el.dataset.default ? undefined : v;
    case 'flag':
      return el instanceof HTMLInputElement && el.checked ? true : undefined;
    case 'off':
      // A setting on by default: only a cleared box says something (false).
      return el instanceof HTMLInputElement && !el.checked ? false : undefined;
    case 'set':
      return el instanceof HTMLInputElement && el.checked ? [v] : undefined;
    case 'headers':
      return v === '' ? undefined : headerLines(v);
    case 'cookies':
      return v === '' ? undefined : cookieList(v);
    default:
      return v === '' ? undefined : v;
  }
}

/**
 * Request headers, one `Name: value` a line, as an object (a line without a colon is a name with no value: the API
 * says what is wrong with it).
 * @param {string} v
 */
function headerLines(v) {
  /** @type {Record<string, string>} */
  const headers = {};
  for (const line of v
    .split('\n')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const colon = line.indexOf(':');
    headers[colon < 0 ? line : line.slice(0, colon).trim()] = colon < 0 ? '' : line.slice(colon + 1).trim();
  }
  return headers;
}

/** Cookies as a Cookie header writes them (`a=1; b=2`), as the API's list. @param {string} v */
const cookieList = (v) =>
  v
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((pair) => {
      const eq = pair.indexOf('=');
      return eq < 0 ? { name: pair, value: '' } : { name: pair.slice(0, eq).trim(), value: pair.slice(eq + 1).trim() };
    });

/**
 * The crawl request of the form: each control with a data-kind sets its `name` (a dotted path) when it has a
 * value; the extraction spec is JSON, read by `readSpec`.
 * @param {HTMLFormElement} form @param {(text: string) => unknown} readSpec
 */
export function readCrawl(form, readSpec) {
  /** @type {Record<string, unknown>} */
  const request = {};
  for (const el of form.querySelectorAll('[data-kind]')) {
    if (!(el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement))
      continue;
    const value = el.dataset.kind === 'json' ? readSpec(el.value) : requestValue(el);
    if (value !== undefined) setPath(request, el.name.split('.'), value);
  }
  return request;
}

/** Sets `path` in `target`; arrays at the same path are joined (a set of checkboxes). */
function setPath(
  /** @type {Record<string, unknown>} */ target,
  /** @type {string[]} */ path,
  /** @type {unknown} */ value,
) {
  const [head, ...rest] = path;
  if (head === undefined) return;
  if (rest.length > 0) {
    const inner = target[head];
    const next = inner && typeof inner === 'object' ? /** @type {Record<string, unknown>} */ (inner) : {};
    target[head] = next;
    return setPath(next, rest, value);
  }
  const old = target[head];
  target[head] = Array.isArray(old) && Array.isArray(value) ? [...old, ...value] : value;
}

/**
 * Shows issues next to their fields (the longest registered prefix of each path; the rest of the path starts its
 * message), opens the closed groups they are in, and returns what belongs to no field.
 * @param {Registry} reg @param {{ path: (string | number)[], message: string }[]} issues
 */
export function showIssues(reg, issues) {
  for (const { control, error } of reg.values()) {
    error.textContent = '';
    control.removeAttribute('aria-invalid');
  }
  /** @type {{ label: string, message: string, entry: FieldEntry | null }[]} */
  const shown = [];
  for (const issue of issues) {
    const keys = issue.path.map(String);
    let n = keys.length;
    while (n > 0 && !reg.has(keys.slice(0, n).join('.'))) n--;
    const entry = n > 0 ? (reg.get(keys.slice(0, n).join('.')) ?? null) : null;
    const rest = keys.slice(n).join('.');
    const message = rest ? `${rest}: ${issue.message}` : issue.message;
    if (entry) {
      entry.error.textContent = entry.error.textContent ? `${entry.error.textContent} ${message}` : message;
      entry.control.setAttribute('aria-invalid', 'true');
      const details = entry.control.closest('details');
      if (details) details.open = true;
    }
    shown.push({ label: entry?.label ?? 'Request', message, entry });
  }
  return shown;
}
