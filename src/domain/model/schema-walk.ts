/**
 * A walk over a JSON Schema's subschemas (those places only: a property named `type` under `properties` is a name, not
 * a keyword) checking what @cfworker/json-schema would take but we do not, or would fail on only when an instance
 * reaches it: a `type` that is not one of JSON Schema's, a `$ref` that is not local or points at nothing, a `pattern`
 * that is not a regular expression. Bounded: checkJsonSchema has checked the depth first.
 */

const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);

/** Keywords whose value is a subschema. */
const ONE_SCHEMA = [
  'items',
  'additionalItems',
  'additionalProperties',
  'unevaluatedItems',
  'unevaluatedProperties',
  'propertyNames',
  'contains',
  'not',
  'if',
  'then',
  'else',
];
/** Keywords whose value is an array of subschemas. */
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items'];
/** Keywords whose value maps names to subschemas. */
const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];

type Json = Record<string, unknown>;

/** What is wrong with the subschema `node` at `path` (a JSON Pointer into `root`), or null. */
export function schemaProblem(node: unknown, path: string, root: Json): string | null {
  if (typeof node === 'boolean') return null;
  if (!isObject(node)) return `${where(path)}: a schema must be an object or a boolean`;
  return (
    typeProblem(node, path) ?? refProblem(node, path, root) ?? patternProblem(node, path) ?? below(node, path, root)
  );
}

function below(node: Json, path: string, root: Json): string | null {
  const children: [unknown, string][] = [];
  for (const key of ONE_SCHEMA)
    if (key in node && !Array.isArray(node[key])) children.push([node[key], `${path}/${key}`]);
  for (const key of SCHEMA_LISTS) {
    const list = node[key];
    if (Array.isArray(list))
      children.push(...list.map((child, i): [unknown, string] => [child, `${path}/${key}/${i}`]));
    else if (key !== 'items' && list !== undefined) return `${where(path)}: "${key}" must be an array of schemas`;
  }
  for (const key of SCHEMA_MAPS) {
    const map = node[key];
    if (map === undefined) continue;
    if (!isObject(map)) return `${where(path)}: "${key}" must be an object`;
    for (const [name, child] of Object.entries(map)) children.push([child, `${path}/${key}/${escapePointer(name)}`]);
  }
  for (const [child, at] of children) {
    const problem = schemaProblem(child, at, root);
    if (problem !== null) return problem;
  }
  return null;
}

function typeProblem(node: Json, path: string): string | null {
  if (!('type' in node)) return null;
  const types = Array.isArray(node.type) ? node.type : [node.type];
  const bad = types.find((type) => typeof type !== 'string' || !TYPES.has(type));
  if (bad === undefined && types.length > 0) return null;
  const shown = bad === undefined ? '[]' : JSON.stringify(bad);
  return `${where(path)}: "type" ${shown} is not a JSON Schema type (${[...TYPES].join(', ')})`;
}

function refProblem(node: Json, path: string, root: Json): string | null {
  for (const key of ['$ref', '$dynamicRef', '$recursiveRef']) {
    if (!(key in node)) continue;
    const ref = node[key];
    if (typeof ref !== 'string') return `${where(path)}: "${key}" must be a string`;
    if (ref !== '#' && !ref.startsWith('#/')) {
      return `${where(path)}: "${key}" ${JSON.stringify(ref)} is not local: only references inside the schema ("#/...") are allowed`;
    }
    if (readPointer(root, ref) === undefined)
      return `${where(path)}: "${key}" ${JSON.stringify(ref)} points at nothing in the schema`;
  }
  return null;
}

function patternProblem(node: Json, path: string): string | null {
  const patterns = typeof node.pattern === 'string' ? [node.pattern] : [];
  if (isObject(node.patternProperties)) patterns.push(...Object.keys(node.patternProperties));
  for (const pattern of patterns) {
    try {
      new RegExp(pattern, 'u');
    } catch {
      return `${where(path)}: ${JSON.stringify(pattern)} is not a regular expression`;
    }
  }
  return null;
}

/** The value a local JSON Pointer (`#` or `#/a/b`, URI-encoded) names in `root`, or undefined. */
export function readPointer(root: unknown, pointer: string): unknown {
  if (pointer === '#') return root;
  let node: unknown = root;
  for (const raw of pointer.slice(2).split('/')) {
    const key = unescapePointer(safeDecode(raw));
    if (Array.isArray(node)) node = node[Number(key)];
    else node = isObject(node) && Object.hasOwn(node, key) ? node[key] : undefined;
    if (node === undefined) return undefined;
  }
  return node;
}

export function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

const escapePointer = (name: string) => name.replaceAll('~', '~0').replaceAll('/', '~1');
const unescapePointer = (name: string) => name.replaceAll('~1', '/').replaceAll('~0', '~');
const where = (path: string) => path || '/';

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
