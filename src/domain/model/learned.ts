/**
 * Selectors written by the model, applied (issue 33): a page of a learned template read by declared fields and coerced
 * to the schema, trusted only when whole and valid (otherwise the caller asks the model for that page); and the check
 * of freshly written selectors against the model's own answers on the sample pages.
 */
import { Validator } from '@cfworker/json-schema';
import { baseUrlOf, collapse, type DomElement, parseBounded, selectAll } from '../extract/dom';
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

/**
 * The single-valued fields (not lists, not nested) whose selector matches elements of different values: the first
 * may be the wrong one (an old price struck through beside the new), so such a reading is not trusted.
 */
function ambiguous(root: DomElement, fields: Record<string, FieldSpec>): string[] {
  const shownBy = (element: DomElement, spec: FieldSpec) =>
    collapse(spec.attr === undefined ? element.textContent : element.getAttribute(spec.attr));
  return Object.entries(fields)
    .filter(([, spec]) => !spec.list && !spec.fields)
    .filter(
      ([, spec]) =>
        new Set(
          selectAll(root, spec.selector)
            .slice(0, 50)
            .map((e) => shownBy(e, spec)),
        ).size > 1,
    )
    .map(([name]) => name);
}

function readPage(fields: Record<string, FieldSpec>, html: string, url: string, schema: JsonSchema) {
  const { document } = parseBounded(html, []);
  const root = document.documentElement;
  const values = readFields(root, fields, { baseUrl: baseUrlOf(document, url), errors: {} });
  return { json: coerceObject(values, schema), ambiguous: ambiguous(root, fields) };
}

/**
 * A page read by learned fields: ok with its JSON when no single-valued field matches several different values, every expected property (expectedOf; by default the schema's
 * required ones) has a value and the whole validates against the schema; otherwise why, and the page is the model's.
 */
export function applyLearned(
  fields: Record<string, FieldSpec>,
  html: string,
  url: string,
  schema: JsonSchema,
  expected: string[] = requiredOf(schema),
): Applied {
  const { json, ambiguous } = readPage(fields, html, url, schema);
  if (ambiguous.length > 0) return { ok: false, why: `several different values for ${ambiguous.join(', ')}` };
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
    const { json: read, ambiguous: several } = readPage(fields, sample.html, sample.url, schema);
    const answer = isRecord(sample.json) ? sample.json : {};
    for (const name of Object.keys(propertiesOf(schema))) {
      const [ours, theirs] = [several.includes(name) ? 'several' : normalised(read[name]), normalised(answer[name])];
      if (ours === 'null' && theirs === 'null') continue;
      compared++;
      if (ours === theirs) agreed++;
      else if (ours === 'several')
        mismatches.push(`${sample.url}: ${name}'s selector matches several different values`);
      else mismatches.push(`${sample.url}: ${name} read ${shown(read[name])}, the answer has ${shown(answer[name])}`);
      if ((ours === 'null' || ours === 'several') && expected.includes(name)) missing = true;
    }
  }
  const agreement = compared === 0 ? 0 : agreed / compared;
  return { agreement, mismatches, accepted: agreement >= LEARN.agreement && !missing };
}
