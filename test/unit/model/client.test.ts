import { describe, expect, it } from 'vitest';
import { DEFAULT_WORKERS_AI_MODEL } from '../../../src/domain/model/limits';
import { modelClientOf } from '../../../src/page/model/client';

const AI = { run: async () => ({ response: '{}' }) };

describe('modelClientOf', () => {
  it('prefers an OpenAI-compatible endpoint when both its URL and model are set', () => {
    const client = modelClientOf({ AI, LLM_BASE_URL: 'http://127.0.0.1:11434/v1', LLM_MODEL: 'llama3.2' });
    expect(client).toMatchObject({ provider: 'openai-compatible', model: 'llama3.2' });
  });

  it('uses the AI binding otherwise, with AI_MODEL or the default model', async () => {
    expect(modelClientOf({ AI, LLM_BASE_URL: 'http://127.0.0.1:11434/v1' })).toMatchObject({
      provider: 'workers-ai',
      model: DEFAULT_WORKERS_AI_MODEL,
    });
    const client = modelClientOf({ AI, AI_MODEL: '@cf/qwen/qwen3-30b-a3b-fp8' });
    expect(client?.model).toBe('@cf/qwen/qwen3-30b-a3b-fp8');
    expect(await client?.complete({ messages: [], schema: null, maxTokens: 1 })).toMatchObject({ text: '{}' });
  });

  it('is null when no model is configured', () => {
    expect(modelClientOf({})).toBeNull();
    expect(modelClientOf({ AI: {} })).toBeNull();
    expect(modelClientOf({ LLM_MODEL: 'gpt-4o-mini' })).toBeNull();
  });

  it('refuses a base URL that is not http(s)', () => {
    expect(() => modelClientOf({ LLM_BASE_URL: 'file:///etc/passwd', LLM_MODEL: 'm' })).toThrow(
      /LLM_BASE_URL must be an http/,
    );
    expect(() => modelClientOf({ LLM_BASE_URL: 'not a url', LLM_MODEL: 'm' })).toThrow(/LLM_BASE_URL/);
  });
});
