import type { ModelUsage } from './types';

/** A model's price in dollars per million tokens, in and out. */
export interface ModelPrice {
  inPerM: number;
  outPerM: number;
}

/** Workers AI bills neurons: $0.011 per 1,000 (developers.cloudflare.com/workers-ai/platform/pricing/, read 2026-12). */
export const USD_PER_NEURON = 0.011 / 1000;

interface PriceRow extends ModelPrice {
  /** Workers AI only: the neurons per million tokens in and out that the dollar prices are made of. */
  neurons?: { inPerM: number; outPerM: number };
}

const workersAi = (inPerM: number, outPerM: number, neuronsIn: number, neuronsOut: number): PriceRow => ({
  inPerM,
  outPerM,
  neurons: { inPerM: neuronsIn, outPerM: neuronsOut },
});

/**
 * The one table of model prices.
 * - Workers AI, the models that take JSON Mode (`response_format`, by the JSON Mode page or their own input schema):
 *   https://developers.cloudflare.com/workers-ai/platform/pricing/ ("Last updated Aug 28, 2026"), read 2026-12. Models
 *   of the JSON Mode page missing from the pricing table (llama-3.1-8b-instruct-fast, llama-3.1-70b-instruct, hermes-2-pro,
 *   deepseek-coder-6.7b) have no price here: their cost is unknown (null) unless the caller gives one.
 * - OpenAI (standard tier, https://openai.com/api/pricing/): the prices given in issue 33 (2026-12), not re-read
 *   here: there is no network on the machine this was written on.
 */
const PRICES = new Map<string, PriceRow>(
  Object.entries({
    '@cf/meta/llama-3.3-70b-instruct-fp8-fast': workersAi(0.293, 2.253, 26668, 204805),
    '@cf/meta/llama-3.1-70b-instruct-fp8-fast': workersAi(0.293, 2.253, 26668, 204805),
    '@cf/meta/llama-3.1-8b-instruct': workersAi(0.282, 0.827, 25608, 75147),
    '@cf/meta/llama-3-8b-instruct': workersAi(0.282, 0.827, 25608, 75147),
    '@cf/meta/llama-3.2-11b-vision-instruct': workersAi(0.049, 0.676, 4410, 61493),
    '@cf/meta/llama-4-scout-17b-16e-instruct': workersAi(0.27, 0.85, 24545, 77273),
    '@cf/deepseek-ai/deepseek-r1-distill-qwen-32b': workersAi(0.497, 4.881, 45170, 443756),
    '@cf/qwen/qwen3-30b-a3b-fp8': workersAi(0.051, 0.335, 4625, 30475),
    '@cf/qwen/qwen2.5-coder-32b-instruct': workersAi(0.66, 1.0, 60000, 90909),
    '@cf/aisingapore/gemma-sea-lion-v4-27b-it': workersAi(0.351, 0.555, 31876, 50488),
    '@cf/zai-org/glm-4.7-flash': workersAi(0.06, 0.4, 5500, 36400),
    '@cf/google/gemma-4-26b-a4b-it': workersAi(0.1, 0.3, 9091, 27273),
    '@cf/openai/gpt-oss-20b': workersAi(0.2, 0.3, 18182, 27273),
    '@cf/openai/gpt-oss-120b': workersAi(0.35, 0.75, 31818, 68182),
    '@cf/ibm-granite/granite-4.0-h-micro': workersAi(0.017, 0.112, 1542, 10158),
    // OpenAI, standard tier.
    'gpt-4o-mini': { inPerM: 0.15, outPerM: 0.6 },
    'gpt-4o': { inPerM: 2.5, outPerM: 10 },
    'gpt-4.1-mini': { inPerM: 0.4, outPerM: 1.6 },
    'gpt-4.1-nano': { inPerM: 0.1, outPerM: 0.4 },
  }),
);

const FREE: ModelPrice = { inPerM: 0, outPerM: 0 };

/**
 * A model's price, or null when it is not known. A model served from this machine (an OpenAI-compatible `baseUrl` on
 * a loopback address: Ollama, llama.cpp, vLLM run locally) costs nothing. OpenAI's names are taken with or without an
 * `openai/` prefix or a date suffix (gpt-4o-mini-2024-07-18).
 */
export function modelPrice(model: string, baseUrl?: string | null): ModelPrice | null {
  if (baseUrl && isLoopback(baseUrl)) return FREE;
  const row = PRICES.get(model) ?? PRICES.get(model.replace(/^openai\//, '').replace(/-\d{4}-\d{2}-\d{2}$/, ''));
  return row ? { inPerM: row.inPerM, outPerM: row.outPerM } : null;
}

/** What `usage` cost in dollars: at `override` when given, else at modelPrice; null when the price is not known. */
export function modelCostUsd(
  model: string,
  usage: ModelUsage,
  override?: ModelPrice | null,
  baseUrl?: string | null,
): number | null {
  const price = override ?? modelPrice(model, baseUrl);
  if (!price) return null;
  return (usage.tokensIn * price.inPerM + usage.tokensOut * price.outPerM) / 1e6;
}

/** Workers AI's neurons for `usage` of `model`, or null when it is not a Workers AI model of the table. */
export function modelNeurons(model: string, usage: ModelUsage): number | null {
  const neurons = PRICES.get(model)?.neurons;
  if (!neurons) return null;
  return (usage.tokensIn * neurons.inPerM + usage.tokensOut * neurons.outPerM) / 1e6;
}

function isLoopback(baseUrl: string): boolean {
  let host: string;
  try {
    host = new URL(baseUrl).hostname.toLowerCase();
  } catch {
    return false;
  }
  return host === 'localhost' || host.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(host) || host === '[::1]';
}
