/**
 * learnSelectors against a stand-in model: the client's complete() answers a selector-writing request with
 * selectorAnswer (test/support/fake-llm-selectors.ts), which computes selectors from the prompt. No model runs here.
 */
import { describe, expect, it } from 'vitest';
import { applyLearned } from '../../../src/domain/model/learned';
import { type ModelClient, ModelError, type ModelRequest } from '../../../src/domain/model/types';
import { learnSelectors } from '../../../src/page/model/learn';
import { isSelectorRequest, selectorAnswer } from '../../support/fake-llm-selectors';
import { PRODUCT_SCHEMA, SHOP_ORIGIN, shopPage, shopPaths, shopTruth } from '../../support/template-shop';

const body = (request: ModelRequest) => ({
  messages: request.messages,
  response_format: { type: 'json_schema', json_schema: { name: 'answer', schema: request.schema } },
});

/** A stand-in model: selectors from selectorAnswer; `first` replaces the first reply (a model's bad attempt). */
function standIn(first?: string): ModelClient & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  return {
    provider: 'openai-compatible',
    model: 'stand-in',
    requests,
    async complete(request) {
      requests.push(request);
      if (!isSelectorRequest(body(request))) throw new Error('not a selector request');
      const text = requests.length === 1 && first !== undefined ? first : JSON.stringify(selectorAnswer(body(request)));
      return { text, usage: { tokensIn: JSON.stringify(request.messages).length / 4, tokensOut: text.length / 4 } };
    },
  };
}

const sample = (path: string) => ({ url: SHOP_ORIGIN + path, html: shopPage(path) ?? '', json: shopTruth(path) });
const apply = (fields: Parameters<typeof applyLearned>[0], path: string) =>
  applyLearned(fields, shopPage(path) ?? '', SHOP_ORIGIN + path, PRODUCT_SCHEMA);

describe('learnSelectors', () => {
  it('learns layout A from three samples and reads the other pages as the truth', async () => {
    const learned = await learnSelectors(
      standIn(),
      PRODUCT_SCHEMA,
      ['/p/1.html', '/p/2.html', '/p/3.html'].map(sample),
    );
    expect(learned).toMatchObject({ agreement: 1, calls: 1 });
    expect(learned.fields?.price).toEqual({ selector: '.price .amount', type: 'number' });
    expect(learned.fields?.colors).toMatchObject({ list: true });
    for (const n of [4, 10, 100, 299])
      expect(apply(learned.fields ?? {}, `/p/${n}.html`)).toEqual({ ok: true, json: shopTruth(`/p/${n}.html`) });
    expect(apply(learned.fields ?? {}, '/p/5.html')).toEqual({ ok: false, why: 'no value for price, currency' });
    expect(apply(learned.fields ?? {}, '/p/7.html')).toEqual({ ok: false, why: 'several different values for price' });
  });

  it('learns layout B (microdata and a spec list) the same way', async () => {
    const paths = shopPaths().filter((p) => p.startsWith('/item/'));
    const learned = await learnSelectors(standIn(), PRODUCT_SCHEMA, paths.slice(0, 3).map(sample));
    expect(learned.fields).not.toBeNull();
    expect(learned.fields?.sku?.selector).toBe('.specs > dd:nth-of-type(1)');
    const right = paths.slice(3).filter((p) => {
      const applied = apply(learned.fields ?? {}, p);
      return applied.ok && JSON.stringify(applied.json) === JSON.stringify(shopTruth(p));
    });
    expect(right.length).toBeGreaterThan(180);
  });

  it('asks once more, listing what the first attempt got wrong', async () => {
    const client = standIn('{"fields": {"name": {"selector": "h3"}, "price": {"selector": "p[[["}}}');
    const learned = await learnSelectors(client, PRODUCT_SCHEMA, ['/p/1.html', '/p/2.html'].map(sample));
    expect(learned).toMatchObject({ calls: 2, agreement: 1 });
    expect(learned.usage.tokensIn).toBeGreaterThan(0);
    const again = client.requests[1]?.messages[1]?.content ?? '';
    expect(again).toMatch(/- price: selector: invalid CSS selector/);
    expect(again).toContain('- https://shop.test/p/1.html: name read nothing, the answer has "Linen');
  });

  it('gives up after two attempts, saying why', async () => {
    const client: ModelClient = {
      provider: 'openai-compatible',
      model: 'stand-in',
      complete: async () => ({
        text: '{"fields": {"name": {"selector": "h1"}}}',
        usage: { tokensIn: 1, tokensOut: 1 },
      }),
    };
    const learned = await learnSelectors(client, PRODUCT_SCHEMA, [sample('/p/1.html')]);
    expect(learned).toMatchObject({ fields: null, calls: 2 });
    expect(learned.why).toMatch(/^the selectors read 14\.3% of the samples' fields as answered/);
  });

  it('lets rate limits and outages propagate, and ends on a refusal', async () => {
    const failing = (error: Error): ModelClient => ({
      provider: 'openai-compatible',
      model: 'stand-in',
      complete: async () => {
        throw error;
      },
    });
    const samples = [sample('/p/1.html')];
    await expect(
      learnSelectors(failing(new ModelError('rate_limited', '429', 1000)), PRODUCT_SCHEMA, samples),
    ).rejects.toThrow('429');
    await expect(
      learnSelectors(failing(new ModelError('unavailable', '503')), PRODUCT_SCHEMA, samples),
    ).rejects.toThrow('503');
    const refused = await learnSelectors(failing(new ModelError('refused', 'bad key')), PRODUCT_SCHEMA, samples);
    expect(refused).toMatchObject({ fields: null, calls: 1, why: 'the model refused: bad key' });
  });
});
