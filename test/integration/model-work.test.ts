import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { testConfig } from '../support/fixtures';

// The crawl's side of the model step (objects/crawl/model-work.ts): it waits for its pages, caps them at
// maxModelPages, and hands one caller a template's samples to learn selectors from.

async function started(overrides: Parameters<typeof testConfig>[0] = {}) {
  const id = crypto.randomUUID();
  const stub = env.CRAWL.getByName(id);
  await stub.start(id, testConfig({ seeds: ['https://example.com/'], ...overrides }));
  return stub;
}

describe('the crawl and its model step', () => {
  it('does not complete while stored pages wait for the model', async () => {
    const stub = await started();
    const claimed = await stub.claim(['https://example.com/']);
    expect(claimed.claims[0]).not.toBeNull();
    const answer = await stub.complete([{ kind: 'stored', url: 'https://example.com/', fetched: true, links: [] }], 1);
    expect(answer.status).toBe('running');
    expect((await stub.snapshot())?.pending).toBe(1);
    await stub.modelDone(1);
    expect((await stub.snapshot())?.status).toBe('completed');
  });

  it('grants model pages up to maxModelPages', async () => {
    const stub = await started({ maxModelPages: 5 });
    expect(await stub.takeModelPages(3)).toBe(3);
    expect(await stub.takeModelPages(3)).toBe(2);
    expect(await stub.takeModelPages(1)).toBe(0);
  });

  it("hands a template's samples to one learner, then serves what it learned", async () => {
    const stub = await started();
    const key = 'shop.test/p/*';
    expect(await stub.templates([key])).toEqual({ [key]: { state: 'sampling' } });
    expect(await stub.addSample(key, { url: 'https://shop.test/p/1', json: '{"a":1}' })).toBeNull();
    expect(await stub.addSample(key, { url: 'https://shop.test/p/2', json: '{"a":2}' })).toBeNull();
    const samples = await stub.addSample(key, { url: 'https://shop.test/p/3', json: '{"a":3}' });
    expect(samples?.map((s) => s.url)).toEqual([
      'https://shop.test/p/1',
      'https://shop.test/p/2',
      'https://shop.test/p/3',
    ]);
    // Learning: no second learner, no more samples.
    expect(await stub.templates([key])).toEqual({ [key]: { state: 'learning' } });
    expect(await stub.addSample(key, { url: 'https://shop.test/p/4', json: '{"a":4}' })).toBeNull();
    await stub.learned(key, { fields: '{"fields":{},"expected":[]}' });
    expect(await stub.templates([key])).toEqual({ [key]: { state: 'learned', fields: '{"fields":{},"expected":[]}' } });
  });
});
