import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modelRequest } from '../../../src/domain/model/prompt';
import type { JsonSchema, ModelAsk } from '../../../src/domain/model/types';
import { openAiClient } from '../../../src/page/model/openai';
import { type FakeLlm, type RecordedRequest, startFakeLlm } from '../../support/fake-llm.ts';

const markdown = [
  '# Brass Desk Lamp',
  '',
  'A lamp of brass for long evenings. It bends where you want. It never flickers.',
  '',
  '**Price:** $1,249.00',
  'SKU: BL-2041',
  '- In stock: yes',
  '',
  '| Spec | Value |',
  '| --- | --- |',
  '| Weight kg | 2.5 |',
  '| Bulb count | 3 |',
  '',
  '## Features',
  '',
  '- Dimmable',
  '- USB port',
  '',
  '## Reviews',
].join('\n');

let llm: FakeLlm;
beforeAll(async () => {
  llm = await startFakeLlm();
});
afterAll(() => llm.close());

async function ask(ask: ModelAsk): Promise<unknown> {
  const client = openAiClient({ baseUrl: llm.url, model: 'fake', timeoutMs: 5000 });
  const request = modelRequest(
    ask,
    { url: 'https://shop.test/lamp', title: 'Lamp | Shop', markdown },
    { inputTokens: 6000, outputTokens: 500 },
  );
  return JSON.parse((await client.complete(request)).text);
}

describe('the fake model', () => {
  it('answers a schema from the page, typed, null when absent', async () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: {
        productName: { type: 'string' },
        price: { type: 'number' },
        sku: { type: 'string' },
        inStock: { type: 'boolean' },
        weightKg: { type: 'number' },
        bulbCount: { type: 'integer' },
        features: { type: 'array', items: { type: 'string' } },
        color: { type: ['string', 'null'] },
      },
    };
    expect(await ask({ json: { schema, prompt: null }, summary: null })).toEqual({
      productName: 'Brass Desk Lamp',
      price: 1249,
      sku: 'BL-2041',
      inStock: true,
      weightKg: 2.5,
      bulbCount: 3,
      features: ['Dimmable', 'USB port'],
      color: null,
    });
  });

  it('answers a summary, and both in the wrapper', async () => {
    const summary = 'A lamp of brass for long evenings. It bends where you want.';
    expect(await ask({ json: null, summary: { prompt: null } })).toEqual({ summary });
    const schema = { type: 'object', properties: { sku: { type: 'string' } } };
    expect(await ask({ json: { schema, prompt: null }, summary: { prompt: null } })).toEqual({
      json: { sku: 'BL-2041' },
      summary,
    });
  });

  it('answers a prompt-only ask with the title, URL and headings', async () => {
    expect(await ask({ json: { schema: null, prompt: 'Anything.' }, summary: null })).toEqual({
      title: 'Lamp | Shop',
      url: 'https://shop.test/lamp',
      headings: ['Brass Desk Lamp', 'Features', 'Reviews'],
    });
    const recorded: RecordedRequest | undefined = llm.requests().at(-1);
    expect(recorded).toMatchObject({
      method: 'POST',
      path: '/v1/chat/completions',
      headers: { 'content-type': 'application/json' },
    });
  });

  it('runs as a process of its own, printing its URL', async () => {
    const child = spawn(
      process.execPath,
      [new URL('../../support/fake-llm-process.ts', import.meta.url).pathname, '0'],
      {
        stdio: ['pipe', 'pipe', 'inherit'],
      },
    );
    try {
      const [line] = (await once(child.stdout, 'data')) as [Buffer];
      const { url } = JSON.parse(line.toString()) as { url: string };
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      const response = await fetch(`${url}/chat/completions`, { method: 'POST', body: '{}' });
      expect(response.status).toBe(400);
    } finally {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  });
});
