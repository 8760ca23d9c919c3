import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { emptyUsage, type Usage } from '../../src/domain/crawl/usage';
import { api, createCrawl, namespace, site, siteLog, waitForCrawl } from '../support/api';
import { insertCrawlRow, testConfig } from '../support/fixtures';

interface UsageView {
  pages: number;
  operations: Usage['operations'];
  storage: { r2Bytes: number };
  estimate: {
    usd: number;
    usdPerMillionPages: number;
    breakdown: Record<string, number>;
    prices: { perMillion: Record<string, number> };
  };
}

async function usageOf(id: string): Promise<UsageView> {
  const res = await api(`/v1/crawls/${id}/usage`);
  expect(res.status).toBe(200);
  return (await res.json()) as UsageView;
}

/** Every object the crawl wrote to R2, with its size. */
async function objectsOf(id: string): Promise<{ key: string; size: number }[]> {
  const out: { key: string; size: number }[] = [];
  let cursor: string | undefined;
  do {
    const page = await env.BODIES.list({ prefix: `crawls/${id}/`, ...(cursor ? { cursor } : {}) });
    out.push(...page.objects.map((o) => ({ key: o.key, size: o.size })));
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return out;
}

describe('GET /v1/crawls/:id/usage', () => {
  it('reports the operations the crawl performed, counted where they happened, and what they cost', async () => {
    const ns = namespace();
    // Its root links to the seven other pages: two messages, whatever the chunks its pages are recorded in.
    const root = `${site()}/t/${ns}/flat-7/`;
    const id = await createCrawl({ seeds: [root] });
    const crawl = await waitForCrawl(id);
    expect(crawl.counts).toMatchObject({ discovered: 8, stored: 8, failed: 0 });
    // The pages fetched are the requests the site saw.
    expect(await siteLog(ns)).toHaveLength(8);
    // The last consumer reports its usage right after its last chunk: wait for it.
    let usage = await usageOf(id);
    for (let i = 0; i < 50 && usage.operations.queueOperations < 6; i++) {
      await new Promise((r) => setTimeout(r, 100));
      usage = await usageOf(id);
    }
    expect(usage.pages).toBe(8);
    // Two messages (the seed's; its seven links, due at once, in one), each written, read once and deleted (acked)
    // once: no retries on this site.
    expect(usage.operations.queueOperations).toBe(2 * 3);

    // R2: one Class A per object the crawl wrote, and exactly their bytes.
    const objects = await objectsOf(id);
    expect(objects.length).toBeGreaterThan(0);
    expect(usage.operations.r2ClassA).toBe(objects.length);
    expect(usage.storage.r2Bytes).toBe(objects.reduce((sum, o) => sum + o.size, 0));

    // D1: the crawl's job row (4 rows written: the row, its primary key index, crawls_created, crawls_finished) and one
    // row per page (the links are in R2, not D1).
    const rows = await env.DB.prepare('SELECT COUNT(*) AS n FROM pages WHERE crawl_id = ?')
      .bind(id)
      .first<{ n: number }>();
    expect(rows?.n).toBe(8);
    expect(usage.operations.d1RowsWritten).toBe(4 + 8);

    // The crawl's Durable Object: two rows per URL (offered, finished), plus its settings and a counters row per call.
    const perUrl = (usage.operations.durableObjectRowsWritten - 2 * 8) / usage.operations.durableObjectRequests;
    expect(usage.operations.durableObjectRowsWritten).toBeGreaterThanOrEqual(2 * 8);
    expect(perUrl).toBeLessThanOrEqual(2);
    expect(usage.operations.durableObjectRequests).toBeGreaterThanOrEqual(3); // start, claims, completions
    expect(usage.operations.workerInvocations).toBeGreaterThanOrEqual(1);

    // The estimate is the counts at the published prices.
    const { estimate } = usage;
    expect(estimate.breakdown.queueOperations).toBeCloseTo(6 * 0.4e-6, 9);
    expect(estimate.breakdown.d1RowsWritten).toBeCloseTo(12 * 1e-6, 9);
    expect(estimate.prices.perMillion.d1RowsWritten).toBe(1);
    expect(estimate.usd).toBeCloseTo(
      Object.values(estimate.breakdown).reduce((a, b) => a + b, 0),
      6,
    );
    expect(estimate.usdPerMillionPages).toBeCloseTo((estimate.usd / 8) * 1e6, 1);
  });

  it("counts a WARC export's R2 writes and reads with the crawl", async () => {
    const id = await createCrawl({ seeds: [`${site()}/t/${namespace()}/pure-3/`] });
    await waitForCrawl(id);
    let before = await usageOf(id);
    for (let i = 0; i < 50 && before.operations.queueOperations < 6; i++) {
      await new Promise((r) => setTimeout(r, 100));
      before = await usageOf(id);
    }
    const res = await api(`/v1/crawls/${id}/exports`, { method: 'POST' });
    const exported = (await res.json()) as { bytes: number };
    const after = await usageOf(id);
    // One multipart upload: its creation, one part, its completion; each stored segment read.
    expect(after.operations.r2ClassA - before.operations.r2ClassA).toBe(3);
    expect(after.storage.r2Bytes - before.storage.r2Bytes).toBe(exported.bytes);
    expect(after.operations.r2ClassB - before.operations.r2ClassB).toBeGreaterThanOrEqual(1);
  });

  it('answers 404 for an unknown crawl', async () => {
    expect((await api(`/v1/crawls/${crypto.randomUUID()}/usage`)).status).toBe(404);
  });
});

describe("the crawl object's requests", () => {
  it('counts one request per call served for the work, none for reads or refused calls, and saves the counts', async () => {
    const id = crypto.randomUUID();
    const url = 'https://requests.test/a';
    const config = testConfig({ seeds: [url], maxRenders: 1 });
    await insertCrawlRow(id, config);
    const stub = env.CRAWL.getByName(id);
    const requests = async () => (await stub.usage())?.usage.operations.durableObjectRequests;
    // Each call, and how many requests it counts.
    const counts = async (call: () => Promise<unknown>, n = 1) => {
      const before = (await requests()) ?? 0;
      await call();
      expect(await requests()).toBe(before + n);
    };

    await counts(() => stub.start(id, config));
    expect(await requests()).toBe(1);
    await counts(() => stub.claim([url]));
    await counts(() => stub.dedupe([{ url, canonical: null, key: 'k', unchanged: false }]));
    await counts(async () => expect(await stub.takeRender()).toBe(true));
    await counts(async () => expect(await stub.takeRender()).toBe(false)); // the budget is spent: counted all the same
    await counts(() => stub.recordUsage({ ...emptyUsage(), r2Bytes: 1 }));
    await counts(() => stub.complete([{ url, kind: 'retry', fetched: true, code: 'http_5xx' }]));
    await counts(() => stub.start(id, config), 0); // started already
    await counts(() => Promise.all([stub.status(), stub.usage(), stub.summary(), stub.snapshot()]), 0);
    // The last pending URL ended: the crawl is done, a claim is refused (not counted), and a retry reopens it.
    await counts(() => stub.abandon([{ url, reason: 'dead-lettered', code: 'retries_exhausted' }]));
    expect(await stub.snapshot()).toMatchObject({ status: 'completed', counts: { failed: 1 }, pending: 0 });
    await counts(() => stub.claim([url]), 0);
    await counts(() => stub.retryFailed(10));
    expect(await stub.snapshot()).toMatchObject({ status: 'running', counts: { failed: 0 }, pending: 1 });
    // A cancel counts the one request of the alarm it runs, which ends the queued URL and writes every count.
    await counts(() => stub.cancel());
    const snapshot = await stub.snapshot();
    expect(snapshot).toMatchObject({ status: 'cancelled', counts: { skipped: 1 }, pending: 0 });
    const inMemory = await stub.usage();
    expect(inMemory?.usage.operations.durableObjectRequests).toBe(10);
    expect(inMemory?.usage.r2Bytes).toBe(1);
    expect(inMemory?.usage.renders).toBe(1);
    await runInDurableObject(stub, (_instance, state) => {
      const row = state.storage.sql.exec<{ v: string }>("SELECT v FROM meta WHERE k = 'counts'").one();
      const saved = JSON.parse(row.v) as { counters: Record<string, number>; usage: Usage };
      expect(saved.counters).toMatchObject({ ...snapshot?.counts, pending: 0 });
      expect(saved.usage.operations.durableObjectRequests).toBe(10);
      expect(saved.usage.renders).toBe(1);
    });
  });
});
