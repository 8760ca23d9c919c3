import { answerSchema } from './answer-schema';
import { cutToFit, estimateTokens } from './budget';
import { DEFAULT_SUMMARY_PROMPT, MODEL_INPUT_TOKENS, MODEL_OUTPUT_TOKENS } from './limits';
import type { ChatMessage, JsonSchema, MarkdownCut, ModelAsk, ModelRequest } from './types';

/** The page a request is about: its URL, title and main content as Markdown (from extraction). */
export interface ModelPage {
  url: string;
  title: string | null;
  markdown: string;
}

/** Tokens (estimated: budget.ts) the request may take, and the answer. */
export interface ModelBudget {
  inputTokens: number;
  outputTokens: number;
}

/** The budget when the caller sets none (limits.ts). */
export const DEFAULT_MODEL_BUDGET: ModelBudget = { inputTokens: MODEL_INPUT_TOKENS, outputTokens: MODEL_OUTPUT_TOKENS };

export const SYSTEM_PROMPT = [
  'You extract information from a web page.',
  'Answer with one JSON object only: no prose before or after it, no code fence.',
  'Take every value from the page and never invent one: when the page does not give a value, use null.',
].join(' ');

/** The request for a page: one call, whatever is asked (JSON, a summary, or both: answer-schema.ts). */
export function modelRequest(ask: ModelAsk, page: ModelPage, budget: ModelBudget): ModelRequest {
  return pageRequest(ask, page, budget).request;
}

/**
 * The request for a page, and how its Markdown was cut to fit `budget.inputTokens` (null: it all went), for the
 * caller to warn. The cut keeps the page's head (budget.ts); what the rest of the prompt and the answer's schema take
 * is counted first.
 */
export function pageRequest(
  ask: ModelAsk,
  page: ModelPage,
  budget: ModelBudget,
): { request: ModelRequest; cut: MarkdownCut | null } {
  const schema = answerSchema(ask);
  const task = taskOf(ask);
  const bare = userMessage(page, '', task);
  const rest =
    estimateTokens(SYSTEM_PROMPT) + estimateTokens(bare) + (schema ? estimateTokens(JSON.stringify(schema)) : 0);
  const { text, cut } = cutToFit(page.markdown, budget.inputTokens - rest);
  const messages: ChatMessage[] = [
    { role: 'system', content: SYSTEM_PROMPT },
    { role: 'user', content: userMessage(page, text, task) },
  ];
  return { request: { messages, schema, maxTokens: budget.outputTokens }, cut };
}

function userMessage(page: ModelPage, markdown: string, task: string): string {
  return [
    `Page URL: ${page.url}`,
    `Page title: ${page.title ?? '(none)'}`,
    '',
    'Page content (Markdown), between the lines <<< and >>>:',
    '<<<',
    markdown,
    '>>>',
    '',
    task,
  ].join('\n');
}

/** What to do with the page, the user's prompts included. */
function taskOf(ask: ModelAsk): string {
  const json = ask.json ? jsonTask(ask.json.schema, ask.json.prompt) : null;
  const summary = ask.summary ? (ask.summary.prompt ?? DEFAULT_SUMMARY_PROMPT) : null;
  if (json !== null && summary !== null) {
    return `Answer with an object of two properties.\n"json": ${json}\n"summary": a string. ${summary}`;
  }
  if (json !== null) return `Answer with ${json}`;
  if (summary !== null) return `Answer with an object whose property "summary" is a string. ${summary}`;
  throw new Error('modelRequest: the ask asks for nothing');
}

function jsonTask(schema: JsonSchema | null, prompt: string | null): string {
  const given = schema ? 'the values the JSON Schema of the answer asks for, read from the page.' : 'a JSON object.';
  return prompt ? `${given} ${prompt}` : given;
}

/** Words that introduce the schema in a prompt (schemaInPrompt): the fake model of the tests looks for them. */
const SCHEMA_IN_PROMPT = 'The JSON object must follow this JSON Schema:';

/**
 * The request with its schema told in the system message, for an endpoint that takes no json_schema response format
 * (it is then asked for any JSON object, and the answer is still checked against the schema).
 */
export function schemaInPrompt(request: ModelRequest): ModelRequest {
  if (!request.schema) return request;
  const note = `${SCHEMA_IN_PROMPT} ${JSON.stringify(request.schema)}`;
  const [first, ...rest] = request.messages;
  if (first?.role !== 'system')
    return { ...request, messages: [{ role: 'system', content: note }, ...request.messages] };
  return { ...request, messages: [{ role: 'system', content: `${first.content}\n${note}` }, ...rest] };
}
