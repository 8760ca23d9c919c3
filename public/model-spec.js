// @ts-check
// The extraction group's language-model part (formats "json" and "summary", docs/models.md): a JSON Schema and a
// prompt for the JSON, learned selectors, the summary's prompt. Like the format boxes they edit the spec editor's
// JSON (the one source of truth), and follow it as it is typed.

import { check, field, int } from './crawl-fields.js';
import { h } from './dom.js';

/** The API's formats when a spec names none. */
const DEFAULT_FORMATS = ['markdown', 'metadata'];

/** @typedef {(text: string) => { spec: unknown, error?: undefined } | { error: string, spec?: undefined }} Parse */
/** @typedef {import('./crawl-fields.js').Registry} Registry */

/** @param {unknown} v @returns {v is Record<string, unknown>} */
const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * `spec` with `format` in its formats (the API's default formats first when it names none), or out of them.
 * @param {Record<string, unknown>} spec @param {string} format @param {boolean} wanted
 */
function setFormat(spec, format, wanted) {
  const formats = Array.isArray(spec.formats) ? spec.formats : DEFAULT_FORMATS;
  const has = formats.includes(format);
  if (wanted && !has) spec.formats = [...formats, format];
  if (!wanted && has && Array.isArray(spec.formats)) spec.formats = formats.filter((f) => f !== format);
}

/**
 * Sets `key` of the spec's part `part` ("json" or "summary"); undefined deletes it. A json part left empty is removed
 * with its format; a summary prompt typed adds the summary format.
 * @param {Record<string, unknown>} spec @param {'json' | 'summary'} part @param {string} key @param {unknown} value
 */
function setPart(spec, part, key, value) {
  const inner = isObject(spec[part]) ? { ...spec[part] } : {};
  if (value === undefined) delete inner[key];
  else inner[key] = value;
  const empty = Object.keys(inner).length === 0;
  if (part === 'json') {
    if (empty) delete spec.json;
    else spec.json = inner;
    setFormat(spec, 'json', !empty);
  } else if (empty) delete spec.summary;
  else {
    spec.summary = inner;
    setFormat(spec, 'summary', true);
  }
}

/**
 * A JSON Schema typed in the textarea: undefined when empty, the object, or why it is not one (line and column of
 * a syntax error).
 * @param {string} text @param {Parse} parse
 * @returns {{ schema: Record<string, unknown> | undefined, error?: undefined } | { error: string, schema?: undefined }}
 */
function parseSchema(text, parse) {
  if (text.trim() === '') return { schema: undefined };
  const parsed = parse(text);
  if (parsed.error !== undefined) return { error: `The JSON Schema is not valid JSON: ${parsed.error}` };
  if (!isObject(parsed.spec)) return { error: 'A JSON Schema is a JSON object: {"type": "object", "properties": {…}}' };
  return { schema: parsed.spec };
}

/** The controls, each labelled; the schema's own syntax error line. */
function modelControls() {
  const schema = /** @type {HTMLTextAreaElement} */ (
    h('textarea', {
      id: 'model-schema',
      rows: 6,
      spellcheck: 'false',
      placeholder: '{"type": "object", "properties": {"price": {"type": "number"}}, "required": ["price"]}',
    })
  );
  const prompt = /** @type {HTMLTextAreaElement} */ (
    h('textarea', { id: 'model-prompt', rows: 2, placeholder: 'The price in euros and whether it is in stock' })
  );
  const learn = /** @type {HTMLInputElement} */ (h('input', { type: 'checkbox', id: 'model-learn' }));
  const summary = /** @type {HTMLTextAreaElement} */ (
    h('textarea', { id: 'summary-prompt', rows: 2, placeholder: 'Two sentences for a product list' })
  );
  const syntax = h('p', { id: 'model-schema-syntax', class: 'error', role: 'alert' });
  return { schema, prompt, learn, summary, syntax };
}

/**
 * The language model's fields, editing the spec in `area` (read with `parse`), registered in `reg` under the paths
 * the API reports issues on (extract.json.schema, extract.json.prompt, extract.summary.prompt, maxModelPages).
 * @param {Registry} reg @param {HTMLTextAreaElement} area @param {Parse} parse
 */
export function modelFields(reg, area, parse) {
  const c = modelControls();
  const write = (/** @type {(spec: Record<string, unknown>) => void} */ edit) => {
    const parsed = parse(area.value);
    if (parsed.error !== undefined) return;
    const spec = isObject(parsed.spec) ? parsed.spec : {};
    edit(spec);
    area.value = Object.keys(spec).length === 0 ? '' : JSON.stringify(spec, null, 2);
    // The format boxes and the form's check follow the spec as if it had been typed.
    area.dispatchEvent(new Event('input', { bubbles: true }));
  };
  c.schema.addEventListener('input', () => {
    const read = parseSchema(c.schema.value, parse);
    c.syntax.textContent = read.error ?? '';
    if (read.error === undefined) write((spec) => setPart(spec, 'json', 'schema', read.schema));
  });
  const text = (/** @type {HTMLTextAreaElement} */ el) => el.value.trim() || undefined;
  c.prompt.addEventListener('input', () => write((spec) => setPart(spec, 'json', 'prompt', text(c.prompt))));
  c.learn.addEventListener('change', () =>
    write((spec) => setPart(spec, 'json', 'learnSelectors', c.learn.checked || undefined)),
  );
  c.summary.addEventListener('input', () => write((spec) => setPart(spec, 'summary', 'prompt', text(c.summary))));
  area.addEventListener('input', () => follow(c, area.value, parse));
  follow(c, area.value, parse);
  return modelLayout(reg, c);
}

/**
 * The fields show the spec's json and summary parts (all but the one being typed in), and are disabled while the
 * spec is not valid JSON.
 * @param {ReturnType<typeof modelControls>} c @param {string} text @param {Parse} parse
 */
function follow(c, text, parse) {
  const { spec, error } = parse(text);
  for (const el of [c.schema, c.prompt, c.learn, c.summary]) el.disabled = error !== undefined;
  if (error !== undefined) return;
  const json = isObject(spec) && isObject(spec.json) ? spec.json : {};
  const summary = isObject(spec) && isObject(spec.summary) ? spec.summary : {};
  const typing = document.activeElement;
  if (c.schema !== typing) {
    c.schema.value = isObject(json.schema) ? JSON.stringify(json.schema, null, 2) : '';
    c.syntax.textContent = '';
  }
  if (c.prompt !== typing) c.prompt.value = typeof json.prompt === 'string' ? json.prompt : '';
  c.learn.checked = json.learnSelectors === true;
  if (c.summary !== typing) c.summary.value = typeof summary.prompt === 'string' ? summary.prompt : '';
}

/** @param {Registry} reg @param {ReturnType<typeof modelControls>} c */
function modelLayout(reg, c) {
  const schemaField = field(
    reg,
    'extract.json.schema',
    'JSON Schema of the JSON wanted',
    c.schema,
    'Adds the "json" format: a language model reads each page and answers JSON valid against this schema. Empty, with a prompt: any JSON object the model sees fit.',
  );
  c.schema.setAttribute('aria-describedby', `${c.schema.getAttribute('aria-describedby')} model-schema-syntax`);
  schemaField.append(c.syntax);
  return h(
    'fieldset',
    { class: 'choices', id: 'model-fields' },
    h('legend', {}, 'Language model: JSON and summary'),
    schemaField,
    field(reg, 'extract.json.prompt', 'Prompt for the JSON', c.prompt, 'What to extract, in words.'),
    check(c.learn, 'Learn selectors: the model writes CSS selectors per page template (needs a schema)'),
    field(
      reg,
      'extract.summary.prompt',
      'Summary prompt',
      c.summary,
      'A summary of each page: check "summary" in the formats, or type how to summarize here (by default 2-3 sentences).',
    ),
    field(
      reg,
      'maxModelPages',
      'Model page budget',
      int('max-model-pages', 'maxModelPages', 0, 100_000_000),
      'Empty: no cap. Cached answers and pages read by learned selectors do not count.',
    ),
  );
}
