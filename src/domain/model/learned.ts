/**
 * Selectors written by the model, applied (issue 33): a page of a learned template read by declared fields and coerced
 * to the schema, trusted only when whole and valid (otherwise the caller asks the model for that page); and the check
 * of freshly written selectors against the model's own answers on the sample pages.
 */
import { Validator } from '@cfworker/json-schema';
import { baseUrlOf, parseBounded } from '../extract/dom';
import { readFields } from '../extract/fields';
import type { FieldSpec } from '../extract/spec-schema';
import { coerceObject, normalised } from './coerce';
import { LEARN } from './learn-limits';
import { propertiesOf, requiredOf } from './schema-shape';
import type { JsonSchema } from './types';

export type Applied = { ok: true; json: { [name: string]: unknown } } | { ok: false; why: string };

export interface LearnSample {
  url: string;
  html: string;
  json: unknown;
}

export interface Check {
  /** Fields read as the model answered them, of those either side has a value, over all samples (0..1). */
  agreement: number;
  mismatches: string[];
  /** agreement ≥ LEARN.agreement and no expected property missing on any sample the model gave it a value. */
  accepted: boolean;
}

// The same checks as json-schema.ts's validateAgainst (issue 33's other half), compiled once per schema object.
const validators = new WeakMap<JsonSchema, Validator>();

function schemaError(schema: JsonSchema, value: unknown): string | null {
  let validator = validators.get(schema);
  if (!validator) {
    validator = new Validator(schema, '2020-12', false);
    validators.set(schema, validator);
  }
  const result = validator.validate(value);
  if (result.valid) return null;
  const first = result.errors.at(-1);
  return first ? `${first.instanceLocation}: ${first.error}` : 'invalid';
}

const isRecord = (value: unknown): value is { [name: string]: unknown } =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The properties a page must give for its reading to be trusted: those the schema requires or, when it requires
 * none, those the model gave a value on every sample (a property it left empty on some sample is optional).
 */
export function expectedOf(schema: JsonSchema, samples: { json: unknown }[]): string[] {
  const required = requiredOf(schema);
  if (required.length > 0) return required;
  return Object.keys(propertiesOf(schema)).filter((name) =>
    samples.every((sample) => isRecord(sample.json) && normalised(sample.json[name]) !== 'null'),
  );
}

function readPage(fields: Record<string, FieldSpec>, html: string, url: string, schema: JsonSchema) {
  const { document } = parseBounded(html, []);
  const values = readFields(document.documentElement, fields, { baseUrl: baseUrlOf(document, url), errors: {} });
  return coerceObject(values, schema);
}

/**
 * A page read by learned fields: ok with its JSON when every expected property (expectedOf; by default the schema's
 * required ones) has a value and the whole validates against the schema; otherwise why, and the page is the model's.
 */
export function applyLearned(
  fields: Record<string, FieldSpec>,
  html: string,
  url: string,
  schema: JsonSchema,
  expected: string[] = requiredOf(schema),
): Applied {
  const json = readPage(fields, html, url, schema);
  const missing = expected.filter((name) => json[name] === undefined);
  if (missing.length > 0) return { ok: false, why: `no value for ${missing.join(', ')}` };
  const invalid = schemaError(schema, json);
  if (invalid !== null) return { ok: false, why: `not valid against the schema: ${invalid}` };
  return { ok: true, json };
}

const shown = (value: unknown) => (value === undefined ? 'nothing' : JSON.stringify(value).slice(0, 120));

/** Learned fields compared, property by property, with the model's answers on the samples they were written from. */
export function checkLearned(
  fields: Record<string, FieldSpec>,
  samples: LearnSample[],
  schema: JsonSchema,
  expected: string[] = expectedOf(schema, samples),
): Check {
  const mismatches: string[] = [];
  let compared = 0;
  let agreed = 0;
  let missing = false;
  for (const sample of samples) {
    const read = readPage(fields, sample.html, sample.url, schema);
    const answer = isRecord(sample.json) ? sample.json : {};
    for (const name of Object.keys(propertiesOf(schema))) {
      const [ours, theirs] = [normalised(read[name]), normalised(answer[name])];
      if (ours === 'null' && theirs === 'null') continue;
      compared++;
      if (ours === theirs) agreed++;
      else mismatches.push(`${sample.url}: ${name} read ${shown(read[name])}, the answer has ${shown(answer[name])}`);
      if (ours === 'null' && expected.includes(name)) missing = true;
    }
  }
  const agreement = compared === 0 ? 0 : agreed / compared;
  return { agreement, mismatches, accepted: agreement >= LEARN.agreement && !missing };
}
