import { z } from 'zod';
import { estimateTokens } from '../../domain/model/budget';
import { schemaInPrompt } from '../../domain/model/prompt';
import { type ModelClient, ModelError, type ModelReply, type ModelRequest } from '../../domain/model/types';
import { parseJsonOrNull } from '../../domain/util/json';
import { networkError, providerMessage, statusError } from './provider-errors';

export interface OpenAiOptions {
  /** The API's base, up to `/v1` (a trailing slash is dropped): https://api.openai.com/v1, http://127.0.0.1:11434/v1. */
  baseUrl: string;
  model: string;
  /** Sent as `Authorization: Bearer` when set; never logged nor put in an error's message. */
  apiKey?: string | null;
  timeoutMs: number;
  fetch?: typeof fetch;
}

/**
 * A client of an OpenAI-compatible chat-completions endpoint (OpenAI, Ollama, vLLM, llama.cpp's server, LM Studio...):
 * one POST per request, temperature 0, the answer's schema as `response_format` json_schema (not strict: a user's
 * schema need not meet strict mode's rules). A server that refuses json_schema (a 400 about response_format: older
 * servers, some Ollama versions) is asked again once in json_object mode, the schema then given in the prompt.
 */
export function openAiClient(options: OpenAiOptions): ModelClient {
  const endpoint = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  return {
    provider: 'openai-compatible',
    model: options.model,
    complete: async (request) => {
      const first = await post(options, endpoint, bodyOf(options.model, request, true));
      if (first.status === 400 && request.schema && /response_format|json_schema/i.test(first.text)) {
        const fallback = schemaInPrompt(request);
        return replyOf(options, await post(options, endpoint, bodyOf(options.model, fallback, false)), fallback);
      }
      return replyOf(options, first, request);
    },
  };
}

function bodyOf(model: string, request: ModelRequest, jsonSchema: boolean): string {
  const format =
    jsonSchema && request.schema
      ? { type: 'json_schema', json_schema: { name: 'page', schema: request.schema, strict: false } }
      : { type: 'json_object' };
  return JSON.stringify({
    model,
    messages: request.messages,
    temperature: 0,
    max_tokens: request.maxTokens,
    response_format: format,
  });
}

interface Answered {
  status: number;
  headers: Headers;
  text: string;
}

async function post(options: OpenAiOptions, endpoint: string, body: string): Promise<Answered> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
  const doFetch = options.fetch ?? fetch;
  try {
    const response = await doFetch(endpoint, {
      method: 'POST',
      headers,
      body,
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    return { status: response.status, headers: response.headers, text: await response.text() };
  } catch (error) {
    throw networkError(error, options.timeoutMs);
  }
}

const completionSchema = z.object({
  choices: z
    .array(z.object({ message: z.object({ content: z.string().nullish(), refusal: z.string().nullish() }) }))
    .min(1),
  usage: z
    .object({ prompt_tokens: z.number().int().nonnegative(), completion_tokens: z.number().int().nonnegative() })
    .nullish(),
});

function replyOf(options: OpenAiOptions, answered: Answered, request: ModelRequest): ModelReply {
  if (answered.status < 200 || answered.status >= 300) {
    throw statusError(answered.status, answered.headers, providerMessage(errorText(answered.text), [options.apiKey]));
  }
  const parsed = completionSchema.safeParse(parseJsonOrNull(answered.text));
  if (!parsed.success)
    throw new ModelError('refused', 'the model endpoint answered something other than a chat completion');
  const message = parsed.data.choices[0]?.message;
  const text = message?.content ?? '';
  if (text === '' && message?.refusal) {
    throw new ModelError('refused', `the model refused: ${providerMessage(message.refusal, [options.apiKey])}`);
  }
  const usage = parsed.data.usage;
  return {
    text,
    usage: usage
      ? { tokensIn: usage.prompt_tokens, tokensOut: usage.completion_tokens }
      : {
          tokensIn: estimateTokens(request.messages.map((m) => m.content).join('\n')),
          tokensOut: estimateTokens(text),
        },
  };
}

const errorSchema = z.object({ error: z.union([z.string(), z.object({ message: z.string() })]) });

/** The message in an error's body (`{error: {message}}` as OpenAI, `{error: "..."}` as Ollama), else the body. */
function errorText(body: string): string {
  const parsed = errorSchema.safeParse(parseJsonOrNull(body));
  if (!parsed.success) return body;
  return typeof parsed.data.error === 'string' ? parsed.data.error : parsed.data.error.message;
}
