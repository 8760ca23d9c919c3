/**
 * Settings of the model's part of extraction (docs/models.md): the default budget of one page's call, the limits on a
 * user's JSON Schema, the default model. A leaf: it imports nothing.
 */

/**
 * Tokens are estimated, not counted: ceil(characters / 4), the usual rule of thumb for English text with the
 * tokenizers of Llama and GPT models. It errs high on prose and low on dense markup or non-Latin scripts, which is why
 * the default input budget sits well under the smallest context window of the models we default to.
 */
export const CHARS_PER_TOKEN = 4;

/** Tokens of one page's request (system message, page, prompts) when the caller gives no budget. */
export const MODEL_INPUT_TOKENS = 6000;

/** Tokens the model may answer with when the caller gives no budget. */
export const MODEL_OUTPUT_TOKENS = 1024;

/** The summary's prompt when the user asks for a summary without one. */
export const DEFAULT_SUMMARY_PROMPT = 'Summarize the page in 2-3 sentences.';

/** A user's JSON Schema: at most this many bytes as JSON... */
export const SCHEMA_MAX_BYTES = 16 * 1024;

/** ...and at most this deep (objects and arrays within one another). */
export const SCHEMA_MAX_DEPTH = 32;

/** A provider's error message is cut to this many characters before it is kept or shown. */
export const PROVIDER_MESSAGE_CHARS = 300;

/** How many of a validation's errors are told, one line. */
export const VALIDATION_ERRORS_TOLD = 3;

/** An OpenAI-compatible endpoint's call is abandoned after this long (then unavailable: the page is tried later). */
export const MODEL_TIMEOUT_MS = 60_000;

/**
 * Workers AI's model when AI_MODEL is not set. Of the models that are not reasoning models (no hidden thinking tokens,
 * an answer's length that the output budget bounds), Llama 3.3 70B fp8-fast is the only one on Workers AI's JSON Mode
 * list that also declares `response_format` in its own input schema, is typed in AiModels and is in the pricing table
 * (research read 2026-12: developers.cloudflare.com/workers-ai/features/json-mode/, .../platform/pricing/). About
 * $1.55 per 1,000 pages at 3,000 tokens in and 300 out ($0.293 / $2.253 per million); 24,000 tokens of context, well
 * over MODEL_INPUT_TOKENS + MODEL_OUTPUT_TOKENS. The 8B Llamas of the list cost about as much per page ($0.282 /
 * $0.827) for far less quality; @cf/qwen/qwen3-30b-a3b-fp8 is 6 times cheaper but a reasoning model, off the list:
 * worth measuring, not a default.
 */
export const DEFAULT_WORKERS_AI_MODEL = '@cf/meta/llama-3.3-70b-instruct-fp8-fast';
