import { z } from 'zod';
import { estimateTokens } from '../../domain/model/budget';
import { type ModelClient, ModelError, type ModelReply, type ModelRequest } from '../../domain/model/types';
import { providerMessage } from './provider-errors';

/**
 * What this client needs of the Workers AI binding (`env.AI`, an `[ai]` binding in wrangler.toml): its `run`. Typed
 * structurally so that the client does not depend on the generated binding types, and its result is validated.
 */
export interface AiBinding {
  run(model: string, inputs: object, options?: object): Promise<unknown>;
}

export interface WorkersAiOptions {
  /** A Workers AI model id, e.g. @cf/meta/llama-3.3-70b-instruct-fp8-fast. */
  model: string;
  /** An AI Gateway to route the calls through (logs, caching, rate limits), when set. */
  gatewayId?: string | null;
  /** Abandon a call after this long (an unavailable error); none when unset. */
  timeoutMs?: number | null;
}

/**
 * A client of Workers AI through its binding: temperature 0, the answer's schema as JSON Mode's
 * `response_format: {type: "json_schema", json_schema: <schema>}` (the schema itself, not OpenAI's {name, schema}
 * wrapper, except for the models that take OpenAI's input), or json_object when any object will do. Real Workers AI
 * cannot be reached offline (wrangler dev --local and the tests' workerd reject `run` with "Binding AI needs to be run
 * remotely"): its contract is tested against a stand-in binding, test/unit/model/workers-ai.test.ts.
 */
export function workersAiClient(ai: AiBinding, options: WorkersAiOptions): ModelClient {
  return {
    provider: 'workers-ai',
    model: options.model,
    complete: async (request) => {
      let result: unknown;
      try {
        result = await ai.run(options.model, inputsOf(options.model, request), runOptions(options));
      } catch (error) {
        throw workersAiError(error);
      }
      return replyOf(result, request);
    },
  };
}

function inputsOf(model: string, request: ModelRequest): object {
  const { schema } = request;
  const jsonSchema = schema && (OPENAI_SHAPED.test(model) ? { name: 'page', schema, strict: false } : schema);
  return {
    messages: request.messages,
    temperature: 0,
    max_tokens: request.maxTokens,
    response_format: jsonSchema ? { type: 'json_schema', json_schema: jsonSchema } : { type: 'json_object' },
  };
}

/**
 * The newer models take OpenAI's chat-completions input, whose json_schema nests the schema as OpenAI does
 * (`{name, schema, strict}`: ResponseFormatJSONSchema in worker-configuration.d.ts); the legacy ones (Llama 3.x, Qwen3
 * 30B, Llama 4 Scout...) take the schema itself.
 */
const OPENAI_SHAPED =
  /^@cf\/(?:zai-org\/|moonshotai\/|google\/gemma-4|deepseek-ai\/deepseek-v4|qwen\/qwen3\.8|nvidia\/nemotron|openai\/gpt-oss)/;

function runOptions(options: WorkersAiOptions): object | undefined {
  const run: { gateway?: { id: string }; signal?: AbortSignal } = {};
  if (options.gatewayId) run.gateway = { id: options.gatewayId };
  if (options.timeoutMs) run.signal = AbortSignal.timeout(options.timeoutMs);
  return Object.keys(run).length > 0 ? run : undefined;
}

/**
 * A text generation's result (read 2026-12: developers.cloudflare.com/workers-ai/features/json-mode/, the AiModels
 * types of worker-configuration.d.ts, cloudflare/workers-sdk#12398): the legacy models' `{response, usage}`, where
 * JSON Mode's `response` is often the object already parsed (written back as JSON here) though typed a string; or a
 * chat completion's `{choices: [{message: {content}}], usage}` (the newer models, and Qwen3 at times). `usage` is
 * optional: missing, the tokens are estimated.
 */
const usageSchema = z
  .object({ prompt_tokens: z.number().nonnegative(), completion_tokens: z.number().nonnegative() })
  .partial()
  .nullish();
const resultSchema = z.union([
  z.object({
    choices: z.array(z.object({ message: z.object({ content: z.string().nullish() }) })).min(1),
    usage: usageSchema,
  }),
  z.object({
    response: z.union([z.string(), z.record(z.string(), z.unknown()), z.array(z.unknown())]).nullish(),
    usage: usageSchema,
  }),
]);

function replyOf(result: unknown, request: ModelRequest): ModelReply {
  const parsed = resultSchema.safeParse(result);
  if (!parsed.success) throw new ModelError('refused', 'Workers AI answered something other than a text generation');
  const { usage } = parsed.data;
  const response = 'choices' in parsed.data ? parsed.data.choices[0]?.message.content : parsed.data.response;
  const text = response == null ? '' : typeof response === 'string' ? response : JSON.stringify(response);
  return {
    text,
    usage: {
      tokensIn: usage?.prompt_tokens ?? estimateTokens(request.messages.map((m) => m.content).join('\n')),
      tokensOut: usage?.completion_tokens ?? estimateTokens(text),
    },
  };
}

/**
 * A thrown error of the binding as a ModelError. The binding rejects with an Error whose message carries Workers AI's
 * internal code (`AiError: 3040: Capacity temporarily exceeded`; codes: developers.cloudflare.com/workers-ai/platform/
 * errors/, read 2026-12):
 * - the account's daily free allocation used up (3036, also seen as 4006): rate_limited until 00:00 UTC, when it resets;
 * - out of capacity (3040), a 429, "rate limit" (also AI Gateway's limits, a plain 429): rate_limited;
 * - timeouts and aborts (3007, 3008, our signal), 5xx and internal errors, the network: unavailable;
 * - the rest, refused: an invalid input (5004, 5006), no such model (5007, 3042), a request too large (3006), a model
 *   needing terms or a paid plan (5016, 5035), JSON Mode's "JSON Mode couldn't be met", and "Binding AI needs to be
 *   run remotely" (wrangler dev --local and the tests: there is no local Workers AI).
 */
export function workersAiError(error: unknown, now = Date.now()): ModelError {
  const raw = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  const message = `Workers AI: ${providerMessage(raw)}`;
  if (DAILY_LIMIT.test(raw)) return new ModelError('rate_limited', message, untilUtcMidnight(now));
  if (RATE_LIMITED.test(raw)) return new ModelError('rate_limited', message);
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
    return new ModelError('unavailable', message);
  }
  if (UNAVAILABLE.test(raw)) return new ModelError('unavailable', message);
  return new ModelError('refused', message);
}

const DAILY_LIMIT = /\b3036\b|\b4006\b|daily free allocation|account limited/i;
const RATE_LIMITED = /\b429\b|\b3040\b|rate.?limit|too many requests|capacity/i;
const UNAVAILABLE =
  /\b5\d\d\b|\b300[78]\b|internal (?:server )?error|timed? ?out|aborted|network|unavailable|connection (?:reset|refused|closed)/i;

function untilUtcMidnight(now: number): number {
  const midnight = new Date(now);
  midnight.setUTCHours(24, 0, 0, 0);
  return midnight.getTime() - now;
}
