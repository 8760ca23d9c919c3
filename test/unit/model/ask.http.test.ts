import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type ModelBudget, type ModelPage, pageRequest } from '../../../src/domain/model/prompt';
import { type ModelAsk, type ModelClient, ModelError } from '../../../src/domain/model/types';
import { askModel as askRequest } from '../../../src/page/model/ask';
import { openAiClient } from '../../../src/page/model/openai';
import { type FakeLlm, startFakeLlm } from '../../support/fake-llm.ts';

const schema = {
  type: 'object',
  properties: { name: { type: ['string', 'null'] }, price: { type: ['number', 'null'] } },
  required: ['name', 'price'],
};
const json: ModelAsk = { json: { schema, prompt: null }, summary: null };
const budget = { inputTokens: 6000, outputTokens: 300 };
const page = (markdown: string) => ({ url: 'https://shop.test/lamp', title: 'Lamp', markdown });

/** The page asked as the model step asks it: its request built (domain/model/prompt.ts), then answered. */
const askModel = (c: ModelClient, ask: ModelAsk, p: ModelPage, b: ModelBudget) =>
  askRequest(c, ask, pageRequest(ask, p, b).request);

let llm: FakeLlm;
let client: ModelClient;
beforeAll(async () => {
  llm = await startFakeLlm();
  client = openAiClient({ baseUrl: llm.url, model: 'fake-1', timeoutMs: 5000 });
});
afterAll(() => llm.close());
afterEach(() => llm.reset());

describe('askModel', () => {
  it('answers JSON and a summary from one call', async () => {
    const ask: ModelAsk = { json: { schema, prompt: null }, summary: { prompt: null } };
    const answer = await askModel(
      client,
      ask,
      page('# Desk Lamp\n\nPrice: $12.50\n\nA lamp for desks. It bends. It glows.'),
      budget,
    );
    expect(answer).toMatchObject({
      json: { name: 'Desk Lamp', price: 12.5 },
      summary: 'A lamp for desks. It bends.',
      errors: {},
      calls: 1,
    });
    expect(answer.usage.tokensIn).toBeGreaterThan(0);
    expect(llm.requests()).toHaveLength(1);
  });

  it('asks again once when the first answer is malformed, counting both calls', async () => {
    const answer = await askModel(client, json, page('# Desk Lamp\n\nPrice: $12.50\n\nMALFORMED-FIRST-ANSWER'), budget);
    expect(answer).toMatchObject({ json: { name: 'Desk Lamp', price: 12.5 }, errors: {}, calls: 2 });
    const [first, second] = llm.requests();
    const lastMessage = (second!.body as { messages: { role: string; content: string }[] }).messages.at(-1);
    expect(lastMessage?.content).toMatch(
      /^Your answer was not valid: the answer (holds no JSON object|is not valid JSON)/,
    );
    const usage = (body: unknown) => {
      const messages = (body as { messages: { content: string }[] }).messages;
      return Math.ceil(messages.reduce((sum, m) => sum + m.content.length, 0) / 4);
    };
    expect(answer.usage.tokensIn).toBe(usage(first!.body) + usage(second!.body));
    expect(answer.usage.tokensOut).toBe(
      Math.ceil('{"name": "x", "price": '.length / 4) + Math.ceil(JSON.stringify(answer.json).length / 4),
    );
  });

  it('repairs an answer of the wrong type', async () => {
    const answer = await askModel(client, json, page('# Lamp\n\nPrice: 7\n\nSCHEMA-WRONG-FIRST-ANSWER'), budget);
    expect(answer).toMatchObject({ json: { name: 'Lamp', price: 7 }, calls: 2, errors: {} });
    const repair = JSON.stringify(llm.requests()[1]?.body);
    expect(repair).toContain('Your answer was not valid: /price: expected number or null, got string.');
  });

  it('says why when the answer is wrong twice, and does not throw', async () => {
    const answer = await askModel(client, json, page('# Lamp\n\nPrice: 7\n\nSCHEMA-WRONG-ALWAYS'), budget);
    expect(answer).toEqual({
      errors: {
        json: "the model's answer did not satisfy the schema twice: /price: expected number or null, got string",
      },
      calls: 2,
      usage: expect.objectContaining({ tokensIn: expect.any(Number) }),
    });
    expect(answer.json).toBeUndefined();
  });

  it('lets rate_limited and unavailable go to the caller', async () => {
    await expect(askModel(client, json, page('# A\n\nRATE-LIMIT-FIRST'), budget)).rejects.toMatchObject({
      kind: 'rate_limited',
      retryAfterMs: 1000,
    });
    await expect(askModel(client, json, page('# A\n\nSERVER-ERROR-FIRST'), budget)).rejects.toBeInstanceOf(ModelError);
  });

  it('tells a refusal in errors', async () => {
    const refusing: ModelClient = {
      provider: 'workers-ai',
      model: 'm',
      complete: async () => {
        throw new ModelError('refused', "Workers AI: JSON Mode couldn't be met");
      },
    };
    const both: ModelAsk = { json: { schema, prompt: null }, summary: { prompt: null } };
    expect(await askModel(refusing, both, page('# A'), budget)).toEqual({
      errors: {
        json: "the model refused the request: Workers AI: JSON Mode couldn't be met",
        summary: "the model refused the request: Workers AI: JSON Mode couldn't be met",
      },
      calls: 1,
      usage: { tokensIn: 0, tokensOut: 0 },
    });
  });

  it('tells how much of a long page the model saw', async () => {
    const long = page(`# Lamp\n\nPrice: 3\n\n${'Words and more words.\n\n'.repeat(2000)}`);
    const { request, cut } = pageRequest(json, long, { inputTokens: 800, outputTokens: 100 });
    const answer = await askRequest(client, json, request);
    expect(answer.json).toEqual({ name: 'Lamp', price: 3 });
    expect(cut).toEqual({ keptChars: expect.any(Number), totalChars: long.markdown.length });
    expect(cut!.keptChars).toBeLessThan(3200);
  });

  it('makes no call when nothing is asked', async () => {
    const request = pageRequest(json, page('# A'), budget).request;
    expect(await askRequest(client, { json: null, summary: null }, request)).toEqual({
      errors: {},
      calls: 0,
      usage: { tokensIn: 0, tokensOut: 0 },
    });
    expect(llm.requests()).toHaveLength(0);
  });
});
