// @ts-check
// The API reference page (/reference): reads the API's OpenAPI document (/v1/openapi.json, public) and shows its
// operations by tag, with their parameters, bodies, responses and a curl example each. Plain DOM built from text:
// nothing of the document is ever set as markup.

import { h } from './dom.js';
import {
  chips,
  constraints,
  deref,
  exampleOf,
  flatten,
  isObj,
  prose,
  schemaView,
  typeLabel,
  useDocument,
} from './reference-schema.js';

/** @typedef {import('./dom.js').Child} Child */
/** @typedef {import('./reference-schema.js').SchemaLike} SchemaLike */
/**
 * @typedef {{ name: string, in: string, required?: boolean, description?: string, schema?: SchemaLike, deprecated?: boolean,
 *   example?: unknown, content?: Record<string, { schema?: SchemaLike }> }} Param
 * @typedef {{ schema?: SchemaLike, example?: unknown, examples?: Record<string, { value?: unknown }> }} Media
 * @typedef {{ operationId?: string, tags?: string[], summary?: string, description?: string, parameters?: unknown[],
 *   requestBody?: unknown, responses?: Record<string, unknown>, security?: Record<string, string[]>[],
 *   deprecated?: boolean }} Operation
 * @typedef {{ id: string, method: string, path: string, op: Operation, params: Param[], text: string }} Op
 * @typedef {{ name: string, description?: string, ops: Op[] }} Group
 * @typedef {{ type?: string, scheme?: string, bearerFormat?: string, name?: string, in?: string, description?: string }} Scheme
 * @typedef {{ openapi: string, info?: { title?: string, version?: string, description?: string },
 *   servers?: { url?: string, description?: string }[], tags?: { name?: string, description?: string }[],
 *   paths: Record<string, Record<string, unknown>>, security?: Record<string, string[]>[],
 *   components?: { schemas?: Record<string, SchemaLike>, securitySchemes?: Record<string, unknown> } }} Doc
 */

const DOCUMENT = '/v1/openapi.json';
const METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options', 'trace'];
const STATUS_TEXT = /** @type {Record<string, string>} */ ({
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No Content',
  301: 'Moved Permanently',
  302: 'Found',
  304: 'Not Modified',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  default: 'Any other status',
});

/** @param {string} id @returns {HTMLElement} */
function byId(id) {
  const el = document.getElementById(id);
  if (!el) throw new Error(`#${id} missing`);
  return el;
}

const str = (/** @type {unknown} */ v) => (typeof v === 'string' ? v : '');

/** @param {string} message */
function announce(message) {
  byId('announce').textContent = message;
}

// ---- the document's operations ----

/** Ids the page itself uses: an operation is not given one of them. */
const RESERVED = new Set([
  'main',
  'toc',
  'filter',
  'filter-count',
  'toc-list',
  'toc-details',
  'doc',
  'loading',
  'announce',
]);

/** A unique element id for an operation: its operationId when it has one. */
function idFor(/** @type {string} */ wanted, /** @type {Set<string>} */ used) {
  const base = wanted.replace(/\s+/g, '-') || 'operation';
  let id = RESERVED.has(base) || base.startsWith('schema-') ? `op-${base}` : base;
  for (let n = 2; used.has(id); n++) id = `${base}-${n}`;
  used.add(id);
  return id;
}

/** Path-level and operation-level parameters (the operation's win), with `$ref`s followed. */
function paramsOf(/** @type {Record<string, unknown>} */ item, /** @type {Operation} */ op) {
  /** @type {Map<string, Param>} */
  const byKey = new Map();
  for (const list of [item.parameters, op.parameters])
    for (const raw of Array.isArray(list) ? list : []) {
      const p = /** @type {Param} */ (deref(raw));
      if (typeof p.name === 'string') byKey.set(`${p.in}:${p.name}`, p);
    }
  return [...byKey.values()];
}

/** The operations, grouped by tag: the document's tags in their order, then tags only operations name, then "Other". */
function groupsOf(/** @type {Doc} */ doc) {
  /** @type {Map<string, Group>} */
  const groups = new Map();
  for (const tag of Array.isArray(doc.tags) ? doc.tags : [])
    if (isObj(tag) && typeof tag.name === 'string')
      groups.set(tag.name, { name: tag.name, description: tag.description, ops: [] });
  const used = new Set();
  /** @type {Op[]} */
  const untagged = [];
  for (const [path, rawItem] of Object.entries(doc.paths)) {
    const item = deref(rawItem);
    for (const method of METHODS) {
      if (!isObj(item[method])) continue;
      const op = /** @type {Operation} */ (item[method]);
      const tag = Array.isArray(op.tags) && typeof op.tags[0] === 'string' ? op.tags[0] : undefined;
      const id = idFor(str(op.operationId) || `${method}-${path.replace(/[^\w]+/g, '-').replace(/^-|-$/g, '')}`, used);
      const text = [method, path, op.summary, op.operationId, tag].map(str).join(' ').toLowerCase();
      const entry = { id, method, path, op, params: paramsOf(item, op), text };
      if (tag === undefined) untagged.push(entry);
      else {
        if (!groups.has(tag)) groups.set(tag, { name: tag, ops: [] });
        groups.get(tag)?.ops.push(entry);
      }
    }
  }
  if (untagged.length > 0) groups.set('', { name: 'Other', ops: untagged });
  return [...groups.values()].filter((g) => g.ops.length > 0);
}

// ---- auth and servers ----

/** The security requirements of an operation: its own, else the document's. No requirement, or `{}` among them: public. */
function securityOf(/** @type {Doc} */ doc, /** @type {Operation} */ op) {
  const list = Array.isArray(op.security) ? op.security : Array.isArray(doc.security) ? doc.security : [];
  const isPublic = list.length === 0 || list.some((r) => isObj(r) && Object.keys(r).length === 0);
  const first = list.find((r) => isObj(r) && Object.keys(r).length > 0);
  const schemes = Object.keys(first ?? {}).map(
    (name) => /** @type {Scheme} */ (deref(doc.components?.securitySchemes?.[name])),
  );
  return { isPublic, schemes };
}

/** How a scheme is sent, in words. */
function schemeText(/** @type {Scheme} */ s) {
  const scheme = str(s.scheme).toLowerCase();
  if (s.type === 'http' && scheme === 'bearer')
    return ['Send the token as a bearer token: ', h('code', {}, 'Authorization: Bearer <token>')];
  if (s.type === 'http' && scheme === 'basic')
    return ['HTTP Basic authentication: ', h('code', {}, 'Authorization: Basic <base64 user:password>')];
  if (s.type === 'apiKey') return [`Send the key in the ${str(s.in)} `, h('code', {}, str(s.name))];
  return [`${str(s.type)} ${scheme}`.trim()];
}

function authSection(/** @type {Doc} */ doc) {
  const schemes = Object.entries(doc.components?.securitySchemes ?? {});
  if (schemes.length === 0) return null;
  const open = groupsOf(doc)
    .flatMap((g) => g.ops)
    .filter((o) => securityOf(doc, o.op).isPublic);
  return h(
    'section',
    { class: 'card', 'aria-labelledby': 'auth-title' },
    h('h2', { id: 'auth-title' }, 'Authentication'),
    schemes.map(([name, raw]) => {
      const s = /** @type {Scheme} */ (deref(raw));
      return h(
        'div',
        { class: 'scheme' },
        h('p', {}, h('strong', {}, name), ': ', schemeText(s)),
        prose(s.description),
      );
    }),
    open.length > 0 &&
      h(
        'p',
        { class: 'muted' },
        'No token needed for: ',
        open.flatMap((o, i) => [
          i > 0 ? ', ' : '',
          h('a', { href: `#${o.id}` }, `${o.method.toUpperCase()} ${o.path}`),
        ]),
        '.',
      ),
  );
}

/** The base URL requests go to: this page's origin, with the path of a relative first server. */
function baseUrl(/** @type {Doc} */ doc) {
  const server = str(Array.isArray(doc.servers) ? doc.servers[0]?.url : '');
  const path = /^[a-z][a-z0-9+.-]*:/i.test(server) ? '' : server;
  return new URL(path || '/', location.origin).href.replace(/\/$/, '');
}

// ---- an operation ----

const methodBadge = (/** @type {string} */ method) =>
  h('span', { class: `method method-${method}` }, method.toUpperCase());

function paramsTable(/** @type {Op} */ o) {
  const head = ['Name', 'In', 'Type', 'Required', 'Default', 'Constraints', 'Description'];
  const rows = o.params.map((p) => {
    const schema = p.schema ?? Object.values(isObj(p.content) ? p.content : {})[0]?.schema;
    const f = flatten(schema, []);
    const cells = [
      h('code', {}, p.name),
      str(p.in),
      typeLabel(f),
      p.required ? h('span', { class: 'req' }, 'required') : 'no',
      f.schema.default !== undefined ? h('code', {}, JSON.stringify(f.schema.default)) : '',
      chips(constraints(f.schema, false)),
      [...prose(p.description), p.deprecated && h('p', { class: 'warn' }, 'Deprecated.')],
    ];
    return h(
      'tr',
      {},
      cells.map((cell, i) =>
        h(i === 0 ? 'th' : 'td', { scope: i === 0 ? 'row' : undefined, 'data-label': head[i] }, cell),
      ),
    );
  });
  return h(
    'div',
    { class: 'table' },
    h(
      'table',
      { class: 'params' },
      h('caption', { class: 'visually-hidden' }, `Parameters of ${o.method.toUpperCase()} ${o.path}`),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          head.map((c) => h('th', { scope: 'col' }, c)),
        ),
      ),
      h('tbody', {}, rows),
    ),
  );
}

/** Media types and their schemas (a request body's or a response's). */
function contentView(/** @type {unknown} */ content, collapseNamed = false) {
  if (!isObj(content)) return [];
  return Object.entries(content).map(([type, raw]) => {
    const media = /** @type {Media} */ (isObj(raw) ? raw : {});
    return h(
      'div',
      { class: 'media' },
      h('p', { class: 'media-type' }, h('code', {}, type)),
      media.schema !== undefined && schemaView(media.schema, undefined, collapseNamed),
    );
  });
}

function bodyView(/** @type {Op} */ o) {
  if (o.op.requestBody === undefined) return null;
  const body = deref(o.op.requestBody);
  return h(
    'div',
    { class: 'op-part' },
    h(
      'h4',
      {},
      'Request body',
      ' ',
      body.required ? h('span', { class: 'req' }, 'required') : h('span', { class: 'muted opt' }, 'optional'),
    ),
    prose(body.description),
    contentView(body.content),
  );
}

function responsesView(/** @type {Op} */ o) {
  const responses = Object.entries(isObj(o.op.responses) ? o.op.responses : {});
  if (responses.length === 0) return null;
  return h(
    'div',
    { class: 'op-part' },
    h('h4', {}, 'Responses'),
    responses.map(([status, raw]) => {
      const r = deref(raw);
      const kind = /^2/.test(status) ? 'ok' : /^[45]/.test(status) ? 'bad' : 'other';
      return h(
        'div',
        { class: 'response' },
        h('h5', {}, h('span', { class: `status status-${kind}` }, status), ' ', STATUS_TEXT[status] ?? ''),
        prose(r.description),
        contentView(r.content, true),
      );
    }),
  );
}

/** Quoted for a POSIX shell. */
const sh = (/** @type {string} */ s) => `'${s.replace(/'/g, `'\\''`)}'`;

/** The example value of a parameter: its own example, else one made from its schema. */
const paramExample = (/** @type {Param} */ p) =>
  p.example !== undefined ? p.example : exampleOf(p.schema, [], p.name);

/** Whether a schema says what a value looks like: an example, a default, an enum, a const, a format, a number. */
function hinted(/** @type {SchemaLike | undefined} */ schema) {
  const s = flatten(schema, []).schema;
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  return (
    s.example !== undefined ||
    Array.isArray(s.examples) ||
    s.default !== undefined ||
    Array.isArray(s.enum) ||
    'const' in s ||
    typeof s.format === 'string' ||
    type === 'integer' ||
    type === 'number'
  );
}

/** A JSON body example: the media type's example, else one made from its schema. */
function bodyExample(/** @type {Media} */ media) {
  if (media.example !== undefined) return media.example;
  const first = isObj(media.examples) ? Object.values(media.examples)[0] : undefined;
  if (isObj(first) && first.value !== undefined) return first.value;
  return exampleOf(media.schema);
}

/** A curl command for the operation: its path parameters filled in, required query parameters, the token, a body. */
function curlOf(/** @type {Doc} */ doc, /** @type {Op} */ o, /** @type {string} */ base) {
  const value = (/** @type {Param} */ p) => {
    const v = paramExample(p);
    return typeof v === 'string' ? v : JSON.stringify(v ?? '');
  };
  const inPath = new Map(o.params.filter((p) => p.in === 'path').map((p) => [p.name, p]));
  const path = o.path.replace(/\{([^}]+)\}/g, (whole, name) => {
    const p = inPath.get(name);
    // A plain string parameter (a crawl's id) stays a placeholder: a made-up "string" would only mislead.
    return p && (p.example !== undefined || hinted(p.schema)) ? encodeURIComponent(value(p)) : whole;
  });
  const query = o.params
    .filter((p) => p.in === 'query' && p.required)
    .map((p) => `${encodeURIComponent(p.name)}=${encodeURIComponent(value(p))}`);
  const url = `${base}${path}${query.length > 0 ? `?${query.join('&')}` : ''}`;
  const lines = [o.method === 'get' ? `curl ${sh(url)}` : `curl -X ${o.method.toUpperCase()} ${sh(url)}`];
  const { isPublic, schemes } = securityOf(doc, o.op);
  for (const s of isPublic ? [] : schemes) {
    if (s.type === 'http' && str(s.scheme).toLowerCase() === 'bearer')
      lines.push('-H "Authorization: Bearer $API_TOKEN"');
    else if (s.type === 'http') lines.push('-u "$API_USER:$API_PASSWORD"');
    else if (s.type === 'apiKey' && s.in === 'header') lines.push(`-H "${str(s.name)}: $API_KEY"`);
  }
  for (const p of o.params.filter((p) => p.in === 'header' && p.required))
    lines.push(`-H ${sh(`${p.name}: ${value(p)}`)}`);
  lines.push(...bodyLines(o));
  return lines.join(' \\\n  ');
}

function bodyLines(/** @type {Op} */ o) {
  const body = deref(o.op.requestBody);
  const content = isObj(body.content) ? body.content : {};
  const type = Object.keys(content).find((t) => /json/i.test(t)) ?? Object.keys(content)[0];
  if (type === undefined) return [];
  if (!/json/i.test(type)) return [`-H ${sh(`Content-Type: ${type}`)}`, '--data-binary @body'];
  const example = bodyExample(/** @type {Media} */ (isObj(content[type]) ? content[type] : {}));
  const empty = isObj(example) && Object.keys(example).length === 0;
  if (example === undefined || (empty && !body.required)) return [];
  const compact = JSON.stringify(example);
  return [
    `-H ${sh(`Content-Type: ${type}`)}`,
    `-d ${sh(compact.length <= 72 ? compact : JSON.stringify(example, null, 2))}`,
  ];
}

function copyButton(/** @type {HTMLElement} */ pre, /** @type {string} */ what) {
  const button = h('button', { type: 'button', class: 'secondary copy', 'aria-label': `Copy the ${what}` }, 'Copy');
  button.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(pre.textContent ?? '');
      button.textContent = 'Copied';
      announce(`Copied the ${what}.`);
    } catch {
      // No clipboard (an insecure origin, or refused): select the text for the reader to copy.
      const range = document.createRange();
      range.selectNodeContents(pre);
      getSelection()?.removeAllRanges();
      getSelection()?.addRange(range);
      button.textContent = 'Selected: press Ctrl+C';
    }
    setTimeout(() => {
      button.textContent = 'Copy';
    }, 2500);
  });
  return button;
}

function exampleView(/** @type {Doc} */ doc, /** @type {Op} */ o, /** @type {string} */ base) {
  const pre = h('pre', { class: 'curl', tabindex: 0 }, h('code', {}, curlOf(doc, o, base)));
  return h(
    'div',
    { class: 'op-part' },
    h(
      'div',
      { class: 'example-head' },
      h('h4', {}, 'Example'),
      copyButton(pre, `curl command for ${o.method.toUpperCase()} ${o.path}`),
    ),
    pre,
  );
}

function operationView(/** @type {Doc} */ doc, /** @type {Op} */ o, /** @type {string} */ base) {
  const { isPublic } = securityOf(doc, o.op);
  return h(
    'section',
    { class: 'op', id: o.id, tabindex: -1, 'aria-labelledby': `${o.id}-title` },
    h(
      'div',
      { class: 'op-head' },
      h('h3', { id: `${o.id}-title` }, methodBadge(o.method), ' ', h('code', { class: 'path' }, o.path)),
      h(
        'a',
        { class: 'permalink', href: `#${o.id}`, 'aria-label': `Link to ${o.method.toUpperCase()} ${o.path}` },
        '#',
      ),
    ),
    o.op.summary && h('p', { class: 'summary' }, str(o.op.summary)),
    h(
      'p',
      { class: 'op-meta' },
      isPublic
        ? h('span', { class: 'tag-public' }, 'No token needed')
        : h('span', { class: 'muted' }, 'Needs the API token'),
      o.op.deprecated === true && h('span', { class: 'warn' }, ' · Deprecated'),
    ),
    prose(o.op.description),
    o.params.length > 0 && h('div', { class: 'op-part' }, h('h4', {}, 'Parameters'), paramsTable(o)),
    bodyView(o),
    responsesView(o),
    exampleView(doc, o, base),
  );
}

// ---- the page ----

/**
 * The nodes among children (arrays flattened, nothing dropped), for replaceChildren.
 * @param {...unknown} children
 * @returns {(Node | string)[]}
 */
const nodes = (...children) =>
  /** @type {(Node | string)[]} */ (children.flat(Infinity).filter((c) => c instanceof Node || typeof c === 'string'));

/** The operations shown, for the filter. */
/** @type {Op[]} */
let ops = [];

function introView(/** @type {Doc} */ doc, /** @type {string} */ base) {
  const info = isObj(doc.info) ? doc.info : {};
  return h(
    'header',
    { class: 'ref-intro' },
    h('h1', {}, str(info.title) || 'API reference'),
    h(
      'p',
      { class: 'row' },
      info.version && h('span', { class: 'badge' }, `version ${str(info.version)}`),
      h('span', { class: 'muted' }, `OpenAPI ${str(doc.openapi)}`),
      h('a', { href: DOCUMENT }, 'The document (JSON)'),
    ),
    prose(info.description),
    h('p', {}, 'Base URL: ', h('code', {}, base)),
  );
}

function schemasSection(/** @type {Doc} */ doc) {
  const schemas = Object.entries(isObj(doc.components?.schemas) ? (doc.components?.schemas ?? {}) : {});
  if (schemas.length === 0) return null;
  return h(
    'section',
    { class: 'schemas', 'aria-labelledby': 'schemas-title' },
    h('h2', { id: 'schemas-title' }, 'Schemas'),
    schemas.map(([name, schema]) =>
      h(
        'section',
        { class: 'component', id: `schema-${name}`, tabindex: -1, 'aria-labelledby': `schema-${name}-title` },
        h('h3', { id: `schema-${name}-title` }, h('code', {}, name)),
        schemaView(schema, { depth: 0, refs: [`#/components/schemas/${name}`] }),
      ),
    ),
  );
}

function tocView(/** @type {Group[]} */ groups, /** @type {boolean} */ hasSchemas) {
  return [
    groups.map((g, i) =>
      h(
        'div',
        { class: 'toc-group', 'data-group': i },
        h('p', { class: 'toc-tag' }, g.name),
        h(
          'ul',
          {},
          g.ops.map((o) =>
            h(
              'li',
              { 'data-op': o.id },
              h(
                'a',
                { href: `#${o.id}` },
                methodBadge(o.method),
                ' ',
                h('code', {}, o.path),
                h('span', { class: 'toc-summary' }, str(o.op.summary)),
              ),
            ),
          ),
        ),
      ),
    ),
    hasSchemas && h('p', { class: 'toc-tag' }, h('a', { href: '#schemas-title' }, 'Schemas')),
  ];
}

function render(/** @type {Doc} */ doc) {
  useDocument(/** @type {Record<string, unknown>} */ (/** @type {unknown} */ (doc)));
  const base = baseUrl(doc);
  const groups = groupsOf(doc);
  document.title = `${str(doc.info?.title) || 'API'} · reference`;
  byId('doc').replaceChildren(
    ...nodes(
      introView(doc, base),
      authSection(doc),
      groups.map((g, i) =>
        h(
          'section',
          { class: 'tag-group', 'data-group': i, 'aria-labelledby': `group-${i}` },
          h('h2', { id: `group-${i}` }, g.name),
          prose(g.description, 'muted'),
          g.ops.map((o) => operationView(doc, o, base)),
        ),
      ),
      schemasSection(doc),
    ),
  );
  byId('toc-list').replaceChildren(...nodes(tocView(groups, isObj(doc.components?.schemas))));
  ops = groups.flatMap((g) => g.ops);
  applyFilter();
}

/** Shows the operations whose method, path, summary or tag hold every word typed. */
function applyFilter() {
  const input = /** @type {HTMLInputElement} */ (byId('filter'));
  const words = input.value.toLowerCase().split(/\s+/).filter(Boolean);
  let shown = 0;
  for (const o of ops) {
    const match = words.every((w) => o.text.includes(w));
    if (match) shown++;
    const selector = `#${CSS.escape(o.id)}, [data-op="${CSS.escape(o.id)}"]`;
    for (const el of document.querySelectorAll(selector)) if (el instanceof HTMLElement) el.hidden = !match;
  }
  for (const group of document.querySelectorAll('[data-group]')) {
    const el = /** @type {HTMLElement} */ (group);
    el.hidden = el.querySelector('.op:not([hidden]), li[data-op]:not([hidden])') === null;
  }
  const count = byId('filter-count');
  if (words.length === 0) count.textContent = `${ops.length} operations`;
  else if (shown === 0) count.textContent = `No operation matches “${input.value.trim()}”.`;
  else count.textContent = `${shown} of ${ops.length} operations`;
}

/** Goes to the element the URL's #fragment names (once the document is shown, or when the fragment changes). */
function goToHash() {
  const id = decodeURIComponent(location.hash.slice(1));
  const target = id ? document.getElementById(id) : null;
  if (!target || !byId('doc').contains(target)) return;
  if (target.closest('[hidden]')) {
    /** @type {HTMLInputElement} */ (byId('filter')).value = '';
    applyFilter();
  }
  target.scrollIntoView();
  if (target.matches('section')) target.focus({ preventScroll: true });
}

async function load() {
  const main = byId('main');
  main.setAttribute('aria-busy', 'true');
  byId('doc').replaceChildren(
    h('p', { id: 'loading', class: 'muted', role: 'status' }, 'Loading the API description…'),
  );
  try {
    const res = await fetch(DOCUMENT, { headers: { accept: 'application/json' } });
    if (!res.ok) throw new Error(`${res.status} ${res.statusText}`.trim());
    const doc = await res.json().catch(() => {
      throw new Error('the answer is not JSON');
    });
    if (!isObj(doc) || typeof doc.openapi !== 'string' || !isObj(doc.paths))
      throw new Error('the answer is not an OpenAPI document');
    render(/** @type {Doc} */ (doc));
    goToHash();
  } catch (error) {
    showError(error instanceof Error ? error.message : String(error));
  } finally {
    main.removeAttribute('aria-busy');
  }
}

function showError(/** @type {string} */ message) {
  ops = [];
  byId('toc-list').replaceChildren();
  byId('filter-count').textContent = '';
  byId('doc').replaceChildren(
    h(
      'section',
      { class: 'card load-error', role: 'alert', 'aria-labelledby': 'load-error-title' },
      h('h1', { id: 'load-error-title' }, 'The API description could not be loaded'),
      h('p', {}, 'GET ', h('code', {}, DOCUMENT), ` failed: ${message}.`),
      h('button', { type: 'button', onclick: () => void load() }, 'Try again'),
    ),
  );
}

byId('filter').addEventListener('input', applyFilter);
byId('filter').addEventListener('keydown', (event) => {
  const input = /** @type {HTMLInputElement} */ (event.target);
  if (event.key !== 'Escape' || input.value === '') return;
  input.value = '';
  applyFilter();
});
window.addEventListener('hashchange', goToHash);
// The contents start closed on a phone, where they would push the operations a screen down.
if (matchMedia('(max-width: 799px)').matches) /** @type {HTMLDetailsElement} */ (byId('toc-details')).open = false;
void load();
