/**
 * The language model's part of extraction (docs/models.md): what a page asks of a model, what goes to it, what comes
 * back. Pure types: the clients that speak to Workers AI or an OpenAI-compatible endpoint are in src/page/model/.
 */

/** A JSON Schema as the user gave it (a JSON object, checked at the boundary: json-schema.ts). */
export type JsonSchema = { [key: string]: unknown };

/** What a page's extraction asks of the model: JSON (by schema, by prompt, or both) and/or a summary. */
export interface ModelAsk {
  json: { schema: JsonSchema | null; prompt: string | null } | null;
  summary: { prompt: string | null } | null;
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** One chat completion: temperature 0, the answer a JSON object (by `schema` when given, any object when null). */
export interface ModelRequest {
  messages: ChatMessage[];
  schema: JsonSchema | null;
  maxTokens: number;
}

export interface ModelUsage {
  tokensIn: number;
  tokensOut: number;
}

/** The model's answer: its text (a JSON object's text, when it kept to the format) and the tokens it counted. */
export interface ModelReply {
  text: string;
  usage: ModelUsage;
}

/**
 * Why a call failed: rate_limited (429: try again later, Retry-After when given) and unavailable (5xx, a network
 * failure, a timeout) are for the caller to retry later without using up the page's attempts; refused (4xx other than
 * 429: a bad key, an unknown model, a request too large) is not retried; paced: never sent, the account's calls are
 * spaced (MODEL_REQUESTS_PER_MINUTE) and none is free soon enough: try again at retryAfterMs, no delivery used up.
 */
export type ModelErrorKind = 'rate_limited' | 'unavailable' | 'refused' | 'paced';

export class ModelError extends Error {
  readonly kind: ModelErrorKind;
  readonly retryAfterMs: number | null;

  // No parameter properties: Node runs the test support's fake model from source, stripping types only.
  constructor(kind: ModelErrorKind, message: string, retryAfterMs: number | null = null) {
    super(message);
    this.name = 'ModelError';
    this.kind = kind;
    this.retryAfterMs = retryAfterMs;
  }
}

/** A model to ask: Workers AI's binding or an OpenAI-compatible endpoint; `model` names it (what prices and the cache key go by). */
export interface ModelClient {
  readonly provider: 'workers-ai' | 'openai-compatible';
  readonly model: string;
  complete(request: ModelRequest): Promise<ModelReply>;
}

/**
 * What a page got from the model: `json` valid against the schema, `summary`, and for each that could not be had why
 * (errors.json, errors.summary). `calls` and the tokens are what it cost (0 calls: answered from the cache).
 */
export interface ModelAnswer {
  json?: unknown;
  summary?: string;
  errors: { json?: string; summary?: string };
  calls: number;
  usage: ModelUsage;
}

/** How much of a page's Markdown went to the model, when not all of it did (budget.ts). */
export interface MarkdownCut {
  keptChars: number;
  totalChars: number;
}
