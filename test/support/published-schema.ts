/**
 * Every JSON answer the workers tests receive is checked against the *published* OpenAPI document (the one
 * GET /v1/openapi.json serves and docs/openapi.json keeps), with a JSON Schema 2020-12 validator: what a client
 * generated from the document, or a validator of its own, would see. The Worker's own check (src/api/openapi/check.ts)
 * compares answers with the zod schemas they came from; this one catches what is lost on the way to the document.
 */
import { type Schema, Validator } from '@cfworker/json-schema';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const isObject = (value: Json | undefined): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

interface Operation {
  /** The path's pattern, and how many parameters it has (literal segments win over parameters). */
  pattern: RegExp;
  params: number;
  responses: JsonObject;
}

export interface PublishedDocument {
  operations: Map<string, Operation[]>;
  defs: JsonObject;
  /** One validator per documented answer, made when first needed. */
  validators: WeakMap<JsonObject, Validator>;
}

/** `#/components/schemas/X` → `#/$defs/X`, so that one schema holds the answer's schema and every component. */
function localRefs(value: Json): Json {
  if (Array.isArray(value)) return value.map(localRefs);
  if (!isObject(value)) return value;
  const out: JsonObject = {};
  for (const [key, v] of Object.entries(value))
    out[key] = key === '$ref' && typeof v === 'string' ? v.replace('#/components/schemas/', '#/$defs/') : localRefs(v);
  return out;
}

/** The document's operations by method, and its components, ready to validate answers. */
export function publishedDocument(doc: JsonObject): PublishedDocument {
  const operations = new Map<string, Operation[]>();
  const paths = isObject(doc.paths) ? doc.paths : {};
  for (const [path, item] of Object.entries(paths)) {
    if (!isObject(item)) continue;
    const pattern = new RegExp(`^${path.replace(/\{\w+\}/g, '[^/]+')}$`);
    const params = (path.match(/\{/g) ?? []).length;
    for (const [method, op] of Object.entries(item)) {
      if (!isObject(op) || !isObject(op.responses)) continue;
      const list = operations.get(method.toUpperCase()) ?? [];
      list.push({ pattern, params, responses: op.responses });
      operations.set(method.toUpperCase(), list);
    }
  }
  const components = isObject(doc.components) && isObject(doc.components.schemas) ? doc.components.schemas : {};
  const defs = localRefs(components);
  return { operations, defs: isObject(defs) ? defs : {}, validators: new WeakMap() };
}

/** The schema the document gives the JSON answer of `method path` with `status`, or null (not documented). */
function answerSchema(doc: PublishedDocument, method: string, path: string, status: number): JsonObject | null {
  const matching = (doc.operations.get(method) ?? []).filter((op) => op.pattern.test(path));
  const op = matching.sort((a, b) => a.params - b.params)[0];
  const answer = op?.responses[String(status)];
  if (!isObject(answer) || !isObject(answer.content)) return null;
  const media = answer.content['application/json'];
  return isObject(media) && isObject(media.schema) ? media.schema : null;
}

/**
 * Why a JSON answer does not validate against the published document, or null. An answer the document does not
 * describe as JSON (bytes, an undocumented status) is left to the Worker's own check.
 */
export function publishedProblem(
  doc: PublishedDocument,
  method: string,
  path: string,
  status: number,
  body: unknown,
): string | null {
  const schema = answerSchema(doc, method, path, status);
  if (schema === null) return null;
  let validator = doc.validators.get(schema);
  if (!validator) {
    const root = { ...(localRefs(schema) as JsonObject), $defs: doc.defs };
    validator = new Validator(root as Schema, '2020-12', false);
    doc.validators.set(schema, validator);
  }
  const result = validator.validate(body);
  if (result.valid) return null;
  const errors = result.errors.filter((e) => e.keyword !== 'properties' && e.keyword !== '$ref').slice(0, 4);
  return errors.map((e) => `${e.instanceLocation}: ${e.error}`).join('; ');
}
