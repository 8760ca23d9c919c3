import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { readFormats } from '../../src/domain/firecrawl/formats';
import { webhookEvent } from '../../src/queues/webhook-events';
import { saveFirecrawlJob } from '../../src/storage/d1/firecrawl-jobs';
import { allPages, api, createCrawl, namespace, site, waitForCrawl } from '../support/api';
import { insertCrawlRow, queueMessage, runQueue, testConfig } from '../support/fixtures';
import { hmacHex, type Received, received, waitForDeliveries } from '../support/webhooks';

/** vitest.config.ts's WEBHOOK_SECRET: the deployment's key, for webhooks without a secret of their own. */
const DEPLOYMENT_SECRET = 'test-deployment-webhook-secret';
const RECEIVER_SECRET = 'Bearer receiver-secret';

interface Payload {
  success: boolean;
  type: string;
  id: string;
  webhookId: string;
  data: { markdown?: string; metadata: { sourceURL?: string; statusCode?: number } }[];
  metadata?: Record<string, unknown>;
  error?: string;
}

async function assertFirecrawlSigned(delivery: Received, secret: string): Promise<void> {
  expect(delivery.headers['x-firecrawl-signature']).toBe(`sha256=${await hmacHex(secret, delivery.body)}`);
}

/** The raw text of an answer, to search for a secret in. */
const text = async (path: string) => (await api(path)).text();

describe("webhooks in Firecrawl's format", () => {
  it('posts crawl.started, a crawl.page with its document per stored page, crawl.completed; never shows the headers', async () => {
    const ns = namespace();
    const hook = `${site()}/__hook/${ns}`;
    const id = await createCrawl({
      seeds: [`${site()}/t/${ns}/pure-4/`],
      webhook: {
        url: hook,
        format: 'firecrawl',
        events: ['crawl.started', 'page.stored', 'crawl.completed'],
        headers: { Authorization: RECEIVER_SECRET },
        metadata: { run: 'x' },
      },
    });
    const crawl = await waitForCrawl(id);
    const stored = (await allPages(id)).filter((p) => p.status === 200).map((p) => p.url);
    expect(stored).toHaveLength(crawl.counts.stored);
    const deliveries = await waitForDeliveries(ns, stored.length + 2);
    await new Promise((r) => setTimeout(r, 1000));
    expect(await received(ns)).toHaveLength(stored.length + 2);
    for (const delivery of deliveries) {
      expect(delivery.headers.authorization).toBe(RECEIVER_SECRET);
      expect(delivery.headers['content-type']).toBe('application/json');
      await assertFirecrawlSigned(delivery, DEPLOYMENT_SECRET);
    }
    const payloads = deliveries.map((d) => JSON.parse(d.body) as Payload);
    expect(new Set(payloads.map((p) => p.webhookId)).size).toBe(payloads.length);
    for (const p of payloads) expect(p).toMatchObject({ success: true, id, metadata: { run: 'x' } });
    const types = payloads.map((p) => p.type);
    expect(types.filter((t) => t === 'crawl.started')).toHaveLength(1);
    expect(types.filter((t) => t === 'crawl.completed')).toHaveLength(1);
    const pages = payloads.filter((p) => p.type === 'crawl.page');
    expect(pages.map((p) => p.data[0]?.metadata.sourceURL).sort()).toEqual([...stored].sort());
    for (const page of pages) {
      expect(page.data).toHaveLength(1);
      expect(page.data[0]?.markdown).toMatch(/\S/);
      expect(page.data[0]?.metadata.statusCode).toBe(200);
    }
    for (const p of payloads.filter((p) => p.type !== 'crawl.page')) expect(p.data).toEqual([]);

    const shown = (await (await api(`/v1/crawls/${id}`)).json()) as { config: { webhook: unknown } };
    expect(shown.config.webhook).toEqual({
      url: hook,
      format: 'firecrawl',
      events: ['crawl.started', 'page.stored', 'crawl.completed'],
      headerNames: ['Authorization'],
      metadata: { run: 'x' },
    });
    for (const path of [`/v1/crawls/${id}`, '/v1/crawls?limit=1000', `/v1/crawls/${id}/export?format=jsonl`])
      expect(await text(path), path).not.toContain('receiver-secret');
  });

  it('sends crawl.failed, and answers status "failed", for a crawl whose seed is refused', async () => {
    const ns = namespace();
    // A closed port: the seed's connection is refused, so the crawl ends with no page.
    const seed = 'http://127.0.0.1:1/';
    const body = JSON.stringify({
      url: seed,
      webhook: { url: `${site()}/__hook/${ns}`, events: ['started', 'failed'] },
    });
    const res = await api('/v2/crawl', { method: 'POST', body });
    const { id } = (await res.json()) as { id: string };
    await waitForCrawl(id);
    const status = (await (await api(`/v2/crawl/${id}`)).json()) as { status: string; completed: number };
    expect(status).toMatchObject({ status: 'failed', completed: 0 });
    const deliveries = await waitForDeliveries(ns, 2);
    const payloads = deliveries.map((d) => JSON.parse(d.body) as Payload);
    const failed = payloads.find((p) => p.type === 'crawl.failed');
    expect(failed).toMatchObject({ success: false, id, data: [] });
    expect(failed?.error).toContain(seed);
    expect(payloads.map((p) => p.type).sort()).toEqual(['crawl.failed', 'crawl.started']);
  });

  it('sends no crawl.completed to a job that asked only for failed, and no crawl.failed to one that asked only for completed', async () => {
    const ns = namespace();
    const hook = `${site()}/__hook/${ns}`;
    const start = (url: string, events: string[]) =>
      api('/v2/crawl', { method: 'POST', body: JSON.stringify({ url, limit: 2, webhook: { url: hook, events } }) })
        .then((r) => r.json() as Promise<{ id: string }>)
        .then(({ id }) => waitForCrawl(id));
    await start(`${site()}/t/${ns}/pure-4/`, ['failed', 'started']);
    await start('http://127.0.0.1:1/', ['completed', 'started']);
    await waitForDeliveries(ns, 2);
    await new Promise((r) => setTimeout(r, 1500));
    const types = (await received(ns)).map((d) => (JSON.parse(d.body) as Payload).type);
    expect(types).toEqual(['crawl.started', 'crawl.started']);
  });

  it("edgecrawl's format sends the webhook's headers too, and crawl.started and page.stored when named", async () => {
    const ns = namespace();
    const id = await createCrawl({
      seeds: [`${site()}/t/${ns}/pure-2/`],
      webhook: {
        url: `${site()}/__hook/${ns}`,
        secret: 'test-webhook-secret-0123456789',
        events: ['crawl.started', 'page.stored'],
        headers: { Authorization: RECEIVER_SECRET },
      },
    });
    const crawl = await waitForCrawl(id);
    const deliveries = await waitForDeliveries(ns, crawl.counts.stored + 1);
    const events = deliveries.map((d) => JSON.parse(d.body) as { type: string; data: Record<string, unknown> });
    expect(events.filter((e) => e.type === 'crawl.started')).toEqual([
      expect.objectContaining({ data: { seeds: 1, scheduleId: null } }),
    ]);
    const storedEvents = events.filter((e) => e.type === 'page.stored');
    expect(storedEvents).toHaveLength(crawl.counts.stored);
    expect(storedEvents[0]?.data).toMatchObject({ url: expect.stringContaining(ns), httpStatus: 200 });
    for (const d of deliveries) {
      expect(d.headers.authorization).toBe(RECEIVER_SECRET);
      expect(d.headers['edgecrawl-signature']).toMatch(/^t=\d+,v1=/);
      expect(d.headers).not.toHaveProperty('x-firecrawl-signature');
    }
  });

  it("a schedule's webhook headers are never shown either", async () => {
    const ns = namespace();
    const res = await api('/v1/schedules', {
      method: 'POST',
      body: JSON.stringify({
        everySeconds: 3600,
        crawl: {
          seeds: [`${site()}/t/${ns}/pure-1/`],
          webhook: { url: `${site()}/__hook/${ns}`, format: 'firecrawl', headers: { Authorization: RECEIVER_SECRET } },
        },
      }),
    });
    const body = await res.text();
    expect(res.status, body).toBe(201);
    expect(body).not.toContain('receiver-secret');
    const schedule = JSON.parse(body) as { id: string; crawl: { webhook: unknown } };
    expect(schedule.crawl.webhook).toEqual({
      url: `${site()}/__hook/${ns}`,
      format: 'firecrawl',
      headerNames: ['Authorization'],
    });
    for (const path of ['/v1/schedules?limit=1000', `/v1/schedules/${schedule.id}`])
      expect(await text(path), path).not.toContain('receiver-secret');
    await api(`/v1/schedules/${schedule.id}`, { method: 'DELETE' });
  });
});

describe("the webhooks consumer, Firecrawl's format", () => {
  it("names a batch scrape's events batch_scrape.*, signs with the webhook's own secret, tells a page gone", async () => {
    const ns = namespace();
    const id = crypto.randomUUID();
    const secret = 'own-webhook-secret-0123456789';
    const webhook = { url: `${site()}/__hook/${ns}`, format: 'firecrawl' as const, secret };
    await insertCrawlRow(id, testConfig({ seeds: ['http://a.test/'], webhook }), 'completed');
    const markdownOnly = readFormats(['markdown']);
    if (!markdownOnly.ok) throw new Error(markdownOnly.message);
    await saveFirecrawlJob(env.DB, {
      crawlId: id,
      kind: 'batch',
      formats: markdownOnly.formats,
      warning: null,
      events: null,
    });
    const started = webhookEvent('crawl.started', id, {});
    const page = webhookEvent('page.stored', id, { url: 'http://a.test/gone' });
    const result = await runQueue('edgecrawl-webhooks', [queueMessage(started, 1, 'a'), queueMessage(page, 1, 'b')]);
    expect(result.explicitAcks.sort()).toEqual(['a', 'b']);
    const got = await received(ns);
    for (const d of got) await assertFirecrawlSigned(d, secret);
    const payloads = got.map((d) => JSON.parse(d.body) as Payload).sort((a, b) => a.type.localeCompare(b.type));
    expect(payloads).toEqual([
      {
        success: false,
        type: 'batch_scrape.page',
        id,
        webhookId: page.id,
        data: [],
        error: expect.stringContaining('http://a.test/gone'),
      },
      { success: true, type: 'batch_scrape.started', id, webhookId: started.id, data: [] },
    ]);
  });
});
