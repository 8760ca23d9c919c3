import type { JsonSchema, ModelAsk } from './types';

/**
 * The schema of the answer to an ask, one call whatever is asked: both JSON and a summary, a wrapper object
 * `{json, summary}`; JSON only, the user's schema itself (null: any JSON object, when only a prompt is given); a
 * summary only, `{summary}`. Null also when nothing is asked (there is no call then).
 */
export function answerSchema(ask: ModelAsk): JsonSchema | null {
  if (ask.json && ask.summary) {
    return {
      type: 'object',
      properties: { json: ask.json.schema ?? { type: 'object' }, summary: { type: 'string' } },
      required: ['json', 'summary'],
      additionalProperties: false,
    };
  }
  if (ask.json) return ask.json.schema;
  if (ask.summary) return SUMMARY_ONLY;
  return null;
}

const SUMMARY_ONLY: JsonSchema = {
  type: 'object',
  properties: { summary: { type: 'string' } },
  required: ['summary'],
  additionalProperties: false,
};

/**
 * The JSON and the summary in an answer already valid against answerSchema(ask) (answer.ts): the wrapper unwrapped,
 * or the answer itself when only JSON was asked.
 */
export function unwrapAnswer(ask: ModelAsk, value: Record<string, unknown>): { json?: unknown; summary?: string } {
  const summary = typeof value.summary === 'string' ? value.summary : undefined;
  if (ask.json && ask.summary) return { json: value.json, ...(summary === undefined ? {} : { summary }) };
  if (ask.json) return { json: value };
  return summary === undefined ? {} : { summary };
}
