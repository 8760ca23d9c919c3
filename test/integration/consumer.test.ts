import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { CrawlConfig, CrawlTask } from '../../src/types';
import { namespace, site, siteLog } from '../support/api';
import {
  insertCrawlRow,
  queueMessage as message,
  recordingQueue,
  runQueue,
  type SentMessage,
  testConfig,
} from '../support/fixtures';

async function crawlWithSeeds(seeds: string[], overrides: Partial<CrawlConfig> = {}): Promise<string> {
  const id = crypto.randomUUID();
  const config = testConfig({ seeds, maxDepth: 0, ...overrides });
  await insertCrawlRow(id, config);
  await env.CRAWL.getByName(id).start(id, config);
  return id;
}

const runBatch = (messages: ReturnType<typeof message>[]) => runQueue('edgecrawl-frontier', messages);

/** The Worker's env with frontier queues that record what is sent to them (and send nothing). */
function recordingQueues(): { env: Env; sent: SentMessage[] } {
  const sent: SentMessage[] = [];
  const queue = recordingQueue(sent);
  return { env: { ...env, FRONTIER: queue, FRONTIER_HIGH: queue, FRONTIER_PACED: queue }, sent };
}

describe('the frontier consumer acks or retries each message on its own', () => {
  it('acks stored pages, retries a 503 with backoff, acks malformed and unknown messages', async () => {
    const ns = namespace();
    const base = `${site()}/t/${ns}/misc/`;
    const id = await crawlWithSeeds([`${base}ok.html`, `${base}always-503`]);
    const ok = message({ crawlId: id, url: `${base}ok.html`, depth: 0, hops: 0 } satisfies CrawlTask);
    const busy = message({ crawlId: id, url: `${base}always-503`, depth: 0, hops: 0 } satisfies CrawlTask);
    const malformed = message({ hello: 'world' });
    const unknown = message({ crawlId: id, url: `${base}never-offered.html`, depth: 0, hops: 0 } satisfies CrawlTask);
    const result = await runBatch([ok, busy, malformed, unknown]);

    expect(result.outcome).toBe('ok');
    expect(result.retryBatch.retry).toBe(false);
    expect(result.ackAll).toBe(false);
    expect(new Set(result.explicitAcks)).toEqual(new Set([ok.id, malformed.id, unknown.id]));
    expect(result.retryMessages).toHaveLength(1);
    expect(result.retryMessages[0]?.msgId).toBe(busy.id);
    // (The test harness does not record retry delays; backoff is unit-tested in test/unit/classify.test.ts.)

    expect((await siteLog(ns)).map((e) => e.split(' ')[1])).toEqual(
      expect.arrayContaining([`/t/${ns}/misc/ok.html`, `/t/${ns}/misc/always-503`]),
    );
    expect(await siteLog(ns)).toHaveLength(2);
    const snapshot = await env.CRAWL.getByName(id).snapshot();
    expect(snapshot?.counts).toEqual({ discovered: 2, fetched: 2, stored: 1, failed: 0, skipped: 0, duplicates: 0 });
    expect(snapshot?.pending).toBe(1);
  });

  it('answers each URL of a message of several on its own: the message acked, the URL to retry sent back alone', async () => {
    const ns = namespace();
    const base = `${site()}/t/${ns}/misc/`;
    const urls = [`${base}ok.html`, `${base}always-503`, `${base}missing.html`];
    const id = await crawlWithSeeds(urls);
    const queues = recordingQueues();
    const chunk = message({ crawlId: id, tasks: urls.map((url) => ({ url, depth: 0, hops: 0, d: 2 })) }, 1);
    const result = await runQueue('edgecrawl-frontier', [chunk], queues.env);

    // The message is acked once; its stored and failed URLs are done; the 503 goes back alone, its deliveries kept
    // (two before this message, one in it), delayed by its backoff.
    expect(result.explicitAcks).toEqual([chunk.id]);
    expect(result.retryMessages).toEqual([]);
    const back = queues.sent.filter((m) => JSON.stringify(m.body).includes('always-503'));
    expect(back).toHaveLength(1);
    expect(back[0]?.body).toEqual({ crawlId: id, tasks: [{ url: `${base}always-503`, depth: 0, hops: 0, d: 3 }] });
    expect(back[0]?.delaySeconds).toBeGreaterThanOrEqual(1);
    const snapshot = await env.CRAWL.getByName(id).snapshot();
    expect(snapshot?.counts).toMatchObject({ discovered: 3, fetched: 3, stored: 1, failed: 1 });
    expect(snapshot?.pending).toBe(1);

    // Delivered again (its consumer died before the ack), the message fetches nothing twice: its done URLs are
    // answered unclaimed, and the 503's lease is still the message's own (its id and index), so it is tried again.
    const again = await runQueue('edgecrawl-frontier', [message(chunk.body, 2, chunk.id)], recordingQueues().env);
    expect(again.explicitAcks).toEqual([chunk.id]);
    const hits = (await siteLog(ns)).map((e) => e.split(' ')[1]);
    expect(hits.filter((p) => p?.endsWith('ok.html'))).toHaveLength(1);
    expect(hits.filter((p) => p?.endsWith('missing.html'))).toHaveLength(1);
    expect(hits.filter((p) => p?.endsWith('always-503'))).toHaveLength(2);
  });

  it('records the URL as failed on its last attempt, and the crawl completes', async () => {
    const ns = namespace();
    const url = `${site()}/t/${ns}/misc/always-503`;
    const id = await crawlWithSeeds([url]);
    const stub = env.CRAWL.getByName(id);
    const maxAttempts = Number(env.MAX_ATTEMPTS);
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      const result = await runBatch([message({ crawlId: id, url, depth: 0, hops: 0 }, attempt)]);
      if (attempt < maxAttempts) expect(result.retryMessages).toHaveLength(1);
      else expect(result.explicitAcks).toHaveLength(1);
    }
    const snapshot = await stub.snapshot();
    expect(snapshot?.status).toBe('completed');
    expect(snapshot?.counts).toEqual({
      discovered: 1,
      fetched: maxAttempts,
      stored: 0,
      failed: 1,
      skipped: 0,
      duplicates: 0,
    });
    const error = await env.DB.prepare('SELECT outcome, reason, attempts, http_status FROM errors WHERE crawl_id = ?')
      .bind(id)
      .first();
    expect(error).toEqual({ outcome: 'failed', reason: 'http 503', attempts: maxAttempts, http_status: 503 });
  });

  it('a message delivered twice at once (at-least-once) is fetched once', async () => {
    const ns = namespace();
    const url = `${site()}/t/${ns}/misc/ok.html`;
    const id = await crawlWithSeeds([url]);
    const body = { crawlId: id, url, depth: 0, hops: 0 };
    const results = await Promise.all([
      runBatch([message(body)]),
      runBatch([message(body)]),
      runBatch([message(body)]),
    ]);
    expect(results.flatMap((r) => r.explicitAcks)).toHaveLength(3);
    expect(await siteLog(ns)).toHaveLength(1);
    expect((await env.CRAWL.getByName(id).snapshot())?.counts.stored).toBe(1);
    const pages = await env.DB.prepare('SELECT COUNT(*) AS n FROM pages WHERE crawl_id = ?')
      .bind(id)
      .first<{ n: number }>();
    expect(pages?.n).toBe(1);
  });

  it('refuses private addresses when ALLOW_PRIVATE_NETWORKS is not true', async () => {
    const ns = namespace();
    const url = `${site()}/t/${ns}/misc/ok.html`;
    const id = await crawlWithSeeds([url]);
    const result = await runQueue('edgecrawl-frontier', [message({ crawlId: id, url, depth: 0, hops: 0 })], {
      ...env,
      ALLOW_PRIVATE_NETWORKS: 'false',
    });
    expect(result.explicitAcks).toHaveLength(1);
    expect(await siteLog(ns)).toEqual([]);
    expect((await env.CRAWL.getByName(id).snapshot())?.counts).toMatchObject({ skipped: 1, fetched: 0 });
  });

  it('dead letters are recorded as failed so the crawl can complete', async () => {
    const url = `${site()}/t/${namespace()}/misc/ok.html`;
    const id = await crawlWithSeeds([url]);
    // As if two deliveries had claimed it and then died.
    await env.CRAWL.getByName(id).claim([url]);
    await env.CRAWL.getByName(id).complete([{ url, kind: 'retry', fetched: false, code: 'timeout' }]);
    await env.CRAWL.getByName(id).claim([url]);
    const result = await runQueue('edgecrawl-dlq', [message({ crawlId: id, url, depth: 0, hops: 0 }, 1)]);
    expect(result.explicitAcks).toHaveLength(1);
    const snapshot = await env.CRAWL.getByName(id).snapshot();
    expect(snapshot?.status).toBe('completed');
    expect(snapshot?.counts.failed).toBe(1);
    const error = await env.DB.prepare('SELECT reason, attempts FROM errors WHERE crawl_id = ?').bind(id).first();
    expect(error).toEqual({ reason: 'dead-lettered: retries exhausted', attempts: 2 });
  });

  it('fails every URL of a dead-lettered message of several, and acks it once', async () => {
    const ns = namespace();
    const urls = [1, 2, 3].map((i) => `${site()}/t/${ns}/misc/gone-${i}`);
    const id = await crawlWithSeeds(urls);
    const chunk = message({ crawlId: id, tasks: urls.map((url) => ({ url, depth: 0, hops: 0 })) }, 1);
    const result = await runQueue('edgecrawl-dlq', [chunk]);
    expect(result.explicitAcks).toEqual([chunk.id]);
    const snapshot = await env.CRAWL.getByName(id).snapshot();
    expect(snapshot).toMatchObject({ status: 'completed', counts: { discovered: 3, failed: 3 } });
    const { results } = await env.DB.prepare('SELECT url, reason FROM errors WHERE crawl_id = ? ORDER BY url')
      .bind(id)
      .all<{ url: string; reason: string }>();
    expect(results).toEqual(urls.map((url) => ({ url, reason: 'dead-lettered: retries exhausted' })));
    // Nothing was fetched.
    expect(await siteLog(ns)).toEqual([]);
  });
});
