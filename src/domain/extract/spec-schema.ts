import { z } from 'zod';
import { checkJsonSchema } from '../model/json-schema';
import { selectorError } from './dom';
import { FIELD_TYPES, OUTPUT_FORMATS, SPEC_LIMITS } from './spec';

/** A CSS selector that runs (validated before any page is fetched). */
export const selectorSchema = z
  .string()
  .min(1)
  .max(SPEC_LIMITS.selectorLength)
  .superRefine((value, ctx) => {
    const error = selectorError(value);
    if (error) ctx.addIssue({ code: 'custom', message: `invalid CSS selector ${JSON.stringify(value)}: ${error}` });
  });

const FIELD_NAME = /^[A-Za-z_][\w-]{0,63}$/;

/** A declared field: the first match's value, or every match's with `list`; nested `fields` read each match. */
export const fieldSpecSchema = z
  .object({
    selector: selectorSchema,
    attr: z.string().min(1).max(100).optional().describe('Read this attribute instead of the text.'),
    type: z
      .enum(FIELD_TYPES)
      .optional()
      .describe(
        'text (the default): whitespace collapsed, line breaks of code kept; code: verbatim; html: inner HTML; number and url: parsed.',
      ),
    list: z.boolean().optional().describe("Every match's value instead of the first's."),
    get fields(): z.ZodOptional<z.ZodRecord<z.ZodString, typeof fieldSpecSchema>> {
      return z.record(z.string(), fieldSpecSchema).optional().describe('Fields read inside each match.');
    },
  })
  .strict()
  .meta({ id: 'FieldSpec' });
export type FieldSpec = z.output<typeof fieldSpecSchema>;

/** Fields in a spec, nested ones included, how deep they nest, and a name that is not a valid one. */
function fieldShape(fields: Record<string, FieldSpec>, depth = 1): { count: number; depth: number; badName?: string } {
  let count = 0;
  let deepest = depth;
  let badName: string | undefined;
  for (const [name, spec] of Object.entries(fields)) {
    count++;
    if (!FIELD_NAME.test(name)) badName ??= name;
    if (spec.fields) {
      const inner = fieldShape(spec.fields, depth + 1);
      count += inner.count;
      deepest = Math.max(deepest, inner.depth);
      badName ??= inner.badName;
    }
  }
  return badName === undefined ? { count, depth: deepest } : { count, depth: deepest, badName };
}

function checkFields(fields: Record<string, FieldSpec>, ctx: z.RefinementCtx): void {
  const shape = fieldShape(fields);
  const issue = (message: string) => ctx.addIssue({ code: 'custom', path: ['fields'], message });
  if (shape.count > SPEC_LIMITS.fields)
    issue(`at most ${SPEC_LIMITS.fields} fields, nested ones included (got ${shape.count})`);
  if (shape.depth > SPEC_LIMITS.depth) issue(`fields nest at most ${SPEC_LIMITS.depth} deep`);
  if (shape.badName !== undefined)
    issue(
      `field names are letters, digits, _ and - (at most 64), starting with a letter or _: ${JSON.stringify(shape.badName.slice(0, 80))}`,
    );
}

const promptSchema = z.string().trim().min(1).max(SPEC_LIMITS.promptChars);

/**
 * A JSON value inside a JSON Schema, typed as loosely as the Durable Objects' RPC can carry (a config crosses it with
 * the schema in it: `unknown` would not): the request body is JSON, and checkJsonSchema reads the rest.
 */
type JsonSchemaPart = string | number | boolean | null | object;
const jsonSchemaPart = z.custom<JsonSchemaPart>(
  (value) => value === null || ['string', 'number', 'boolean', 'object'].includes(typeof value),
);

/** A JSON Schema the model's answer must satisfy: a JSON object, checked before any page is fetched. */
const jsonSchemaSchema = z
  .record(z.string(), jsonSchemaPart)
  .superRefine((value, ctx) => {
    const error = checkJsonSchema(value);
    if (error !== null) ctx.addIssue({ code: 'custom', message: `invalid JSON Schema: ${error}` });
  })
  .describe('A JSON Schema (draft 2020-12) of the object wanted; the answer is checked against it.');

/** extract.json: what the model is asked for each page (format "json"). */
const modelJsonSpecSchema = z
  .object({
    schema: jsonSchemaSchema.optional(),
    prompt: promptSchema
      .optional()
      .describe('What to extract, in words; alone, the model answers any JSON object it sees fit.'),
    learnSelectors: z
      .boolean()
      .default(false)
      .describe(
        "With a schema: the model reads a few pages of each page template once and writes CSS selectors for the schema, checked against its own answers; the template's other pages are read by those selectors (no model call), and fall back to the model where a selector finds nothing.",
      ),
  })
  .strict()
  .refine((spec) => spec.schema !== undefined || spec.prompt !== undefined, {
    message: 'extract.json needs a schema, a prompt, or both',
  })
  .refine((spec) => !spec.learnSelectors || spec.schema !== undefined, {
    message: 'learnSelectors needs a schema: selectors are written for its properties',
    path: ['learnSelectors'],
  })
  .meta({ id: 'ModelJsonSpec' });

/** extract.summary: the summary's prompt (format "summary"). */
const summarySpecSchema = z
  .object({ prompt: promptSchema.optional().describe('How to summarize; by default 2-3 sentences.') })
  .strict()
  .meta({ id: 'SummarySpec' });

/** "json" and "summary" in formats each need (json) or take (summary) their spec, and a spec needs its format. */
function checkModelFormats(spec: { formats: string[]; json?: unknown; summary?: unknown }, ctx: z.RefinementCtx): void {
  const has = (format: string) => spec.formats.includes(format);
  if (has('json') && spec.json === undefined)
    ctx.addIssue({
      code: 'custom',
      path: ['json'],
      message: 'the "json" format needs extract.json: {schema} (a JSON Schema), {prompt}, or both',
    });
  if (!has('json') && spec.json !== undefined)
    ctx.addIssue({ code: 'custom', path: ['formats'], message: 'extract.json is given: add "json" to formats' });
  if (!has('summary') && spec.summary !== undefined)
    ctx.addIssue({ code: 'custom', path: ['formats'], message: 'extract.summary is given: add "summary" to formats' });
}

/** What each HTML page of a crawl (or a scrape) is extracted into: the outputs it keeps and the fields it declares. */
export const extractSpecSchema = z
  .object({
    formats: z
      .array(z.enum(OUTPUT_FORMATS))
      .min(1)
      .max(OUTPUT_FORMATS.length)
      .default(['markdown', 'metadata'])
      .describe('Outputs kept of each page (screenshot formats render the page in a browser).'),
    mainContent: z
      .union([z.boolean(), z.object({ selector: selectorSchema }).strict()])
      .default(true)
      .describe('true: the main content is detected; false: the whole body; {selector}: that element.'),
    include: z
      .array(selectorSchema)
      .max(SPEC_LIMITS.selectors)
      .default([])
      .describe('When given, only these parts of the content are kept.'),
    exclude: z.array(selectorSchema).max(SPEC_LIMITS.selectors).default([]).describe('Parts removed from the content.'),
    fields: z
      .record(z.string(), fieldSpecSchema)
      .default({})
      .describe(`Declared fields by name (at most ${SPEC_LIMITS.fields}, nested ones included).`),
    json: modelJsonSpecSchema.optional().describe('With the "json" format: what a language model extracts as JSON.'),
    summary: summarySpecSchema.optional().describe('With the "summary" format: how a language model summarizes.'),
  })
  .strict()
  .superRefine((spec, ctx) => {
    checkFields(spec.fields, ctx);
    checkModelFormats(spec, ctx);
  })
  .transform((spec) => ({ ...spec, formats: [...new Set(spec.formats)] }))
  .meta({ id: 'ExtractSpec' });
export type ExtractSpec = z.output<typeof extractSpecSchema>;
