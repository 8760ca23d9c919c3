import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { Usage } from '../../src/domain/crawl/usage';
import { api, createCrawl, namespace, site, siteLog, waitForCrawl } from '../support/api';

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
    const root = `${site()}/t/${ns}/pure-7/`;
    const id = await createCrawl({ seeds: [root] });
    const crawl = await waitForCrawl(id);
    expect(crawl.counts).toMatchObject({ discovered: 8, stored: 8, failed: 0 });
    // The pages fetched are the requests the site saw.
    expect(await siteLog(ns)).toHaveLength(8);
    // The last consumer reports its usage right after its last chunk: wait for it.
    let usage = await usageOf(id);
    for (let i = 0; i < 50 && usage.operations.queueOperations < 24; i++) {
      await new Promise((r) => setTimeout(r, 100));
      usage = await usageOf(id);
    }
    expect(usage.pages).toBe(8);
    // One message per URL, each written, read once and deleted (acked) once: no retries on this site.
    expect(usage.operations.queueOperations).toBe(8 * 3);

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
    expect(estimate.breakdown.queueOperations).toBeCloseTo(24 * 0.4e-6, 9);
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
    for (let i = 0; i < 50 && before.operations.queueOperations < 12; i++) {
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
