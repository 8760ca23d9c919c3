/**
 * The language model's flags of `crawl` and `scrape` (formats "json" and "summary": docs/models.md): read into what
 * they add to the extract spec, and merged into the spec the command otherwise sends; and a page's json and summary
 * printed after its markdown.
 */
import { readFileSync } from 'node:fs';
import { CliError, isRecord, UsageError } from './errors.ts';

/** Flags both commands take. */
export const MODEL_OPTIONS = {
  'json-schema': { type: 'string' },
  prompt: { type: 'string' },
  summary: { type: 'boolean' },
  'summary-prompt': { type: 'string' },
} as const;

/** Their lines in a command's usage. */
export const MODEL_USAGE = `  --json-schema FILE   also ask a language model for JSON of each page, valid against the JSON Schema in FILE
  --prompt TEXT        what that JSON should hold, in words; alone (no --json-schema): JSON by prompt
  --summary            also ask the model for a summary of each page
  --summary-prompt T   how to summarize (implies --summary; default: 2-3 sentences)`;

/** The API's formats when a spec names none. */
const DEFAULT_FORMATS = ['markdown', 'metadata'];

interface ModelValues {
  'json-schema'?: string | undefined;
  prompt?: string | undefined;
  summary?: boolean | undefined;
  'summary-prompt'?: string | undefined;
  'learn-selectors'?: boolean | undefined;
}

/** What the flags ask of the model: the formats to add and their parts of the spec. */
export interface ModelAsk {
  formats: ('json' | 'summary')[];
  json?: { schema?: Record<string, unknown>; prompt?: string; learnSelectors?: true };
  summary?: { prompt?: string };
}

/** The flags read, or null when none was given; `--learn-selectors` needs `--json-schema`. */
export function readModelFlags(values: ModelValues, usage: string): ModelAsk | null {
  const schemaFile = values['json-schema'];
  const prompt = values.prompt;
  const learn = values['learn-selectors'] === true;
  const summaryPrompt = values['summary-prompt'];
  if (learn && schemaFile === undefined)
    throw new UsageError('--learn-selectors needs --json-schema: selectors are written for its properties', usage);
  const ask: ModelAsk = { formats: [] };
  if (schemaFile !== undefined || prompt !== undefined) {
    ask.formats.push('json');
    ask.json = {
      ...(schemaFile === undefined ? {} : { schema: readSchemaFile(schemaFile) }),
      ...(prompt === undefined ? {} : { prompt }),
      ...(learn ? { learnSelectors: true } : {}),
    };
  }
  if (values.summary || summaryPrompt !== undefined) {
    ask.formats.push('summary');
    ask.summary = summaryPrompt === undefined ? {} : { prompt: summaryPrompt };
  }
  return ask.formats.length === 0 ? null : ask;
}

/** The JSON Schema in `path`: a JSON object, or a CliError naming the file and what is wrong. */
function readSchemaFile(path: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new CliError(`--json-schema ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  let schema: unknown;
  try {
    schema = JSON.parse(text);
  } catch (error) {
    throw new CliError(
      `--json-schema ${path} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (!isRecord(schema))
    throw new CliError(
      `--json-schema ${path} must hold a JSON object (a JSON Schema), not ${Array.isArray(schema) ? 'an array' : JSON.stringify(schema)}`,
    );
  return schema;
}

/**
 * `spec` (the extract spec the command would send; undefined: the API's default, markdown and metadata) with the
 * model's formats added to its formats and its json and summary parts set (the flags' keys over the spec's).
 */
export function withModel(spec: Record<string, unknown> | undefined, ask: ModelAsk): Record<string, unknown> {
  const base = spec ?? {};
  const given: unknown[] = Array.isArray(base.formats) ? base.formats : DEFAULT_FORMATS;
  const formats = [...given, ...ask.formats.filter((f) => !given.includes(f))];
  const merged: Record<string, unknown> = { ...base, formats };
  if (ask.json) merged.json = { ...(isRecord(base.json) ? base.json : {}), ...ask.json };
  if (ask.summary) merged.summary = { ...(isRecord(base.summary) ? base.summary : {}), ...ask.summary };
  return merged;
}

/** What a page's answer says of the model: its json and summary, how they were had, or why there is no json. */
export interface ModelFacts {
  json?: unknown;
  summary?: string | undefined;
  model?: { name: string; answer: string } | undefined;
  fieldErrors?: Record<string, string> | undefined;
}

/**
 * A page's summary and json as markdown to print after its markdown ("## Summary", "## JSON" in a ```json block),
 * '' when it has neither.
 */
export function modelMarkdown(page: ModelFacts): string {
  const parts: string[] = [];
  if (typeof page.summary === 'string') parts.push(`## Summary\n\n${page.summary.trim()}\n`);
  if (page.json !== undefined) parts.push(`## JSON\n\n\`\`\`json\n${JSON.stringify(page.json, null, 2)}\n\`\`\`\n`);
  return parts.join('\n');
}

/** Why the page has no json, and which model answered how, for stderr; '' when there is nothing to say. */
export function modelNote(page: ModelFacts): string {
  const lines: string[] = [];
  const why = page.fieldErrors?.json;
  if (why !== undefined) lines.push(`no JSON: ${why}`);
  if (page.model && page.model.answer !== 'model')
    lines.push(`model ${page.model.name}: ${ANSWER_WORDS[page.model.answer] ?? page.model.answer}`);
  return lines.join('\n');
}

const ANSWER_WORDS: Record<string, string> = {
  cached: 'its earlier answer for the same content, reused',
  selectors: "read by the selectors it wrote for the page's template",
  none: 'no answer',
};
