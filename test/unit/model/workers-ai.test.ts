/**
 * The Workers AI client's contract, against a stand-in for the binding that records what `run` is given and answers
 * as the binding does (shapes and error messages from Workers AI's docs and types, read 2026-12). Real Workers AI was
 * not reachable: it has no local simulator (wrangler dev --local and the tests' workerd reject `run` with "Binding AI
 * needs to be run remotely") and this machine has no network.
 */
import { describe, expect, it } from 'vitest';
import { ModelError, type ModelRequest } from '../../../src/domain/model/types';
import { type AiBinding, workersAiClient, workersAiError } from '../../../src/page/model/workers-ai';

const schema = { type: 'object', properties: { price: { type: 'number' } } };
const request: ModelRequest = { messages: [{ role: 'user', content: 'x'.repeat(40) }], schema, maxTokens: 256 };

function binding(answer: () => unknown): AiBinding & { calls: { model: string; inputs: object; options?: object }[] } {
  const calls: { model: string; inputs: object; options?: object }[] = [];
  return {
    calls,
    run: async (model, inputs, options) => {
      calls.push({ model, inputs, ...(options ? { options } : {}) });
      return answer();
    },
  };
}

describe('workersAiClient', () => {
  it('runs the model with JSON Mode, temperature 0 and the output budget, through the gateway when named', async () => {
    const ai = binding(() => ({ response: '{"price": 12}', usage: { prompt_tokens: 30, completion_tokens: 5 } }));
    const client = workersAiClient(ai, { model: '@cf/meta/llama-3.3-70b-instruct-fp8-fast', gatewayId: 'gw' });
    expect(client).toMatchObject({ provider: 'workers-ai', model: '@cf/meta/llama-3.3-70b-instruct-fp8-fast' });
    expect(await client.complete(request)).toEqual({ text: '{"price": 12}', usage: { tokensIn: 30, tokensOut: 5 } });
    expect(ai.calls).toEqual([
      {
        model: '@cf/meta/llama-3.3-70b-instruct-fp8-fast',
        inputs: {
          messages: request.messages,
          temperature: 0,
          max_tokens: 256,
          response_format: { type: 'json_schema', json_schema: schema },
        },
        options: { gateway: { id: 'gw' } },
      },
    ]);
    await workersAiClient(ai, { model: 'm' }).complete({ ...request, schema: null });
    expect(ai.calls[1]).toEqual({
      model: 'm',
      inputs: expect.objectContaining({ response_format: { type: 'json_object' } }),
    });
  });

  it("nests the schema as OpenAI does for the models that take OpenAI's input", async () => {
    const ai = binding(() => ({
      choices: [{ message: { content: '{"price": 1}' } }],
      usage: { prompt_tokens: 3, completion_tokens: 2 },
    }));
    const reply = await workersAiClient(ai, { model: '@cf/zai-org/glm-4.7-flash' }).complete(request);
    expect(reply).toEqual({ text: '{"price": 1}', usage: { tokensIn: 3, tokensOut: 2 } });
    expect(ai.calls[0]?.inputs).toMatchObject({
      response_format: { type: 'json_schema', json_schema: { name: 'page', schema, strict: false } },
    });
  });

  it('takes a response already parsed, and estimates the tokens when there is no usage', async () => {
    const ai = binding(() => ({ response: { price: 12 } }));
    const reply = await workersAiClient(ai, { model: 'm' }).complete(request);
    expect(reply).toEqual({ text: '{"price":12}', usage: { tokensIn: 10, tokensOut: 3 } });
  });

  it('refuses a result that is not a text generation', async () => {
    const ai = binding(() => 'nonsense');
    await expect(workersAiClient(ai, { model: 'm' }).complete(request)).rejects.toMatchObject({ kind: 'refused' });
  });

  it('maps the errors the binding throws', async () => {
    const failing = (message: string) =>
      workersAiClient(
        {
          run: async () => {
            throw new Error(message);
          },
        },
        { model: 'm' },
      ).complete(request);
    await expect(failing('AiError: 3040: Capacity temporarily exceeded, please try again.')).rejects.toMatchObject({
      kind: 'rate_limited',
      retryAfterMs: null,
    });
    await expect(failing("InferenceUpstreamError: 5006: JSON Mode couldn't be met")).rejects.toMatchObject({
      kind: 'refused',
    });
    await expect(failing('Binding AI needs to be run remotely')).rejects.toMatchObject({ kind: 'refused' });
    await expect(failing('AiError: 3007: Request timeout')).rejects.toMatchObject({ kind: 'unavailable' });
    await expect(failing('Internal server error')).rejects.toMatchObject({ kind: 'unavailable' });
    await expect(failing('5007: No such model m or task')).rejects.toMatchObject({ kind: 'refused' });
  });

  it('waits for 00:00 UTC when the daily allocation is used up', () => {
    const now = Date.UTC(2026, 11, 5, 22, 30);
    const error = workersAiError(
      new Error('AiError: 3036: You have used up your daily free allocation of 10,000 neurons'),
      now,
    );
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ kind: 'rate_limited', retryAfterMs: 90 * 60_000 });
    expect(error.message).toMatch(/^Workers AI: Error: AiError: 3036/);
  });
});
