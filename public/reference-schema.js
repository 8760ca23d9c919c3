// @ts-check
// JSON Schema (2020-12, as in OpenAPI 3.1) for the API reference page: `$ref`s followed inside the document, nullable
// unions folded, schemas shown as nested field lists, and example values made from them. Text of the document is
// only ever set as text.

import { h } from './dom.js';

/** @typedef {import('./dom.js').Child} Child */

/**
 * @typedef {{ type?: string | string[], $ref?: string, anyOf?: SchemaLike[], oneOf?: SchemaLike[], allOf?: SchemaLike[],
 *   enum?: unknown[], const?: unknown, items?: SchemaLike, properties?: Record<string, SchemaLike>, required?: string[],
 *   additionalProperties?: SchemaLike, propertyNames?: SchemaLike, default?: unknown, examples?: unknown[], example?: unknown,
 *   minimum?: number, maximum?: number, exclusiveMinimum?: number | boolean, exclusiveMaximum?: number | boolean,
 *   multipleOf?: number, minLength?: number, maxLength?: number, minItems?: number, maxItems?: number, uniqueItems?: boolean,
 *   minProperties?: number, maxProperties?: number, format?: string, pattern?: string, description?: string, title?: string,
 *   nullable?: boolean, deprecated?: boolean, readOnly?: boolean, writeOnly?: boolean, not?: SchemaLike,
 *   $defs?: Record<string, SchemaLike>, definitions?: Record<string, SchemaLike> }} Schema
 * @typedef {Schema | boolean} SchemaLike
 * @typedef {{ schema: Schema, nullable: boolean, name?: string, refs: string[], recursive: boolean, missing?: string }} Flat
 *   a schema with its `$ref`s followed (`refs`: those on the way here, for recursion), `allOf` merged and a
 *   `null` alternative taken out into `nullable`; `name` is the component it came from.
 * @typedef {{ depth: number, refs: string[] }} Ctx
 */

/** Deeper than this, a schema is not expanded any further. */
const MAX_DEPTH = 10;

/** @type {Record<string, unknown>} */
let root = {};
/** `$defs` (and `definitions`) found anywhere in the document, by name: zod puts them inside the schema using them. */
const defs = new Map();

/** @param {unknown} value @returns {value is Record<string, any>} */
export const isObj = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The document whose `$ref`s are followed. */
export function useDocument(/** @type {Record<string, unknown>} */ doc) {
  root = doc;
  defs.clear();
  /** @type {unknown[]} */
  const stack = [doc];
  for (let seen = 0; stack.length > 0 && seen < 100_000; seen++) {
    const node = stack.pop();
    if (Array.isArray(node)) stack.push(...node);
    else if (isObj(node))
      for (const [key, value] of Object.entries(node)) {
        if ((key === '$defs' || key === 'definitions') && isObj(value))
          for (const [name, schema] of Object.entries(value)) if (!defs.has(name)) defs.set(name, schema);
        stack.push(value);
      }
  }
}

/** What a local `$ref` (`#/components/schemas/X`, `#/$defs/X`) points at, or undefined. */
function lookup(/** @type {string} */ ref) {
  if (!ref.startsWith('#')) return undefined;
  /** @type {unknown} */
  let node = root;
  for (const raw of ref.slice(1).split('/').slice(1)) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    node = isObj(node) || Array.isArray(node) ? /** @type {Record<string, unknown>} */ (node)[key] : undefined;
  }
  if (node !== undefined) return node;
  const local = /^#\/(?:\$defs|definitions)\/([^/]+)$/.exec(ref);
  return local ? defs.get(decodeURIComponent(local[1] ?? '')) : undefined;
}

/** An object (a parameter, a response, a request body) with its `$ref` followed. */
export function deref(/** @type {unknown} */ value) {
  let node = value;
  for (let hops = 0; hops < 16 && isObj(node) && typeof node.$ref === 'string'; hops++) node = lookup(node.$ref);
  return isObj(node) ? node : {};
}

/** The name a `$ref` gives its schema: a component's, or a `$defs` entry's (not zod's made-up `__schema0`). */
function refName(/** @type {string} */ ref) {
  const name = /^#\/(?:components\/schemas|\$defs|definitions)\/([^/]+)$/.exec(ref)?.[1];
  if (name === undefined || /^__schema\d+$/.test(name)) return undefined;
  return decodeURIComponent(name).replace(/~1/g, '/').replace(/~0/g, '~');
}

/** Whether a name is a component schema's (those have a section of their own on the page). */
const isComponent = (/** @type {string | undefined} */ name) =>
  name !== undefined && isObj(lookup(`#/components/schemas/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`));

const isNull = (/** @type {SchemaLike} */ s) =>
  isObj(s) && (s.type === 'null' || (Array.isArray(s.type) && s.type.length === 1 && s.type[0] === 'null'));

/** Keys of `over` that are set, laid over `base`. */
function overlay(/** @type {Schema} */ base, /** @type {Schema} */ over) {
  /** @type {Record<string, unknown>} */
  const out = { ...base };
  for (const [key, value] of Object.entries(over)) if (value !== undefined) out[key] = value;
  return /** @type {Schema} */ (out);
}

/** @param {SchemaLike | undefined} input @param {string[]} refs @returns {Flat} */
export function flatten(input, refs) {
  /** @type {Flat} */
  const flat = { schema: {}, nullable: false, refs: [...refs], recursive: false };
  /** @type {unknown} */
  let s = input;
  for (let hops = 0; isObj(s) && typeof s.$ref === 'string' && hops < 16; hops++) {
    const { $ref: ref, ...siblings } = s;
    if (flat.refs.includes(ref)) {
      const target = lookup(ref);
      return { ...flat, schema: isObj(target) ? target : {}, name: refName(ref) ?? flat.name, recursive: true };
    }
    flat.refs.push(ref);
    flat.name = refName(ref) ?? flat.name;
    const target = lookup(ref);
    if (!isObj(target) && target !== true) flat.missing = ref;
    s = overlay(isObj(target) ? target : {}, siblings);
  }
  if (s === false) s = { not: {} };
  flat.schema = isObj(s) ? /** @type {Schema} */ (s) : {};
  return foldAllOf(foldNullable(flat));
}

/** `type: [X, "null"]`, `nullable: true` and `anyOf`/`oneOf` with a `{type: "null"}` alternative: nullable. */
function foldNullable(/** @type {Flat} */ flat) {
  let s = flat.schema;
  if (Array.isArray(s.type) && s.type.includes('null') && s.type.length > 1) {
    const rest = s.type.filter((t) => t !== 'null');
    s = { ...s, type: rest.length === 1 ? rest[0] : rest };
    flat.nullable = true;
  }
  if (s.nullable === true) flat.nullable = true;
  for (const key of /** @type {const} */ (['anyOf', 'oneOf'])) {
    const variants = s[key];
    if (!Array.isArray(variants) || !variants.some(isNull)) continue;
    flat.nullable = true;
    const rest = variants.filter((v) => !isNull(v));
    if (rest.length !== 1) {
      s = { ...s, [key]: rest };
      continue;
    }
    const inner = flatten(rest[0], flat.refs);
    const { [key]: _, ...outer } = s;
    return { ...inner, schema: overlay(inner.schema, outer), nullable: true, name: inner.name ?? flat.name };
  }
  return { ...flat, schema: s };
}

/** `allOf`: the members' properties and required lists merged (the usual use: an object extending another). */
function foldAllOf(/** @type {Flat} */ flat) {
  const { allOf, ...rest } = flat.schema;
  if (!Array.isArray(allOf) || flat.recursive) return flat;
  /** @type {Schema} */
  let merged = {};
  for (const member of allOf) {
    const part = flatten(member, flat.refs).schema;
    merged = overlay(merged, {
      ...part,
      properties: { ...merged.properties, ...part.properties },
      required: [...(merged.required ?? []), ...(part.required ?? [])],
    });
  }
  return { ...flat, schema: overlay(merged, rest) };
}

const json = (/** @type {unknown} */ value) => JSON.stringify(value) ?? String(value);

/** The alternatives of an `anyOf`/`oneOf`, or undefined. */
const variantsOf = (/** @type {Schema} */ s) =>
  Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : undefined;

/**
 * A schema's type in words: "string", "integer or null", "array of CrawlRequest", "\"running\"".
 * @param {Flat} f
 * @returns {string}
 */
function typeText(f) {
  const named = f.name && !f.missing ? ` (${f.name})` : '';
  const base = f.name !== undefined && isComponent(f.name) ? f.name : `${baseType(f)}${named}`;
  return f.nullable && base !== 'null' ? `${base} or null` : base;
}

/** @param {Flat} f @returns {string} */
function baseType(f) {
  const s = f.schema;
  if (f.missing) return `${f.missing} (not in the document)`;
  if ('const' in s) return json(s.const);
  const variants = variantsOf(s);
  if (variants && f.recursive) return 'one of several types';
  if (variants) return [...new Set(variants.map((v) => typeText(flatten(v, f.refs))))].join(' or ');
  const types = Array.isArray(s.type) ? s.type : typeof s.type === 'string' ? [s.type] : [];
  if (types.length === 0 && Array.isArray(s.enum))
    types.push(...new Set(s.enum.map((v) => (v === null ? 'null' : typeof v))));
  if (types.length === 0 && (s.properties || s.additionalProperties)) types.push('object');
  if (types.length === 0 && s.items) types.push('array');
  if (s.not && Object.keys(s.not).length === 0) return 'nothing';
  return (
    types
      .map((t) => {
        if (t !== 'array') return t;
        if (!s.items || f.recursive) return 'array';
        const item = /** @type {string} */ (typeText(flatten(s.items, f.refs)));
        return `array of ${item.includes(' or ') ? `(${item})` : item}`;
      })
      .join(' or ') || 'any'
  );
}

/** The type as shown: component names link to their section. */
export function typeLabel(/** @type {Flat} */ f) {
  const linked = isComponent(f.name) && !f.missing;
  return h(
    'span',
    { class: 'type' },
    linked ? h('a', { href: `#schema-${f.name}` }, f.name ?? '') : typeText(f),
    linked && f.nullable && !f.recursive ? ' or null' : '',
    f.recursive ? ' (recursive: the same as above)' : '',
  );
}

/** Bounds as words: "1–1000", "≥ 1", "≤ 8192". */
function range(/** @type {number | undefined} */ min, /** @type {number | undefined} */ max, unit = '') {
  if (min !== undefined && max !== undefined) return min === max ? `exactly ${min}${unit}` : `${min}–${max}${unit}`;
  if (min !== undefined) return `≥ ${min}${unit}`;
  return max !== undefined ? `≤ ${max}${unit}` : undefined;
}

/** A schema's constraints, as short phrases. */
export function constraints(/** @type {Schema} */ s, withDefault = true) {
  const num = (/** @type {unknown} */ v) => (typeof v === 'number' ? v : undefined);
  /** @type {(string | undefined | false)[]} */
  const out = [
    withDefault && s.default !== undefined && `default ${json(s.default)}`,
    Array.isArray(s.enum) && `one of ${s.enum.map(json).join(', ')}`,
    range(num(s.minimum), num(s.maximum)),
    typeof s.exclusiveMinimum === 'number' && `> ${s.exclusiveMinimum}`,
    typeof s.exclusiveMaximum === 'number' && `< ${s.exclusiveMaximum}`,
    typeof s.multipleOf === 'number' && `multiple of ${s.multipleOf}`,
    (() => {
      const r = range(num(s.minLength), num(s.maxLength), ' characters');
      return r && `length ${r}`;
    })(),
    (() => {
      const r = range(num(s.minItems), num(s.maxItems), ' items');
      return r && (r.startsWith('exactly') ? r : `${r.replace(/ items$/, '')} items`);
    })(),
    s.uniqueItems === true && 'unique items',
    range(num(s.minProperties), num(s.maxProperties), ' keys'),
    typeof s.format === 'string' && `format ${s.format}`,
    typeof s.pattern === 'string' && `pattern ${s.pattern}`,
    s.additionalProperties === false && 'no other fields',
    s.readOnly === true && 'read-only',
    s.writeOnly === true && 'write-only',
    s.deprecated === true && 'deprecated',
  ];
  return /** @type {string[]} */ (out.filter((c) => typeof c === 'string' && c !== ''));
}

/** Constraints of an array's items, when those are simple values (strings of a bounded length, an enum...). */
function itemConstraints(/** @type {Flat} */ f) {
  if (!f.schema.items) return [];
  const item = flatten(f.schema.items, f.refs);
  if (hasStructure(item)) return [];
  return constraints(item.schema).map((c) => `each: ${c}`);
}

/** Chips of constraints; null when there are none. */
export function chips(/** @type {string[]} */ list) {
  return list.length === 0
    ? null
    : h(
        'ul',
        { class: 'chips' },
        list.map((c) => h('li', {}, c)),
      );
}

/** Whether a schema has more to show than its type line: fields, alternatives, items or values with fields. */
/** @param {Flat} f @returns {boolean} */
function hasStructure(f) {
  const s = f.schema;
  if (f.recursive) return false;
  if (isObj(s.properties) && Object.keys(s.properties).length > 0) return true;
  if ((variantsOf(s)?.length ?? 0) > 1) return true;
  if (isObj(s.additionalProperties)) return true;
  return s.items !== undefined && hasStructure(flatten(s.items, f.refs));
}

/** Text in paragraphs (blank lines between them), `code` spans as code; never markup. */
export function prose(/** @type {unknown} */ text, cls = '') {
  if (typeof text !== 'string' || text.trim() === '') return [];
  return text
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) =>
      h(
        'p',
        { class: cls || undefined },
        p.split(/`([^`]+)`/).map((part, i) => (i % 2 === 1 ? h('code', {}, part) : part)),
      ),
    );
}

/**
 * A schema shown whole: its type, constraints and description, then its fields or alternatives (those of a named
 * component in a closed disclosure when `collapseNamed`: it is shown whole under Schemas).
 * @param {SchemaLike | undefined} schema
 */
export function schemaView(schema, ctx = { depth: 0, refs: /** @type {string[]} */ ([]) }, collapseNamed = false) {
  const f = flatten(schema, ctx.refs);
  const inside = structure(f, { depth: ctx.depth, refs: f.refs });
  return h(
    'div',
    { class: 'schema' },
    h('p', { class: 'schema-head' }, typeLabel(f)),
    chips([...constraints(f.schema), ...itemConstraints(f)]),
    prose(f.schema.description, 'desc'),
    collapseNamed && f.name && inside.length > 0
      ? h('details', {}, h('summary', {}, `Fields of ${f.name}`), inside)
      : inside,
  );
}

/** The inside of a schema: its fields, the values of a map, each item of an array, the alternatives. */
function structure(/** @type {Flat} */ f, /** @type {Ctx} */ ctx) {
  const s = f.schema;
  if (f.recursive || !hasStructure(f)) return [];
  if (ctx.depth >= MAX_DEPTH) return [h('p', { class: 'muted' }, '… (nested deeper than shown here)')];
  const inner = { depth: ctx.depth + 1, refs: f.refs };
  /** @type {Child[]} */
  const out = [];
  if (isObj(s.properties) && Object.keys(s.properties).length > 0) out.push(fieldList(s, inner));
  if (isObj(s.additionalProperties)) {
    const value = flatten(s.additionalProperties, f.refs);
    out.push(
      h(
        'div',
        { class: 'nested' },
        h('p', { class: 'nested-title' }, 'Any key, each value: ', typeLabel(value)),
        chips(constraints(value.schema)),
        structure(value, inner),
      ),
    );
  }
  if (s.items !== undefined) {
    const item = flatten(s.items, f.refs);
    if (hasStructure(item))
      out.push(
        h(
          'div',
          { class: 'nested' },
          h('p', { class: 'nested-title' }, 'Each item: ', typeLabel(item)),
          structure(item, inner),
        ),
      );
  }
  const variants = variantsOf(s);
  if (variants && variants.length > 1) out.push(variantList(variants, inner));
  return out;
}

/** `anyOf`/`oneOf` alternatives, each with its type, constraints and fields. */
function variantList(/** @type {SchemaLike[]} */ variants, /** @type {Ctx} */ ctx) {
  return h(
    'div',
    { class: 'nested' },
    h('p', { class: 'nested-title' }, 'One of:'),
    h(
      'ol',
      { class: 'variants' },
      variants.map((v) => {
        const f = flatten(v, ctx.refs);
        return h(
          'li',
          {},
          typeLabel(f),
          chips([...constraints(f.schema), ...itemConstraints(f)]),
          prose(f.schema.description, 'desc'),
          structure(f, ctx),
        );
      }),
    ),
  );
}

/** An object's fields: name, type, required or not, constraints, description, and what is inside. */
function fieldList(/** @type {Schema} */ s, /** @type {Ctx} */ ctx) {
  const required = new Set(Array.isArray(s.required) ? s.required : []);
  return h(
    'ul',
    { class: 'fields' },
    Object.entries(s.properties ?? {}).map(([name, schema]) => field(name, schema, required.has(name), ctx)),
  );
}

function field(
  /** @type {string} */ name,
  /** @type {SchemaLike} */ schema,
  /** @type {boolean} */ required,
  /** @type {Ctx} */ ctx,
) {
  const f = flatten(schema, ctx.refs);
  const inside = structure(f, ctx);
  // Shallow fields open; a named component (shown in Schemas too) or a deep one closed.
  const open = ctx.depth < 3 && !(f.name && f.refs.length > ctx.refs.length);
  return h(
    'li',
    { class: 'field', 'data-field': name },
    h(
      'div',
      { class: 'field-head' },
      h('code', { class: 'field-name' }, name),
      ' ',
      typeLabel(f),
      ' ',
      required ? h('span', { class: 'req' }, 'required') : h('span', { class: 'muted opt' }, 'optional'),
    ),
    chips([...constraints(f.schema), ...itemConstraints(f)]),
    prose(f.schema.description, 'desc'),
    inside.length > 0 && h('details', { open }, h('summary', {}, `Inside ${name}`), inside),
  );
}

// ---- examples ----

const FORMAT_EXAMPLES = /** @type {Record<string, string>} */ ({
  uri: 'https://example.com/',
  url: 'https://example.com/',
  'uri-reference': '/path',
  uuid: '3f2b8c1e-5d4a-4c6b-9e7f-0a1b2c3d4e5f',
  'date-time': '2026-01-01T00:00:00Z',
  date: '2026-01-01',
  time: '00:00:00Z',
  email: 'user@example.com',
  hostname: 'example.com',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
  duration: 'PT1M',
});

function stringExample(/** @type {Schema} */ s, /** @type {string} */ name) {
  let value = (typeof s.format === 'string' && FORMAT_EXAMPLES[s.format]) || '';
  if (!value) value = /url|uri|seed|href|link/i.test(name) ? 'https://example.com/' : 'string';
  if (typeof s.minLength === 'number' && value.length < s.minLength) value = value.padEnd(s.minLength, 'x');
  if (typeof s.maxLength === 'number' && value.length > s.maxLength) value = value.slice(0, s.maxLength);
  return value;
}

function numberExample(/** @type {Schema} */ s) {
  if (typeof s.minimum === 'number') return s.minimum;
  if (typeof s.exclusiveMinimum === 'number') return s.exclusiveMinimum + (s.type === 'integer' ? 1 : 0.5);
  if (typeof s.maximum === 'number' && s.maximum < 0) return s.maximum;
  return 0;
}

/**
 * An example value: the schema's example, default, const or first enum value, else the smallest valid value of
 * its type (an object has its required fields, and those with an example).
 * @param {SchemaLike | undefined} schema
 * @returns {unknown}
 */
export function exampleOf(schema, refs = /** @type {string[]} */ ([]), name = '', depth = 0) {
  const f = flatten(schema, refs);
  const s = f.schema;
  if (f.recursive || depth > MAX_DEPTH) return undefined;
  if (s.example !== undefined) return s.example;
  if (Array.isArray(s.examples) && s.examples.length > 0) return s.examples[0];
  if ('const' in s) return s.const;
  if (s.default !== undefined && s.default !== null) return s.default;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  const variants = variantsOf(s);
  if (variants && variants.length > 0) return exampleOf(variants[0], f.refs, name, depth + 1);
  const type = Array.isArray(s.type) ? s.type[0] : (s.type ?? (s.properties ? 'object' : undefined));
  if (type === 'string') return stringExample(s, name);
  if (type === 'integer' || type === 'number') return numberExample(s);
  if (type === 'boolean') return false;
  if (type === 'array') {
    const count = Math.min(typeof s.minItems === 'number' ? s.minItems : 0, 3);
    const item = count > 0 ? exampleOf(s.items, f.refs, name, depth + 1) : undefined;
    return item === undefined ? [] : Array.from({ length: count }, () => item);
  }
  if (type === 'object') return objectExample(s, f.refs, depth);
  return type === 'null' || f.nullable || s.default === null ? null : undefined;
}

function objectExample(/** @type {Schema} */ s, /** @type {string[]} */ refs, /** @type {number} */ depth) {
  const required = new Set(Array.isArray(s.required) ? s.required : []);
  /** @type {Record<string, unknown>} */
  const out = {};
  for (const [key, prop] of Object.entries(s.properties ?? {})) {
    const shown = required.has(key) || (isObj(prop) && (prop.example !== undefined || Array.isArray(prop.examples)));
    if (!shown) continue;
    const value = exampleOf(prop, refs, key, depth + 1);
    if (value !== undefined) out[key] = value;
  }
  return out;
}
