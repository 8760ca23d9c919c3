/**
 * The request asking the model to write CSS selectors for a schema from sample pages of one template, and the reading
 * of its reply (issue 33). The reply is untrusted: its fields are checked with the declared fields' own schema (a
 * selector must run) and kept only for the schema's properties.
 */
import { z } from 'zod';
import { FIELD_TYPES } from '../extract/spec';
import { type FieldSpec, fieldSpecSchema } from '../extract/spec-schema';
import { LEARN } from './learn-limits';
import { itemsOf, propertiesOf, typeOf } from './schema-shape';
import type { JsonSchema, ModelRequest } from './types';

/** The phrase that opens the system message of every selector-writing request (a fake model recognises it by it). */
export const SELECTOR_MARKER = 'You write CSS selectors that read JSON from web pages.';

/** One sample: the page's URL, its simplified HTML (simplify-html.ts) and the JSON the model answered for it. */
export interface SelectorSample {
  url: string;
  html: string;
  json: unknown;
}

const SYSTEM = [
  SELECTOR_MARKER,
  'You are given a JSON Schema and sample pages of one page template of a website, each with the JSON answer read from it.',
  'Write selectors that read the same answer from every page of this template. Answer with a JSON object',
  '{"fields": {"<property>": {"selector": "<CSS>", "attr"?: "<attribute>", "type"?: "text|number|url|html|code", "list"?: true, "fields"?: {...}}}},',
  'one entry per schema property that the pages show. Rules: prefer stable hooks (itemprop, id, meaningful class',
  'names) to positions; "type": "number" for numbers; "list": true for arrays (every match is one item); "fields"',
  'for objects (their selectors run inside each match); "attr" to read an attribute (content, href) instead of the',
  'text; leave out a property no selector can read. The selectors run on the original pages: the HTML shown is',
  'simplified (scripts, styles and most attributes removed, the main content moved first).',
].join('\n');

/** The JSON Schema of the reply: `fields` keyed by the schema's properties, each a declared field. */
export function selectorAnswerSchema(schema: JsonSchema): JsonSchema {
  const field = { $ref: '#/$defs/field' };
  const names = Object.keys(propertiesOf(schema));
  return {
    type: 'object',
    required: ['fields'],
    additionalProperties: false,
    properties: {
      fields: {
        type: 'object',
        additionalProperties: false,
        properties: Object.fromEntries(names.map((n) => [n, field])),
      },
    },
    $defs: {
      field: {
        type: 'object',
        required: ['selector'],
        additionalProperties: false,
        properties: {
          selector: { type: 'string' },
          attr: { type: 'string' },
          type: { enum: [...FIELD_TYPES] },
          list: { type: 'boolean' },
          fields: { type: 'object', additionalProperties: field },
        },
      },
    },
  };
}

function sampleText(sample: SelectorSample, i: number, count: number): string {
  return [
    `Sample ${i + 1} of ${count}: ${sample.url}`,
    'HTML (simplified):',
    '<<<HTML',
    sample.html,
    'HTML>>>',
    'Answer read from this page:',
    '<<<JSON',
    JSON.stringify(sample.json),
    'JSON>>>',
  ].join('\n');
}

/** The request for selectors; `mismatches` (a second attempt) lists what the previous selectors got wrong. */
export function selectorRequest(
  schema: JsonSchema,
  samples: SelectorSample[],
  mismatches: string[] = [],
): ModelRequest {
  const parts = [
    `JSON Schema of each page's answer:\n${JSON.stringify(schema)}`,
    ...samples.map((sample, i) => sampleText(sample, i, samples.length)),
  ];
  if (mismatches.length > 0)
    parts.push(
      `Your previous selectors read these values otherwise than the answers; write them again:\n${mismatches
        .slice(0, LEARN.mismatchesListed)
        .map((m) => `- ${m}`)
        .join('\n')}`,
    );
  return {
    messages: [
      { role: 'system', content: SYSTEM },
      { role: 'user', content: parts.join('\n\n') },
    ],
    schema: selectorAnswerSchema(schema),
    maxTokens: LEARN.maxTokens,
  };
}

export type SelectorReply =
  | { ok: true; fields: Record<string, FieldSpec>; problems: string[] }
  | { ok: false; why: string };

const replySchema = z.object({ fields: z.record(z.string(), z.unknown()) });

/** The JSON object in a reply's text: as it is, or inside a code fence or other words. */
function parseObject(text: string): unknown {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end < start) return undefined;
  try {
    return JSON.parse(text.slice(start, end + 1));
  } catch {
    return undefined;
  }
}

/** Fields kept only for the schema's properties, nested ones for an object's (or an array of objects') properties. */
function limitFields(
  raw: Record<string, unknown>,
  schema: JsonSchema,
  problems: string[],
  prefix = '',
): Record<string, FieldSpec> {
  const properties = propertiesOf(schema);
  const out: Record<string, FieldSpec> = {};
  for (const [name, value] of Object.entries(raw)) {
    const property = properties[name];
    if (!property) {
      problems.push(`${prefix}${name}: not a property of the schema, dropped`);
      continue;
    }
    const parsed = fieldSpecSchema.safeParse(value);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'field'}: ${issue.message}`);
      problems.push(`${prefix}${name}: ${issues.join('; ')}`);
      continue;
    }
    const spec = parsed.data;
    const inner = typeOf(property) === 'array' ? itemsOf(property) : property;
    out[name] = spec.fields
      ? { ...spec, fields: limitFields(spec.fields, inner, problems, `${prefix}${name}.`) }
      : spec;
  }
  return out;
}

/** The reply's fields, each a declared field that runs and names a property of the schema; why not, when none is. */
export function readSelectorReply(text: string, schema: JsonSchema): SelectorReply {
  const reply = replySchema.safeParse(parseObject(text));
  if (!reply.success) return { ok: false, why: 'the reply is not a JSON object with "fields"' };
  const problems: string[] = [];
  const fields = limitFields(reply.data.fields, schema, problems);
  if (Object.keys(fields).length === 0)
    return { ok: false, why: `no usable field in the reply${problems.length ? `: ${problems.join('; ')}` : ''}` };
  return { ok: true, fields, problems };
}
