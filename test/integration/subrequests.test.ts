import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { namespace, site, siteLog } from '../support/api';
import {
  insertCrawlRow,
  queueMessage as message,
  recordingQueue,
  runQueue,
  type SentMessage,
  testConfig,
} from '../support/fixtures';

// A frontier consumer invocation's subrequests (src/lib/subrequests.ts, SUBREQUEST_BUDGET), counted here on their own:
// every call on a binding the consumer is given that returns a promise (a Durable Object's method, R2, D1, a queue's
// send), and every request the test site receives.

/** `target` with each call that returns a promise counted; handles it returns (stubs, statements) counted the same. */
function counting<T extends object>(target: T, count: () => void): T {
  return new Proxy(target, {
    get(object, key) {
      const value: unknown = Reflect.get(object, key);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]): unknown => {
        const result: unknown = Reflect.apply(value, object, args);
        // A Durable Object's RPC promise is a function with a `then`.
        const handle = (typeof result === 'object' || typeof result === 'function') && result !== null;
        if (handle && typeof Reflect.get(result, 'then') === 'function') count();
        else if (handle) return counting(result, count);
        return result;
      };
    },
  });
}

/** The Worker's env at `budget`, its bindings counted into `calls`, its frontier queues recording into `sent`. */
function countedEnv(budget: number | null, sent: SentMessage[], calls: { n: number }): Env {
  const queue = recordingQueue(sent);
  const bindings: Env = {
    ...env,
    ...(budget === null ? {} : { SUBREQUEST_BUDGET: String(budget) }),
    FRONTIER: queue,
    FRONTIER_HIGH: queue,
    FRONTIER_PACED: queue,
  };
  const count = () => {
    calls.n++;
  };
  const wrapped: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(bindings))
    wrapped[key] =
      typeof value === 'object' && value !== null && !Array.isArray(value) ? counting(value, count) : value;
  return { ...bindings, ...wrapped };
}

async function crawlOf(urls: string[]): Promise<string> {
  const id = crypto.randomUUID();
  const config = testConfig({ seeds: urls, maxDepth: 0, sitemaps: false });
  await insertCrawlRow(id, config);
  await env.CRAWL.getByName(id).start(id, config);
  return id;
}

/** Messages of ten URLs of the crawl each, as the frontier sends them. */
const messagesOf = (id: string, urls: string[]) =>
  Array.from({ length: Math.ceil(urls.length / 10) }, (_, i) =>
    message({ crawlId: id, tasks: urls.slice(i * 10, i * 10 + 10).map((url) => ({ url, depth: 0, hops: 0 })) }),
  );

/**
 * Runs batches until nothing comes back: each retried message delivered again, each message sent to the queue
 * delivered as a new one. Returns each invocation's subrequests (binding calls and the site's requests).
 */
async function drain(ns: string, first: ReturnType<typeof message>[], budget: number | null): Promise<number[]> {
  const spent: number[] = [];
  let batch = first;
  for (let round = 0; batch.length > 0 && round < 60; round++) {
    const sent: SentMessage[] = [];
    const calls = { n: 0 };
    const fetchedBefore = (await siteLog(ns)).length;
    const result = await runQueue('edgecrawl-frontier', batch, countedEnv(budget, sent, calls));
    spent.push(calls.n + (await siteLog(ns)).length - fetchedBefore);
    const retried = new Set(result.retryMessages.map((r) => r.msgId));
    batch = [
      ...batch.filter((m) => retried.has(m.id)).map((m) => message(m.body, m.attempts + 1, m.id)),
      ...sent.map((s) => message(s.body)),
    ];
  }
  return spent;
}

describe('the subrequests of a frontier invocation', () => {
  it('stay within SUBREQUEST_BUDGET: URLs it cannot afford go back, and every page ends stored, fetched once', async () => {
    const ns = namespace();
    const urls = Array.from({ length: 100 }, (_, i) => `${site()}/t/${ns}/flat-100/p${i + 1}.html`);
    const id = await crawlOf(urls);
    const budget = 120;
    const spent = await drain(ns, messagesOf(id, urls), budget);
    console.log(`subrequests per invocation at a budget of ${budget}: ${spent.join(', ')}`);

    // Several invocations, none past the budget.
    expect(spent.length).toBeGreaterThan(2);
    expect(Math.max(...spent)).toBeLessThanOrEqual(budget);
    // Nothing lost, nothing fetched twice, no attempt used up by being put off.
    const snapshot = await env.CRAWL.getByName(id).snapshot();
    expect(snapshot?.counts).toEqual({
      discovered: 100,
      fetched: 100,
      stored: 100,
      failed: 0,
      skipped: 0,
      duplicates: 0,
    });
    expect(snapshot?.pending).toBe(0);
    const hits = await siteLog(ns);
    expect(hits).toHaveLength(100);
    expect(new Set(hits).size).toBe(100);
  });

  it('at the default budget a batch of 100 URLs is one invocation, and what it spends is within its plan', async () => {
    const ns = namespace();
    const urls = Array.from({ length: 100 }, (_, i) => `${site()}/t/${ns}/flat-100/p${i + 1}.html`);
    const id = await crawlOf(urls);
    const spent = await drain(ns, messagesOf(id, urls), null);
    console.log(`subrequests of one invocation of 100 URLs (10 messages): ${spent.join(', ')}`);
    expect(spent).toHaveLength(1);
    // The plan of consumers/subrequests.ts for it: 6 + (4 + 26 + 10) + 100 x 12.
    expect(spent[0]).toBeLessThanOrEqual(6 + 40 + 1200);
    expect((await env.CRAWL.getByName(id).snapshot())?.counts.stored).toBe(100);
  });
});
