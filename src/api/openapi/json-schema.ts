import { z } from 'zod';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

const isObject = (value: Json | undefined): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Zod's bounds of a safe integer say nothing to a reader: they are left out. */
const NOISE = new Set([Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER]);

/** Keywords whose value maps names to schemas: its keys are names (a property may be called `id`), not keywords. */
const NAME_MAPS = new Set(['properties', 'patternProperties', '$defs', 'dependentSchemas']);

/** Rewrites each schema of a name → schema map, keeping every name. */
function rewriteMap(map: JsonObject, names: Map<string, string>): JsonObject {
  return Object.fromEntries(Object.entries(map).map(([name, schema]) => [name, rewrite(schema, names)]));
}

/**
 * Rewrites `#/$defs/X` references to the document's components (`#/components/schemas/<name of X>`), and drops what
 * says nothing to a reader: `$schema`, the `id` keyword zod leaves on a named schema, safe-integer bounds.
 */
function rewrite(value: Json, names: Map<string, string>): Json {
  if (Array.isArray(value)) return value.map((v) => rewrite(v, names));
  if (!isObject(value)) return value;
  const out: JsonObject = {};
  for (const [key, v] of Object.entries(value)) {
    if (key === '$schema' || (key === 'id' && typeof v === 'string')) continue;
    if ((key === 'minimum' || key === 'maximum') && typeof v === 'number' && NOISE.has(v)) continue;
    if (key === 'pattern' && value.format === 'uuid') continue;
    if (key === '$ref' && typeof v === 'string' && v.startsWith('#/$defs/')) {
      const name = v.slice('#/$defs/'.length);
      out[key] = `#/components/schemas/${names.get(name) ?? name}`;
    } else out[key] = NAME_MAPS.has(key) && isObject(v) ? rewriteMap(v, names) : rewrite(v, names);
  }
  return out;
}

/**
 * The JSON Schemas (2020-12, OpenAPI 3.1's dialect) of zod schemas, with every named sub-schema (`.meta({ id })`)
 * collected once into `components`. A request is described as it is given (`input`: defaults optional), an answer
 * as it is sent (`output`: defaults filled in); a request's named schema that an answer also has is `<id>Input`.
 */
export class SchemaSet {
  readonly components: Record<string, JsonObject> = {};

  convert(schema: z.ZodType, io: 'input' | 'output'): JsonObject {
    const converted = z.toJSONSchema(schema, { io, target: 'draft-2020-12', unrepresentable: 'any' });
    const raw = JSON.parse(JSON.stringify(converted)) as JsonObject;
    const defs = isObject(raw.$defs) ? raw.$defs : {};
    delete raw.$defs;
    const names = new Map<string, string>();
    for (const name of Object.keys(defs)) names.set(name, this.nameFor(name, io));
    for (const [name, def] of Object.entries(defs)) {
      const target = names.get(name) ?? name;
      this.components[target] ??= isObject(def) ? (rewrite(def, names) as JsonObject) : {};
    }
    return rewrite(raw, names) as JsonObject;
  }

  /** Named schemas collected from answers. */
  private readonly answers = new Set<string>();

  /** A request's named schema is `<name>Input` when an answer has one of that name (its defaults make them differ). */
  private nameFor(name: string, io: 'input' | 'output'): string {
    if (io === 'output') {
      this.answers.add(name);
      return name;
    }
    return this.answers.has(name) ? `${name}Input` : name;
  }
}
