import { type OutputUnit, type Schema, Validator } from '@cfworker/json-schema';
import { SCHEMA_MAX_BYTES, SCHEMA_MAX_DEPTH, VALIDATION_ERRORS_TOLD } from './limits';
import { readPointer, safeDecode, schemaProblem } from './schema-walk';
import type { JsonSchema } from './types';

/**
 * A user's JSON Schema, checked at the API's boundary: a plain JSON object of at most SCHEMA_MAX_BYTES as JSON and
 * SCHEMA_MAX_DEPTH levels, whose `type`s are JSON Schema's types, whose `$ref`s point inside it (`#/...`: nothing is
 * ever fetched), and that @cfworker/json-schema (no eval: it runs in a Worker) compiles and runs. Null when it is
 * good, else what is wrong, for a person.
 */
export function checkJsonSchema(value: unknown): string | null {
  if (!isPlainObject(value)) return 'the schema must be a JSON object';
  const deep = tooDeep(value, 0, '');
  if (deep !== null) return `the schema nests deeper than ${SCHEMA_MAX_DEPTH} levels (at ${deep || '/'})`;
  const bytes = jsonBytes(value);
  if (bytes === null) return 'the schema is not plain JSON';
  if (bytes > SCHEMA_MAX_BYTES)
    return `the schema is ${bytes} bytes as JSON, more than the ${SCHEMA_MAX_BYTES} allowed`;
  return schemaProblem(value, '', value) ?? topProblem(value) ?? compileProblem(value);
}

/** The answer is one JSON object: a schema whose top level is given a type must let it be an object. */
function topProblem(schema: JsonSchema): string | null {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type ?? 'object'];
  return types.includes('object') ? null : 'the schema must describe a JSON object: its top "type" must be "object"';
}

/**
 * `value` against a schema that passed checkJsonSchema: null when valid, else its first errors as one line
 * (`/price: expected number, got string; /name: missing (required)`).
 */
export function validateAgainst(schema: JsonSchema, value: unknown): string | null {
  const result = validatorOf(schema).validate(value);
  if (result.valid) return null;
  const leaves = result.errors.filter((unit) => !WRAPPING_KEYWORDS.has(unit.keyword));
  const errors = leaves.length > 0 ? leaves : result.errors;
  const told = errors.slice(0, VALIDATION_ERRORS_TOLD);
  const more = errors.length > told.length ? ` (and ${errors.length - told.length} more)` : '';
  return told.map((unit) => describeError(unit, value)).join('; ') + more;
}

/** Keywords whose error only says that something under them failed: the failure below says what. */
const WRAPPING_KEYWORDS = new Set([
  'properties',
  'items',
  'prefixItems',
  'additionalItems',
  'patternProperties',
  'additionalProperties',
  'allOf',
  '$ref',
  'unevaluatedProperties',
  'unevaluatedItems',
  'dependentSchemas',
  'contains',
  'then',
  'else',
]);

function describeError(unit: OutputUnit, value: unknown): string {
  const path = safeDecode(unit.instanceLocation.replace(/^#/, '')) || '/';
  if (unit.keyword === 'type') {
    const expected = /Expected "(.+)"\.?$/.exec(unit.error)?.[1] ?? 'another type';
    const got = typeName(readPointer(value, unit.instanceLocation));
    return `${path}: expected ${expected.replaceAll('", "', ' or ')}, got ${got}`;
  }
  if (unit.keyword === 'required') {
    const name = /property "([^"]+)"/.exec(unit.error)?.[1];
    if (name !== undefined) return `${path === '/' ? '' : path}/${name}: missing (required)`;
  }
  return `${path}: ${unit.error.replace(/\.$/, '')}`;
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function compileProblem(schema: JsonSchema): string | null {
  try {
    const validator = validatorOf(schema);
    for (const probe of [{}, [], '', 0, null]) validator.validate(probe);
    return null;
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    return `the schema cannot be used: ${message}`;
  }
}

/**
 * The library's own type for a schema: JsonSchema is any JSON object, and one that passed checkJsonSchema is what
 * the library takes (its Schema type is a JSON object with its keywords typed, and any other key).
 */
function validatorOf(schema: JsonSchema): Validator {
  return new Validator(schema as Schema, '2020-12', false);
}

function tooDeep(value: unknown, depth: number, path: string): string | null {
  if (typeof value !== 'object' || value === null) return null;
  if (depth >= SCHEMA_MAX_DEPTH) return path;
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
  for (const [key, child] of entries) {
    const found = tooDeep(child, depth + 1, `${path}/${key}`);
    if (found !== null) return found;
  }
  return null;
}

function jsonBytes(value: object): number | null {
  try {
    return new TextEncoder().encode(JSON.stringify(value)).length;
  } catch {
    return null;
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
