/**
 * What selectors written by the model need to know of the user's JSON Schema (issue 33): its properties, which are
 * required, and the one type a value is read as. Only the plain shape is followed (type, properties, required, items);
 * a schema beyond it ($ref, oneOf...) is still validated in full by json-schema, its values are only not coerced.
 */
import type { JsonSchema } from './types';

export type ValueType = 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object' | 'null' | 'unknown';

const isSchema = (value: unknown): value is JsonSchema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The schema's properties by name (none when it declares none). */
export function propertiesOf(schema: JsonSchema): Record<string, JsonSchema> {
  const properties = schema.properties;
  if (!isSchema(properties)) return {};
  const out: Record<string, JsonSchema> = {};
  for (const [name, value] of Object.entries(properties)) out[name] = isSchema(value) ? value : {};
  return out;
}

/** The properties it requires, of those it declares. */
export function requiredOf(schema: JsonSchema): string[] {
  const required = Array.isArray(schema.required) ? schema.required : [];
  const declared = propertiesOf(schema);
  return required.filter((name): name is string => typeof name === 'string' && name in declared);
}

/** The type a value is read as: the schema's type, the first other than null when it lists several. */
export function typeOf(schema: JsonSchema): ValueType {
  const types = (Array.isArray(schema.type) ? schema.type : [schema.type]).filter((t) => typeof t === 'string');
  const chosen = types.find((t) => t !== 'null') ?? types[0];
  const known: ValueType[] = ['string', 'number', 'integer', 'boolean', 'array', 'object', 'null'];
  const named = known.find((type) => type === chosen);
  if (named) return named;
  if (isSchema(schema.properties)) return 'object';
  if (isSchema(schema.items)) return 'array';
  return 'unknown';
}

/** An array's item schema ({} when it gives none). */
export const itemsOf = (schema: JsonSchema): JsonSchema => (isSchema(schema.items) ? schema.items : {});
