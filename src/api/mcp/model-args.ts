import { z } from 'zod';
import { ToolError } from './output';

/**
 * The tools' own arguments for the language model (formats "json" and "summary", docs/models.md): shorthands that
 * build extract.json and extract.summary, beside `formats` or `extract`, so that an agent need not write the spec.
 */
export const modelArgs = z.object({
  jsonSchema: z
    .record(z.string(), z.unknown())
    .optional()
    .describe(
      'A JSON Schema of the JSON wanted of each page: adds the "json" format, and a language model answers JSON valid against it (extract.json.schema)',
    ),
  prompt: z
    .string()
    .optional()
    .describe('What that JSON should hold, in words (extract.json.prompt); alone, with no jsonSchema: JSON by prompt'),
  summaryPrompt: z
    .string()
    .optional()
    .describe(
      'Adds the "summary" format with this prompt (extract.summary.prompt); formats ["summary"] asks for one with the default prompt (2-3 sentences)',
    ),
});

export const MODEL_ARG_KEYS = ['jsonSchema', 'prompt', 'summaryPrompt'] as const;

/** The API's formats when a spec names none. */
const DEFAULT_FORMATS = ['markdown', 'metadata'];

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The API body `body` (the tool's arguments, its own taken out) with the model arguments folded into `extract`: its
 * formats (`extract.formats`, else the `formats` shorthand, else the API's default) with "json" and "summary" added,
 * `extract.json` and `extract.summary` set (the arguments over the spec's). Unchanged without model arguments.
 */
export function withModelArgs(
  body: Record<string, unknown>,
  args: z.output<typeof modelArgs>,
): Record<string, unknown> {
  const { jsonSchema, prompt, summaryPrompt } = args;
  const json = jsonSchema !== undefined || prompt !== undefined;
  if (!json && summaryPrompt === undefined) return body;
  if (body.extract === null)
    throw new ToolError('extract is null (a plain crawl): jsonSchema, prompt and summaryPrompt need pages extracted');
  const { formats: shorthand, ...rest } = body;
  const base = isRecord(body.extract) ? body.extract : {};
  const given: unknown[] = Array.isArray(base.formats)
    ? base.formats
    : Array.isArray(shorthand)
      ? shorthand
      : DEFAULT_FORMATS;
  const added = [...(json ? ['json'] : []), ...(summaryPrompt !== undefined ? ['summary'] : [])];
  const extract: Record<string, unknown> = { ...base, formats: [...given, ...added.filter((f) => !given.includes(f))] };
  if (json)
    extract.json = {
      ...(isRecord(base.json) ? base.json : {}),
      ...(jsonSchema === undefined ? {} : { schema: jsonSchema }),
      ...(prompt === undefined ? {} : { prompt }),
    };
  if (summaryPrompt !== undefined)
    extract.summary = { ...(isRecord(base.summary) ? base.summary : {}), prompt: summaryPrompt };
  return { ...rest, extract };
}
