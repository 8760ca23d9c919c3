import { describe, expect, it } from 'vitest';
import { answerKey } from '../../../src/domain/model/cache-key';
import { modelCostUsd, modelNeurons, modelPrice, USD_PER_NEURON } from '../../../src/domain/model/prices';
import type { ModelRequest } from '../../../src/domain/model/types';

describe('model prices', () => {
  it('prices Workers AI and OpenAI models per million tokens', () => {
    expect(modelPrice('@cf/meta/llama-3.3-70b-instruct-fp8-fast')).toEqual({ inPerM: 0.293, outPerM: 2.253 });
    expect(modelPrice('gpt-4o-mini')).toEqual({ inPerM: 0.15, outPerM: 0.6 });
    expect(modelPrice('openai/gpt-4.1-mini')).toEqual({ inPerM: 0.4, outPerM: 1.6 });
    expect(modelPrice('gpt-4o-2024-08-06')).toEqual({ inPerM: 2.5, outPerM: 10 });
    expect(modelPrice('unknown-model')).toBeNull();
    expect(modelPrice('constructor')).toBeNull();
  });

  it('costs nothing for a model on a loopback address', () => {
    expect(modelPrice('llama3.2', 'http://127.0.0.1:11434/v1')).toEqual({ inPerM: 0, outPerM: 0 });
    expect(modelPrice('gpt-4o', 'http://localhost:8080/v1')).toEqual({ inPerM: 0, outPerM: 0 });
    expect(modelPrice('gpt-4o', 'https://api.openai.com/v1')).toEqual({ inPerM: 2.5, outPerM: 10 });
  });

  it('costs usage in dollars, at an override when given', () => {
    const usage = { tokensIn: 3000, tokensOut: 300 };
    // 3,000 in and 300 out of the default model: about $1.55 per 1,000 pages.
    expect(modelCostUsd('@cf/meta/llama-3.3-70b-instruct-fp8-fast', usage)! * 1000).toBeCloseTo(1.55, 2);
    expect(modelCostUsd('mystery', usage)).toBeNull();
    expect(modelCostUsd('mystery', usage, { inPerM: 1, outPerM: 10 })).toBeCloseTo(0.006, 9);
    expect(modelCostUsd('llama3.2', usage, null, 'http://127.0.0.1:11434/v1')).toBe(0);
  });

  it('agrees with the neurons Workers AI bills', () => {
    const usage = { tokensIn: 1e6, tokensOut: 1e6 };
    const model = '@cf/meta/llama-3.3-70b-instruct-fp8-fast';
    expect(modelNeurons(model, usage)! * USD_PER_NEURON).toBeCloseTo(modelCostUsd(model, usage)!, 2);
    expect(modelNeurons('gpt-4o', usage)).toBeNull();
  });
});

describe('answerKey', () => {
  const request: ModelRequest = {
    messages: [
      { role: 'system', content: 's' },
      { role: 'user', content: 'page' },
    ],
    schema: { type: 'object', properties: { a: { type: 'string' }, b: { type: 'number' } } },
    maxTokens: 100,
  };
  const client = { provider: 'workers-ai' as const, model: 'm' };

  it('is the same for the same content, schema, prompt and model, whatever the order of keys', async () => {
    const key = await answerKey(client, request);
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    const reordered = {
      ...request,
      schema: { properties: { b: { type: 'number' }, a: { type: 'string' } }, type: 'object' },
    };
    expect(await answerKey({ model: 'm', provider: 'workers-ai' }, reordered)).toBe(key);
  });

  it('differs when any of them differs', async () => {
    const key = await answerKey(client, request);
    const keys = await Promise.all([
      answerKey({ ...client, model: 'n' }, request),
      answerKey({ ...client, provider: 'openai-compatible' }, request),
      answerKey(client, { ...request, maxTokens: 101 }),
      answerKey(client, { ...request, schema: null }),
      answerKey(client, {
        ...request,
        messages: [...request.messages.slice(0, 1), { role: 'user', content: 'page 2' }],
      }),
    ]);
    expect(new Set([key, ...keys]).size).toBe(6);
  });
});
