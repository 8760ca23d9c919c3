import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { WEBHOOK_MAX_ATTEMPTS, webhookRetryDelaySeconds } from '../../src/consumers/webhooks';
import { runDueSchedules } from '../../src/jobs/schedules';
import { type WebhookEvent, webhookEvent } from '../../src/queues/webhook-events';
import { api, createCrawl, namespace, site, waitForCrawl } from '../support/api';
import { insertCrawlRow, queueMessage, runQueue, testConfig } from '../support/fixtures';
import { hmacHex, type Received, received, waitForDeliveries } from '../support/webhooks';

const SECRET = 'test-webhook-secret-0123456789';

/** Checks a delivery's signature the way a receiver would, computing the HMAC here. */
async function assertSigned(delivery: Received): Promise<void> {
  const header = delivery.headers['edgecrawl-signature'] ?? '';
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header);
  expect(match, header).not.toBeNull();
  const [, t, v1] = match as unknown as [string, string, string];
  expect(Math.abs(Date.now() / 1000 - Number(t))).toBeLessThan(300);
  expect(v1).toBe(await hmacHex(SECRET, `${t}.${delivery.body}`));
}

describe('webhooks', () => {
  it('posts signed page.failed and crawl.completed events (the default ones), and never shows the secret', async () => {
    const ns = namespace();
    const root = `${site()}/t/${ns}/misc/`;
    const id = await createCrawl({ seeds: [root], webhook: { url: `${site()}/__hook/${ns}`, secret: SECRET } });
    const crawl = await waitForCrawl(id);
    expect(crawl.counts.failed).toBe(3);

    const deliveries = await waitForDeliveries(ns, 4);
    // No more than one delivery per event; without `events`, the default ones: no crawl.started, no page.stored for
    // the crawl's 6 stored pages.
    expect(crawl.counts.stored).toBe(6);
    await new Promise((r) => setTimeout(r, 1500));
    expect(await received(ns)).toHaveLength(4);
    const events = deliveries.map((d) => JSON.parse(d.body) as WebhookEvent);
    for (const delivery of deliveries) {
      await assertSigned(delivery);
      const event = JSON.parse(delivery.body) as WebhookEvent;
      expect(delivery.headers['content-type']).toBe('application/json');
      expect(delivery.headers['edgecrawl-event']).toBe(event.type);
      expect(delivery.headers['edgecrawl-delivery']).toBe(event.id);
      expect(event.crawlId).toBe(id);
    }
    expect(new Set(events.map((e) => e.id)).size).toBe(4);

    const failed = events.filter((e) => e.type === 'page.failed');
    const errors = (await (await api(`/v1/crawls/${id}/errors?outcome=failed`)).json()) as {
      errors: { url: string; reason: string; code: string; attempts: number; httpStatus: number | null }[];
    };
    expect(failed.map((e) => e.data).sort((a, b) => String(a.url).localeCompare(String(b.url)))).toEqual(
      errors.errors.map((e) => ({
        url: e.url,
        reason: e.reason,
        code: e.code,
        attempts: e.attempts,
        httpStatus: e.httpStatus,
      })),
    );
    expect(failed.every((e) => e.data.code !== 'other')).toBe(true);
    const completed = events.filter((e) => e.type === 'crawl.completed');
    expect(completed).toHaveLength(1);
    expect(completed[0]!.data).toMatchObject({ status: 'completed', counts: crawl.counts });

    const shown = (await (await api(`/v1/crawls/${id}`)).json()) as { config: { webhook: unknown } };
    expect(shown.config.webhook).toEqual({ url: `${site()}/__hook/${ns}`, format: 'edgecrawl' });
    expect(JSON.stringify(shown)).not.toContain(SECRET);
  });

  it('posts crawl.cancelled when a crawl is cancelled', async () => {
    const ns = namespace();
    const id = await createCrawl({
      seeds: [`${site()}/t/${ns}/pure-50-d200/`],
      webhook: { url: `${site()}/__hook/${ns}`, secret: SECRET },
    });
    expect((await api(`/v1/crawls/${id}`, { method: 'DELETE' })).status).toBe(200);
    const [delivery] = await waitForDeliveries(ns, 1);
    await assertSigned(delivery!);
    const event = JSON.parse(delivery!.body) as WebhookEvent;
    expect(event).toMatchObject({ type: 'crawl.cancelled', crawlId: id, data: { status: 'cancelled' } });
  });

  it('a receiver that is down does not hold up the crawl', async () => {
    const ns = namespace();
    // Nothing listens on port 1: every delivery fails, and is retried apart from the crawl.
    const id = await createCrawl({
      seeds: [`${site()}/t/${ns}/misc/`],
      webhook: { url: 'http://127.0.0.1:1/hook', secret: SECRET },
    });
    const crawl = await waitForCrawl(id, 30_000);
    expect(crawl.status).toBe('completed');
    expect(crawl.counts).toEqual({ discovered: 19, fetched: 20, stored: 6, failed: 3, skipped: 10, duplicates: 0 });
  });

  it('validates the webhook: an absolute http(s) URL, not private unless allowed, a secret of 16+ characters', async () => {
    const seeds = [`${site()}/t/${namespace()}/pure-1/`];
    const bad = [
      { url: 'ftp://example.com/hook', secret: SECRET },
      { url: 'not a url', secret: SECRET },
      { url: `${site()}/__hook/x`, secret: 'short' },
      { url: `${site()}/__hook/x` },
      { url: `${site()}/__hook/x`, format: 'edgecrawl' },
      { url: `${site()}/__hook/x`, format: 'firecrawl', headers: { 'Content-Type': 'text/plain' } },
      { url: `${site()}/__hook/x`, format: 'firecrawl', headers: { 'X-A': 'a\r\nb' } },
      { url: `${site()}/__hook/x`, format: 'firecrawl', metadata: { big: 'x'.repeat(5000) } },
      { url: `${site()}/__hook/x`, secret: SECRET, events: ['page.stored', 'crawl.failed'] },
      { url: `${site()}/__hook/x`, secret: SECRET, extra: 1 },
      { url: 'http://127.0.0.77/hook', secret: SECRET },
      'http://example.com/hook',
    ];
    for (const webhook of bad) {
      const res = await api('/v1/crawls', { method: 'POST', body: JSON.stringify({ seeds, webhook }) });
      expect(res.status, JSON.stringify(webhook)).toBe(400);
      expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/webhook/);
    }
    const res = await api('/v1/crawls', { method: 'POST', body: JSON.stringify({ seeds, webhook: bad[3] }) });
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(
      /webhook\.secret is required .* unless webhook\.format is "firecrawl"/,
    );
  });
});

describe('the webhooks consumer', () => {
  async function crawlWithWebhook(url: string | null): Promise<string> {
    const id = crypto.randomUUID();
    await insertCrawlRow(
      id,
      testConfig({ seeds: ['http://a.test/'], webhook: url ? { url, format: 'edgecrawl', secret: SECRET } : null }),
      'completed',
    );
    return id;
  }

  async function consume(messages: { body: unknown; attempts: number }[]) {
    return runQueue(
      'edgecrawl-webhooks',
      messages.map((m, i) => queueMessage(m.body, m.attempts, `m${i}`)),
    );
  }

  it('retries a failed delivery with backoff, acks it once delivered, gives up after the last attempt', async () => {
    const ns = namespace();
    const id = await crawlWithWebhook(`${site()}/__hook/${ns}?fail=1`);
    const event = webhookEvent('page.failed', id, {
      url: 'http://a.test/x',
      reason: 'http 404',
      attempts: 1,
      httpStatus: 404,
    });

    const first = await consume([{ body: event, attempts: 1 }]);
    expect(first.explicitAcks).toEqual([]);
    expect(first.retryMessages.map((m) => m.msgId)).toEqual(['m0']);

    const second = await consume([{ body: event, attempts: 2 }]);
    expect(second.explicitAcks).toEqual(['m0']);
    const got = await received(ns);
    expect(got.map((r) => r.status)).toEqual([500, 204]);
    // Both attempts carry the same event, each signed when sent.
    expect(got[0]!.body).toBe(got[1]!.body);
    await assertSigned(got[1]!);

    const down = await crawlWithWebhook('http://127.0.0.1:1/hook');
    const last = await consume([
      { body: webhookEvent('crawl.completed', down, {}), attempts: WEBHOOK_MAX_ATTEMPTS - 1 },
      { body: webhookEvent('crawl.completed', down, {}), attempts: WEBHOOK_MAX_ATTEMPTS },
    ]);
    expect(last.retryMessages.map((m) => m.msgId)).toEqual(['m0']);
    expect(last.explicitAcks).toEqual(['m1']);
  });

  it('acks malformed events and events of crawls without a webhook or gone', async () => {
    const without = await crawlWithWebhook(null);
    const result = await consume([
      { body: { nope: true }, attempts: 1 },
      { body: webhookEvent('crawl.completed', without, {}), attempts: 1 },
      { body: webhookEvent('crawl.completed', crypto.randomUUID(), {}), attempts: 1 },
    ]);
    expect(result.explicitAcks.sort()).toEqual(['m0', 'm1', 'm2']);
    expect(result.retryMessages).toEqual([]);
  });

  it('waits 5 s before the second attempt, doubling up to an hour, with jitter', () => {
    expect([1, 2, 3, 8, 20].map((attempt) => webhookRetryDelaySeconds(attempt, () => 0))).toEqual([
      3, 5, 10, 320, 1800,
    ]);
    expect([1, 2, 3, 8, 20].map((attempt) => webhookRetryDelaySeconds(attempt, () => 1))).toEqual([
      5, 10, 20, 640, 3600,
    ]);
  });
});

describe('page.changed', () => {
  it("posts each page a recrawl found new or changed, with the start of its diff, and only that with notify 'changes'", async () => {
    const ns = namespace();
    const root = `${site()}/t/${ns}/cond-5/`;
    const res = await api('/v1/schedules', {
      method: 'POST',
      body: JSON.stringify({
        everySeconds: 3600,
        crawl: {
          seeds: [root],
          extract: { formats: ['markdown'] },
          webhook: { url: `${site()}/__hook/${ns}`, secret: SECRET },
        },
        notify: 'changes',
      }),
    });
    const schedule = (await res.json()) as { id: string; crawl: { webhook: unknown } };
    expect(schedule.crawl.webhook).toEqual({
      url: `${site()}/__hook/${ns}`,
      format: 'edgecrawl',
      events: ['page.changed'],
    });
    const runOnce = async () => {
      await env.DB.prepare('UPDATE schedules SET next_run_at = 0 WHERE id = ?').bind(schedule.id).run();
      const [id] = await runDueSchedules(env);
      await waitForCrawl(id ?? '');
      return id ?? '';
    };
    await runOnce();
    await fetch(`${site()}/__bump/${ns}`, { method: 'PUT' });
    const second = await runOnce();
    // notify "changes": page.changed only (no crawl.completed, no page.failed for p3, a 404 now), for the root (it
    // links to p6 now) and p6 (new). p2 changed its <title> only: its content did not change, no event.
    const deliveries = await waitForDeliveries(ns, 2);
    await new Promise((r) => setTimeout(r, 1000));
    const changed = (await received(ns))
      .map((d) => JSON.parse(d.body) as WebhookEvent)
      .filter((e) => e.type === 'page.changed')
      .sort((a, b) => String(a.data.url).localeCompare(String(b.data.url)));
    expect(deliveries.map((d) => (JSON.parse(d.body) as WebhookEvent).type)).toEqual(['page.changed', 'page.changed']);
    expect(changed.map((e) => [e.crawlId, String(e.data.url).slice(root.length), e.data.kind])).toEqual([
      [second, '', 'changed'],
      [second, 'p6.html', 'new'],
    ]);
    expect(changed[0]?.data.diff).toMatch(/^@@ -1,1 \+1,1 @@\n-.*p5\.html\)\n\+.*p6\.html\)\n$/);
    expect(changed[1]?.data).toMatchObject({
      added: 1,
      removed: 0,
      diff: '@@ -0,0 +1,1 @@\n+page 6\n',
      diffCut: false,
      fields: [],
      diffUrl: expect.stringContaining(`/v1/crawls/${second}/diff?url=`),
    });
    await api(`/v1/schedules/${schedule.id}`, { method: 'DELETE' });
  });

  it('refuses notify "changes" without a webhook', async () => {
    const body = { everySeconds: 3600, crawl: { seeds: [`${site()}/x`] }, notify: 'changes' };
    const res = await api('/v1/schedules', { method: 'POST', body: JSON.stringify(body) });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/notify: .*crawl\.webhook/);
  });
});
