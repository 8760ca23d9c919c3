import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { CrawlConfig, CrawlTask } from '../../src/types';
import { namespace, site, siteLog } from '../support/api';
import { insertCrawlRow, queueMessage as message, runQueue, testConfig } from '../support/fixtures';

async function crawlWithSeeds(seeds: string[], overrides: Partial<CrawlConfig> = {}): Promise<string> {
  const id = crypto.randomUUID();
  const config = testConfig({ seeds, maxDepth: 0, ...overrides });
  await insertCrawlRow(id, config);
  await env.CRAWL.getByName(id).start(id, config);
  return id;
}

const runBatch = (messages: ReturnType<typeof message>[]) => runQueue('edgecrawl-frontier', messages);

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
});
