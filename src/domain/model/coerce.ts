/**
 * Values read by declared fields (text, numbers, lists, nested objects) turned into the types the user's JSON Schema
 * asks for (issue 33), and values normalised for comparing a selector's reading with the model's answer.
 */
import { collapse } from '../extract/dom';
import type { FieldValue } from '../extract/fields';
import { parseNumber } from '../extract/number';
import { itemsOf, propertiesOf, typeOf } from './schema-shape';
import type { JsonSchema } from './types';

type Json = string | number | boolean | Json[] | { [name: string]: Json };

/** What pages write for no and for yes (tested in that order: "not available" is no). */
const FALSE_WORDS = /\b(out of stock|outofstock|sold out|soldout|not available|unavailable|discontinued|no|false)\b/;
const TRUE_WORDS = /\b(in stock|instock|in_stock|available|yes|true)\b/;

function toBoolean(value: string | number): boolean | null {
  if (typeof value === 'number') return value !== 0;
  const text = collapse(value).toLowerCase();
  if (FALSE_WORDS.test(text) || text === '0') return false;
  if (TRUE_WORDS.test(text) || text === '1') return true;
  return null;
}

const toNumber = (value: string | number): number | null => (typeof value === 'number' ? value : parseNumber(value));

function toScalar(value: string | number, schema: JsonSchema): Json | null {
  switch (typeOf(schema)) {
    // A non-integer read for an integer is kept: the schema's validation refuses it, and the page goes to the model.
    case 'number':
    case 'integer':
      return toNumber(value);
    case 'boolean':
      return toBoolean(value);
    default: {
      const text = typeof value === 'number' ? String(value) : collapse(value);
      return text === '' ? null : text;
    }
  }
}

const isRecord = (value: unknown): value is { [name: string]: FieldValue } =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** An object of the schema's properties that have a value (null ones left out: missing). */
export function coerceObject(values: { [name: string]: FieldValue }, schema: JsonSchema): { [name: string]: Json } {
  const out: { [name: string]: Json } = {};
  for (const [name, property] of Object.entries(propertiesOf(schema))) {
    const value = coerce(values[name] ?? null, property);
    if (value !== null) out[name] = value;
  }
  return out;
}

/** One value read by a field as the schema's type; null when it has none (or none of that type). */
function coerce(value: FieldValue, schema: JsonSchema): Json | null {
  if (value === null) return null;
  const type = typeOf(schema);
  if (type === 'array') {
    const items = (Array.isArray(value) ? value : [value]).map((item) => coerce(item, itemsOf(schema)));
    return items.filter((item): item is Json => item !== null);
  }
  if (type === 'object') return isRecord(value) ? coerceObject(value, schema) : null;
  const scalar = Array.isArray(value) ? (value[0] ?? null) : value;
  if (scalar === null || isRecord(scalar) || Array.isArray(scalar)) return null;
  return toScalar(scalar, schema);
}

/**
 * A value as compared: strings with whitespace collapsed, lower-cased, NFKC; numbers rounded to 6 decimals; empty
 * strings, null and undefined alike; objects without their empty properties, keys sorted. As JSON text.
 */
export function normalised(value: unknown): string {
  return JSON.stringify(normal(value));
}

function normal(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') {
    const text = collapse(value).normalize('NFKC').toLowerCase();
    return text === '' ? null : text;
  }
  if (typeof value === 'number') return Math.round(value * 1e6) / 1e6;
  if (Array.isArray(value)) return value.map(normal);
  if (typeof value === 'object') {
    const entries = Object.entries(value)
      .map(([key, inner]) => [key, normal(inner)] as const)
      .filter(([, inner]) => inner !== null);
    return Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }
  return value;
}
