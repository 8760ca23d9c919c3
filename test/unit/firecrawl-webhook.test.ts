import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { webhookRequest } from '../../src/consumers/webhook-request';
import { webhookSchema } from '../../src/domain/crawl/webhook-setting';
import type { FirecrawlDocument } from '../../src/domain/firecrawl/document';
import { webhookOf } from '../../src/domain/firecrawl/webhook-options';
import { firecrawlBody, firecrawlPayload, MAX_WEBHOOK_BODY_BYTES } from '../../src/domain/firecrawl/webhook-payload';
import { signFirecrawlWebhook } from '../../src/domain/output/webhook-signature';
import { readSettings } from '../../src/settings';

const event = (type: Parameters<typeof firecrawlPayload>[0]['event']['type'], data: Record<string, unknown> = {}) => ({
  id: 'ev-1',
  type,
  crawlId: 'crawl-1',
  data,
});
const doc: FirecrawlDocument = { markdown: '# Hi', metadata: { sourceURL: 'https://a.test/', statusCode: 200 } };

describe("Firecrawl's webhook payloads", () => {
  it('names each event as Firecrawl does, its documents and what went wrong', () => {
    const cases = [
      [event('crawl.started'), { success: true, type: 'crawl.started', data: [] }],
      [event('page.stored', { url: 'https://a.test/' }), { success: true, type: 'crawl.page', data: [doc] }],
      [event('page.changed', { url: 'https://a.test/' }), { success: true, type: 'crawl.page', data: [doc] }],
      [
        event('page.failed', { url: 'https://a.test/x', reason: 'http 404' }),
        { success: false, type: 'crawl.page', data: [], error: 'http 404' },
      ],
      [event('crawl.completed', { status: 'completed' }), { success: true, type: 'crawl.completed', data: [] }],
      [event('crawl.cancelled'), { success: false, type: 'crawl.cancelled', data: [], error: 'cancelled' }],
    ] as const;
    for (const [e, expected] of cases)
      expect(firecrawlPayload({ event: e, kind: 'crawl', document: doc })).toEqual({
        ...expected,
        id: 'crawl-1',
        webhookId: 'ev-1',
      });
  });

  it('sends the ending of a job with no document as crawl.failed, saying why, when the job asked for it', async () => {
    const ended = { ...event('crawl.completed', { status: 'completed' }), createdAt: '2026-01-01T00:00:00Z' };
    const failure = 'the crawl ended with no page: https://a.test/: connection refused';
    expect(firecrawlPayload({ event: ended, kind: 'crawl', failure })).toEqual({
      success: false,
      type: 'crawl.failed',
      id: 'crawl-1',
      webhookId: 'ev-1',
      data: [],
      error: failure,
    });
    const url = 'https://hooks.test/x';
    const hook = { url, format: 'firecrawl' as const, events: ['crawl.completed' as const] };
    const settings = readSettings({ USER_AGENT: 'edgecrawl-test' } as unknown as Env);
    const facts = (events: ('completed' | 'failed')[] | null, why: string | null) => ({
      kind: 'crawl' as const,
      document: null,
      events,
      failure: why,
    });
    expect(await webhookRequest(hook, ended, settings, facts(['completed'], failure))).toBeNull();
    expect(await webhookRequest(hook, ended, settings, facts(['failed'], null))).toBeNull();
    expect(
      JSON.parse((await webhookRequest(hook, ended, settings, facts(['failed'], failure)))?.body ?? '{}'),
    ).toMatchObject({
      type: 'crawl.failed',
    });
    expect(await webhookRequest(hook, ended, settings, facts(null, null))).not.toBeNull();
    // Firecrawl's `failed` filter is edgecrawl's crawl.completed (sent as crawl.failed when the job failed).
    expect(webhookOf({ url, events: ['failed'] }).events).toEqual(['crawl.completed']);
  });

  it("a batch's events are batch_scrape.*; metadata is echoed when there is some", () => {
    const payload = firecrawlPayload({ event: event('crawl.started'), kind: 'batch', metadata: { run: 'x' } });
    expect(payload).toMatchObject({ type: 'batch_scrape.started', metadata: { run: 'x' } });
    expect(firecrawlPayload({ event: event('crawl.started'), kind: 'crawl', metadata: {} })).not.toHaveProperty(
      'metadata',
    );
  });

  it('a page whose document could not be read is told as a failure, not an empty success', () => {
    const payload = firecrawlPayload({ event: event('page.stored', { url: 'https://a.test/' }), kind: 'crawl' });
    expect(payload).toMatchObject({ success: false, data: [], error: expect.stringContaining('https://a.test/') });
  });

  it('keeps the body under the cap: rawHtml and html go first, then the end of the markdown, saying so', () => {
    const big: FirecrawlDocument = {
      markdown: 'm'.repeat(600),
      html: 'h'.repeat(300),
      rawHtml: 'r'.repeat(300),
      warning: 'earlier',
      metadata: { sourceURL: 'https://a.test/' },
    };
    const payload = firecrawlPayload({
      event: event('page.stored', { url: 'https://a.test/' }),
      kind: 'crawl',
      document: big,
    });
    const one = JSON.parse(firecrawlBody(payload, 1300)) as { data: FirecrawlDocument[] };
    expect(one.data[0]).not.toHaveProperty('rawHtml');
    expect(one.data[0]?.html).toBe(big.html);
    expect(one.data[0]?.warning).toMatch(/^earlier; rawHtml left out of this webhook/);

    const cut = firecrawlBody(payload, 700);
    expect(new TextEncoder().encode(cut).length).toBeLessThanOrEqual(700);
    const doc2 = (JSON.parse(cut) as { data: FirecrawlDocument[] }).data[0];
    expect(doc2).not.toHaveProperty('html');
    expect(String(doc2?.markdown).length).toBeLessThan(600);
    expect(doc2?.warning).toMatch(/rawHtml, html, the end of markdown left out/);
    expect(doc2?.metadata).toEqual(big.metadata);
    // Small payloads are sent as they are.
    expect(firecrawlBody(payload)).toBe(JSON.stringify(payload));
    expect(MAX_WEBHOOK_BODY_BYTES).toBe(1024 * 1024);
  });

  it('signs the exact body: sha256=<hex HMAC-SHA256>', async () => {
    const body = '{"a":1}';
    const expected = createHmac('sha256', 'k'.repeat(16)).update(body).digest('hex');
    expect(await signFirecrawlWebhook('k'.repeat(16), body)).toBe(`sha256=${expected}`);
  });
});

describe('the webhook setting', () => {
  const url = 'https://hooks.test/x';
  const issues = (input: unknown) => webhookSchema.safeParse(input).error?.issues.map((i) => i.message) ?? [];

  it("needs a secret in edgecrawl's format, not in Firecrawl's", () => {
    expect(issues({ url })).toEqual([expect.stringMatching(/webhook\.secret is required .* "firecrawl"/)]);
    expect(webhookSchema.parse({ url, format: 'firecrawl' })).toEqual({ url, format: 'firecrawl' });
    expect(issues({ url, format: 'firecrawl', secret: 'short' })).toEqual([
      'webhook.secret must be at least 16 characters',
    ]);
    expect(webhookSchema.parse({ url, secret: 's'.repeat(16) }).format).toBe('edgecrawl');
  });

  it('checks headers: token names, not the ones edgecrawl sets, no CR/LF, at most 20', () => {
    const ok = { url, format: 'firecrawl', headers: { Authorization: 'Bearer x', 'X-Run': '1' } };
    expect(webhookSchema.parse(ok).headers).toEqual(ok.headers);
    for (const headers of [
      { 'bad name': 'x' },
      { 'Content-Type': 'text/plain' },
      { 'X-Firecrawl-Signature': 'x' },
      { host: 'x' },
      { 'x-a': 'a\r\nb' },
      { 'x-a': 'a'.repeat(1025) },
      { 'x-a': '1', 'X-A': '2' },
      Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`x-${i}`, 'v'])),
    ])
      expect(issues({ url, format: 'firecrawl', headers }), JSON.stringify(headers)).not.toEqual([]);
  });

  it('takes metadata of scalars up to 4 KB', () => {
    expect(webhookSchema.parse({ url, format: 'firecrawl', metadata: { run: 'x', n: 1 } }).metadata).toEqual({
      run: 'x',
      n: 1,
    });
    expect(issues({ url, format: 'firecrawl', metadata: { big: 'x'.repeat(5000) } })).toEqual([
      'webhook.metadata: at most 4096 bytes as JSON',
    ]);
  });

  it("reads Firecrawl's webhook into one", () => {
    const parsed = webhookSchema.parse(
      webhookOf({ url, headers: { Authorization: 'Bearer x' }, metadata: { run: 'x' }, events: ['page'] }),
    );
    expect(parsed).toEqual({
      url,
      format: 'firecrawl',
      events: ['page.stored', 'page.failed'],
      headers: { Authorization: 'Bearer x' },
      metadata: { run: 'x' },
    });
  });
});
