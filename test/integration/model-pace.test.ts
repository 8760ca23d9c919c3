import { env } from 'cloudflare:workers';
import { describe, expect, inject, it } from 'vitest';
import { z } from 'zod';
import { recordSchema } from '../../src/api/responses';
import { spacingMs } from '../../src/domain/model/pace';
import { readModelSettings } from '../../src/settings';
import { api, createCrawl, namespace, site, waitForCrawl } from '../support/api';
import { queueMessage, recordingQueue, runQueue, type SentMessage } from '../support/fixtures';
import { PRODUCT_SCHEMA, PRODUCTS, productFacts } from '../support/product-site';

// The account's model calls are spaced (MODEL_REQUESTS_PER_MINUTE, objects/model-gate.ts), whichever invocation makes
// them: measured at the fake model (test/support/fake-llm.ts), which notes when each request arrives.

const arrivalsSchema = z.array(z.object({ body: z.record(z.string(), z.unknown()), at: z.number() }));

/** When the fake model received each request whose messages mention `text`, in order. */
async function arrivals(text: string): Promise<number[]> {
  const res = await fetch(`${new URL(inject('llm')).origin}/__requests`);
  return arrivalsSchema
    .parse(await res.json())
    .filter((r) => JSON.stringify(r.body.messages).includes(text))
    .map((r) => r.at)
    .sort((a, b) => a - b);
}

describe("the account's model calls", () => {
  it('are spaced at MODEL_REQUESTS_PER_MINUTE across invocations, and every page still gets its JSON', async () => {
    const perMinute = readModelSettings(env).requestsPerMinute;
    const ns = namespace();
    const base = `${site()}/t/${ns}/products/`;
    // The pages' model messages are answered by several invocations of the model consumer, MODEL_CONCURRENCY each.
    const id = await createCrawl({
      seeds: [base],
      extract: { formats: ['markdown', 'json'], json: { schema: PRODUCT_SCHEMA } },
    });
    const crawl = await waitForCrawl(id);
    expect(crawl.status).toBe('completed');
    for (let n = 1; n <= PRODUCTS; n++) {
      const res = await api(`/v1/crawls/${id}/record?url=${encodeURIComponent(`${base}p/${n}.html`)}`);
      expect(recordSchema.parse(await res.json()).json, `p/${n}`).toEqual(productFacts(n));
    }

    const times = await arrivals(`/t/${ns}/`);
    expect(times.length).toBeGreaterThanOrEqual(PRODUCTS);
    const gaps = times.slice(1).map((t, i) => t - (times[i] as number));
    console.log(
      `model calls: ${times.length}, spacing ${spacingMs(perMinute)} ms, smallest gap ${Math.min(...gaps)} ms`,
    );
    expectSpaced(times, perMinute);
  });
});

/**
 * Calls start a spacing apart, as seen by the server (its clock; the way there varies by a few ms, more on a busy
 * machine): no minute holds more than the rate, no second more than it allows (and one for that way), and on average
 * they are a spacing apart. Unpaced, MODEL_CONCURRENCY calls arrive at once.
 */
function expectSpaced(times: readonly number[], perMinute: number): void {
  const spacing = spacingMs(perMinute);
  const within = (t: number, ms: number) => times.filter((u) => u >= t && u < t + ms).length;
  for (const [i, t] of times.entries()) {
    expect(within(t, 60_000), `the minute from call ${i}`).toBeLessThanOrEqual(perMinute);
    expect(within(t, 1000), `the second from call ${i}`).toBeLessThanOrEqual(Math.ceil(1000 / spacing) + 1);
  }
  const first = times[0] ?? 0;
  const last = times.at(-1) ?? 0;
  expect((last - first) / (times.length - 1)).toBeGreaterThanOrEqual(spacing - 10);
}

describe("a scrape's model calls", () => {
  it("are spaced with the rest of the account's", async () => {
    const perMinute = readModelSettings(env).requestsPerMinute;
    const ns = namespace();
    // Asked at once; a prompt of their own, so that no answer is had from the cache.
    const json = { schema: PRODUCT_SCHEMA, prompt: `The product facts (${ns}).` };
    const answers = await Promise.all(
      [1, 4, 5, 6].map(async (n) => {
        const url = `${site()}/t/${ns}/products/p/${n}.html`;
        const res = await api('/v1/scrape', {
          method: 'POST',
          body: JSON.stringify({ url, extract: { formats: ['json'], json } }),
        });
        expect(res.status).toBe(200);
        return z.object({ json: z.unknown() }).parse(await res.json()).json;
      }),
    );
    expect(answers).toEqual([1, 4, 5, 6].map((n) => productFacts(n)));
    const times = await arrivals(ns);
    expect(times).toHaveLength(4);
    console.log(
      `scrapes' model calls: ${times.length}, on average ${((times.at(-1) ?? 0) - (times[0] ?? 0)) / 3} ms apart`,
    );
    expectSpaced(times, perMinute);
  });
});

/** The Worker's model gate, every slot it is asked for `later` (at `inMs` from now). */
function gateAlwaysLater(inMs: number): Env['MODEL_GATE'] {
  const stub = new Proxy(env.MODEL_GATE.getByName('a gate of this test'), {
    get: (target, key) =>
      key === 'slot' ? async () => ({ kind: 'later', startAt: Date.now() + inMs }) : Reflect.get(target, key),
  });
  return new Proxy(env.MODEL_GATE, {
    get: (target, key) => (key === 'getByName' ? () => stub : Reflect.get(target, key)),
  });
}

describe('a model call with no slot soon enough', () => {
  it('is not sent: its page goes back to the model queue delayed to its slot, its deliveries kept, then answered', async () => {
    const ns = namespace();
    const base = `${site()}/t/${ns}/products/`;
    const url = `${base}p/1.html`;
    const id = await createCrawl({ seeds: [base] });
    await waitForCrawl(id);
    // The crawl as if it had asked for json: its model messages then arrive.
    const ask = { formats: ['markdown', 'json'], json: { schema: PRODUCT_SCHEMA }, mainContent: true, include: [] };
    await env.DB.prepare('UPDATE crawls SET extract = ? WHERE id = ?')
      .bind(JSON.stringify({ ...ask, exclude: [], fields: {} }), id)
      .run();
    const sent: SentMessage[] = [];
    const paced = { ...env, MODEL_GATE: gateAlwaysLater(4000), MODEL: recordingQueue(sent) };
    // Its third delivery: two counted before it.
    const result = await runQueue('edgecrawl-model', [queueMessage({ crawlId: id, url }, 3)], paced);
    expect(result.explicitAcks).toHaveLength(1);
    expect(result.retryMessages).toEqual([]);
    expect(sent).toEqual([{ body: { crawlId: id, url, d: 2 }, delaySeconds: 4 }]);
    expect(await arrivals(`/t/${ns}/`)).toEqual([]);

    // Delivered then, with the account's gate: answered.
    const again = await runQueue('edgecrawl-model', [queueMessage(sent[0]?.body)]);
    expect(again.explicitAcks).toHaveLength(1);
    const res = await api(`/v1/crawls/${id}/record?url=${encodeURIComponent(url)}`);
    expect(recordSchema.parse(await res.json()).json).toEqual(productFacts(1));
    expect(await arrivals(`/t/${ns}/`)).toHaveLength(1);
  });
});
