import { DEFAULT_WORKERS_AI_MODEL, MODEL_TIMEOUT_MS } from '../../domain/model/limits';
import type { ModelPrice } from '../../domain/model/prices';
import type { ModelClient } from '../../domain/model/types';
import { openAiClient } from './openai';
import { type AiBinding, workersAiClient } from './workers-ai';

/** The Worker's settings that choose a model (wrangler.toml vars and secrets; `AI` the Workers AI binding). */
export interface ModelEnv {
  AI?: unknown;
  LLM_BASE_URL?: string;
  LLM_MODEL?: string;
  LLM_API_KEY?: string;
  AI_MODEL?: string;
  AI_GATEWAY_ID?: string;
  WORKERS_AI?: string;
  LLM_PRICE_IN?: string;
  LLM_PRICE_OUT?: string;
}

/**
 * The model the Worker is configured with: an OpenAI-compatible endpoint when LLM_BASE_URL and LLM_MODEL are both
 * set (it wins over the binding: naming an endpoint is a choice, having the binding may not be), else Workers AI
 * through the `AI` binding (AI_MODEL, or DEFAULT_WORKERS_AI_MODEL), else null: no model, and extraction that asks one
 * says so. Throws when LLM_BASE_URL is not an http(s) URL (a configuration error, not a page's).
 */
export function modelClientOf(env: ModelEnv): ModelClient | null {
  const baseUrl = env.LLM_BASE_URL?.trim();
  const model = env.LLM_MODEL?.trim();
  if (baseUrl && model) {
    if (!isHttpUrl(baseUrl))
      throw new Error(`LLM_BASE_URL must be an http or https URL, not ${JSON.stringify(baseUrl)}`);
    return openAiClient({ baseUrl, model, apiKey: env.LLM_API_KEY || null, timeoutMs: MODEL_TIMEOUT_MS });
  }
  // WORKERS_AI=off: wrangler dev --local (npm start, the tests) has the binding but cannot run it.
  const ai = env.WORKERS_AI === 'off' ? null : aiBinding(env.AI);
  if (!ai) return null;
  return workersAiClient(ai, {
    model: env.AI_MODEL?.trim() || DEFAULT_WORKERS_AI_MODEL,
    gatewayId: env.AI_GATEWAY_ID?.trim() || null,
    timeoutMs: MODEL_TIMEOUT_MS,
  });
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** The binding when `value` has a `run` method (what the client uses of it; its answers are validated there). */
function aiBinding(value: unknown): AiBinding | null {
  if (typeof value !== 'object' || value === null || !('run' in value)) return null;
  const run = value.run;
  if (typeof run !== 'function') return null;
  return { run: async (model, inputs, options): Promise<unknown> => run.call(value, model, inputs, options) };
}

/**
 * What an endpoint's tokens cost when the price table (domain/model/prices.ts) does not know its model: LLM_PRICE_IN and
 * LLM_PRICE_OUT, US dollars per million tokens; null unless both are numbers.
 */
export function modelPriceOverride(env: Pick<ModelEnv, 'LLM_PRICE_IN' | 'LLM_PRICE_OUT'>): ModelPrice | null {
  const [inPerM, outPerM] = [Number(env.LLM_PRICE_IN), Number(env.LLM_PRICE_OUT)];
  if (!env.LLM_PRICE_IN || !env.LLM_PRICE_OUT || !Number.isFinite(inPerM) || !Number.isFinite(outPerM)) return null;
  return { inPerM, outPerM };
}
