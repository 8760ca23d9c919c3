import { validateAgainst } from './json-schema';
import type { ChatMessage, JsonSchema, ModelRequest } from './types';

export type ReadAnswer = { ok: true; value: Record<string, unknown> } | { ok: false; error: string };

/**
 * The model's reply text as the answer: a JSON object (a ```json fence, or prose before and after it, are tolerated:
 * the outermost {...} is taken) valid against `schema` (null: any object). Else why not, in words the model is told
 * when it is asked again (repairMessages).
 */
export function readAnswer(text: string, schema: JsonSchema | null): ReadAnswer {
  const parsed = parseObject(text);
  if (!parsed.ok) return parsed;
  const error = schema ? validateAgainst(schema, parsed.value) : null;
  return error === null ? parsed : { ok: false, error };
}

function parseObject(text: string): ReadAnswer {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start === -1 || end < start) {
    return { ok: false, error: text.trim() === '' ? 'the answer was empty' : 'the answer holds no JSON object' };
  }
  let value: unknown;
  try {
    value = JSON.parse(text.slice(start, end + 1));
  } catch (error) {
    return {
      ok: false,
      error: `the answer is not valid JSON (${error instanceof Error ? error.message : 'parse error'})`,
    };
  }
  if (!isRecord(value)) return { ok: false, error: 'the answer is not a JSON object' };
  return { ok: true, value };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The words that open the repair message: the fake model of the tests looks for them. */
const REPAIR_PREFIX = 'Your answer was not valid:';

/** The request's conversation asked again, once, with the model's bad answer and what was wrong with it. */
export function repairMessages(request: ModelRequest, badText: string, error: string): ChatMessage[] {
  return [
    ...request.messages,
    { role: 'assistant', content: badText },
    { role: 'user', content: `${REPAIR_PREFIX} ${error}. Answer again with only the JSON object.` },
  ];
}
