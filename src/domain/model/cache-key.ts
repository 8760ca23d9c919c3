import { sha256Hex } from '../util/hash';
import type { ModelClient, ModelRequest } from './types';

/** Bumped when what a key covers, or how an answer is made from a reply, changes: old answers are then not reused. */
const ANSWER_KEY_VERSION = 1;

/**
 * The key of a request's answer in the answers' cache: SHA-256 (hex) of a canonical JSON (keys sorted at every level)
 * of the provider, the model, the messages (the page's content and the prompts in them), the schema and the output
 * budget. The same page content asked the same of the same model has the same key, whatever the order of the
 * schema's keys.
 */
export async function answerKey(
  client: Pick<ModelClient, 'provider' | 'model'>,
  request: ModelRequest,
): Promise<string> {
  const { messages, schema, maxTokens } = request;
  const keyed = {
    version: ANSWER_KEY_VERSION,
    provider: client.provider,
    model: client.model,
    messages,
    schema,
    maxTokens,
  };
  return sha256Hex(canonicalJson(keyed));
}

/** JSON with every object's keys sorted, so that equal values have one text. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(sorted(value));
}

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (typeof value !== 'object' || value === null) return value;
  const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries.map(([key, child]) => [key, sorted(child)]));
}
