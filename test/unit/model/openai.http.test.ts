import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { modelRequest } from '../../../src/domain/model/prompt';
import type { ModelAsk, ModelRequest } from '../../../src/domain/model/types';
import { openAiClient } from '../../../src/page/model/openai';
import { type FakeLlm, startFakeLlm } from '../../support/fake-llm.ts';

const schema = { type: 'object', properties: { name: { type: 'string' }, price: { type: 'number' } } };
const ask: ModelAsk = { json: { schema, prompt: null }, summary: null };
const budget = { inputTokens: 6000, outputTokens: 300 };
const requestFor = (markdown: string): ModelRequest =>
  modelRequest(ask, { url: 'https://shop.test/p', title: 'P', markdown }, budget);

let llm: FakeLlm;
let keyed: FakeLlm;
let old: FakeLlm;
beforeAll(async () => {
  [llm, keyed, old] = await Promise.all([
    startFakeLlm(),
    startFakeLlm(0, { apiKey: 'sk-secret-1' }),
    startFakeLlm(0, { jsonSchema: false }),
  ]);
});
afterAll(async () => {
  await Promise.all([llm.close(), keyed.close(), old.close()]);
});
afterEach(() => {
  for (const server of [llm, keyed, old]) server.reset();
});

describe('openAiClient', () => {
  it('posts a chat completion with the schema as response_format, and reads the answer and usage', async () => {
    const client = openAiClient({ baseUrl: `${llm.url}/`, model: 'fake-1', timeoutMs: 5000 });
    const request = requestFor('# Desk Lamp\n\nPrice: $12.50');
    const reply = await client.complete(request);
    expect(JSON.parse(reply.text)).toEqual({ name: 'Desk Lamp', price: 12.5 });
    const [recorded] = llm.requests();
    expect(recorded).toMatchObject({ method: 'POST', path: '/v1/chat/completions' });
    expect(recorded?.body).toEqual({
      model: 'fake-1',
      messages: request.messages,
      temperature: 0,
      max_tokens: 300,
      response_format: { type: 'json_schema', json_schema: { name: 'page', schema, strict: false } },
    });
    expect(recorded?.headers.authorization).toBeUndefined();
    const chars = request.messages.reduce((sum, m) => sum + m.content.length, 0);
    expect(reply.usage).toEqual({ tokensIn: Math.ceil(chars / 4), tokensOut: Math.ceil(reply.text.length / 4) });
  });

  it('sends the key as a bearer token, and never tells it in an error', async () => {
    const good = openAiClient({ baseUrl: keyed.url, model: 'fake-1', apiKey: 'sk-secret-1', timeoutMs: 5000 });
    await good.complete(requestFor('# A'));
    expect(keyed.requests()[0]?.headers.authorization).toBe('Bearer sk-secret-1');
    const bad = openAiClient({ baseUrl: keyed.url, model: 'fake-1', apiKey: 'sk-wrong-2', timeoutMs: 5000 });
    const error = await bad.complete(requestFor('# A')).catch((e: unknown) => e);
    expect(error).toMatchObject({
      kind: 'refused',
      message: expect.stringMatching(/\(401\): Incorrect API key provided/),
    });
    expect(String((error as Error).message)).not.toContain('sk-wrong-2');
  });

  it('asks for any JSON object when there is no schema', async () => {
    const client = openAiClient({ baseUrl: llm.url, model: 'fake-1', timeoutMs: 5000 });
    const request = modelRequest(
      { json: { schema: null, prompt: 'The headings.' }, summary: null },
      { url: 'https://a.test/', title: null, markdown: '# One\n\n## Two' },
      budget,
    );
    const reply = await client.complete(request);
    expect(llm.requests()[0]?.body).toMatchObject({ response_format: { type: 'json_object' } });
    expect(JSON.parse(reply.text)).toEqual({ title: 'One', url: 'https://a.test/', headings: ['One', 'Two'] });
  });

  it('is rate limited on a 429, with Retry-After in ms, and unavailable on a 500', async () => {
    const client = openAiClient({ baseUrl: llm.url, model: 'fake-1', timeoutMs: 5000 });
    await expect(client.complete(requestFor('# A\n\nRATE-LIMIT-FIRST'))).rejects.toMatchObject({
      kind: 'rate_limited',
      retryAfterMs: 1000,
    });
    await expect(client.complete(requestFor('# A\n\nRATE-LIMIT-FIRST'))).resolves.toMatchObject({
      text: expect.any(String),
    });
    await expect(client.complete(requestFor('# B\n\nSERVER-ERROR-FIRST'))).rejects.toMatchObject({
      kind: 'unavailable',
      message: 'the model endpoint failed (500): The server had an error',
    });
  });

  it('is unavailable when the endpoint cannot be reached or does not answer in time', async () => {
    const closed = await startFakeLlm();
    await closed.close();
    const unreachable = openAiClient({ baseUrl: closed.url, model: 'fake-1', timeoutMs: 5000 });
    await expect(unreachable.complete(requestFor('# A'))).rejects.toMatchObject({ kind: 'unavailable' });
    const slow: typeof fetch = (_input, init) =>
      new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal?.reason)));
    const timing = openAiClient({ baseUrl: llm.url, model: 'fake-1', timeoutMs: 50, fetch: slow });
    await expect(timing.complete(requestFor('# A'))).rejects.toMatchObject({
      kind: 'unavailable',
      message: 'the model endpoint did not answer within 50 ms',
    });
  });

  it('falls back to json_object with the schema in the prompt when json_schema is refused', async () => {
    const client = openAiClient({ baseUrl: old.url, model: 'fake-1', timeoutMs: 5000 });
    const reply = await client.complete(requestFor('# Desk Lamp\n\n**Price:** 9.99 USD'));
    expect(JSON.parse(reply.text)).toEqual({ name: 'Desk Lamp', price: 9.99 });
    const [first, second] = old.requests();
    expect(first?.body).toMatchObject({ response_format: { type: 'json_schema' } });
    expect(second?.body).toMatchObject({ response_format: { type: 'json_object' } });
    expect(JSON.stringify(second?.body)).toContain('The JSON object must follow this JSON Schema:');
  });

  it('refuses an answer that is not a chat completion', async () => {
    const odd: typeof fetch = async () => new Response('{"hello": 1}', { status: 200 });
    const client = openAiClient({ baseUrl: 'https://llm.test/v1', model: 'm', timeoutMs: 5000, fetch: odd });
    await expect(client.complete(requestFor('# A'))).rejects.toMatchObject({ kind: 'refused' });
    const long: typeof fetch = async () =>
      new Response(JSON.stringify({ error: { message: 'x'.repeat(1000) } }), { status: 400 });
    const error = await openAiClient({ baseUrl: 'https://llm.test/v1', model: 'm', timeoutMs: 5000, fetch: long })
      .complete(requestFor('# A'))
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'refused' });
    expect((error as Error).message.length).toBeLessThan(400);
  });

  it('reads a Retry-After given as an HTTP date', async () => {
    const at = new Date(Date.now() + 30_000).toUTCString();
    const limited: typeof fetch = async () => new Response('{}', { status: 429, headers: { 'retry-after': at } });
    const error = await openAiClient({ baseUrl: 'https://llm.test/v1', model: 'm', timeoutMs: 5000, fetch: limited })
      .complete(requestFor('# A'))
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'rate_limited' });
    expect((error as { retryAfterMs: number }).retryAfterMs).toBeGreaterThan(25_000);
    expect((error as { retryAfterMs: number }).retryAfterMs).toBeLessThanOrEqual(31_000);
  });
});
