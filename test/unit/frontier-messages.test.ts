import { describe, expect, it } from 'vitest';
import { Envelope } from '../../src/consumers/tasks';
import { messagesOf, type Outgoing, sendBatches, TASKS_PER_MESSAGE, tasksOfBody } from '../../src/queues/frontier';

const entry = (i: number, extra: Partial<Outgoing['entry']> = {}) => ({
  url: `https://a.test/p${i}`,
  depth: 1,
  hops: 0,
  ...extra,
});

describe('frontier messages of several URLs', () => {
  it("put a crawl's URLs due at the same second in one message, up to TASKS_PER_MESSAGE, in order", () => {
    const now = 1_000_000;
    const items = Array.from({ length: 23 }, (_, i) => ({ entry: entry(i) }));
    const messages = messagesOf('c1', items, 0, now);
    expect(messages.map((m) => m.body.tasks.length)).toEqual([TASKS_PER_MESSAGE, TASKS_PER_MESSAGE, 3]);
    expect(messages.flatMap((m) => m.body.tasks.map((t) => t.url))).toEqual(items.map((i) => i.entry.url));
    expect(messages.every((m) => m.delaySeconds === 0 && m.body.crawlId === 'c1')).toBe(true);
    // What the queue is sent reads back as the same tasks, each with no earlier deliveries.
    const read = messages.flatMap((m) => tasksOfBody(m.body) ?? []);
    expect(read.map((r) => r.task)).toEqual(items.map((i) => ({ crawlId: 'c1', ...i.entry })));
    expect(read.every((r) => r.priorDeliveries === 0)).toBe(true);
  });

  it('never send a URL before it is due: each due second has messages of its own, delayed to it', () => {
    const now = 5_000_000;
    const items = [
      { entry: entry(1) },
      { entry: entry(2, { dueAt: now + 3_000 }) },
      { entry: entry(3) },
      { entry: entry(4, { dueAt: now + 3_000 }) },
      { entry: entry(5, { dueAt: now + 9_000 }) },
    ];
    const messages = messagesOf('c1', items, 0, now);
    const byDelay = new Map(messages.map((m) => [m.delaySeconds, m.body.tasks.map((t) => t.url)]));
    expect(byDelay.size).toBe(3);
    expect(byDelay.get(0)).toEqual([entry(1).url, entry(3).url]);
    const [three, nine] = [...byDelay.keys()].filter((d) => d > 0).sort((a, b) => a - b);
    expect(byDelay.get(three as number)).toEqual([entry(2).url, entry(4).url]);
    expect(byDelay.get(nine as number)).toEqual([entry(5).url]);
    // A batch's delay is a floor for every URL.
    expect(messagesOf('c1', items, 20, now).every((m) => m.delaySeconds >= 20)).toBe(true);
  });

  it("keep each message under one operation's 64 KB, and each sendBatch under 100 messages and 256 KB", () => {
    const long = (i: number) => ({
      entry: entry(i, { url: `https://a.test/${String(i).padStart(4, '0')}${'x'.repeat(8000)}` }),
    });
    const messages = messagesOf(
      'c1',
      Array.from({ length: 40 }, (_, i) => long(i)),
    );
    expect(Math.max(...messages.map((m) => m.bytes))).toBeLessThanOrEqual(60_000);
    for (const m of messages) expect(m.bytes).toBe(new TextEncoder().encode(JSON.stringify(m.body)).length);
    expect(messages.reduce((n, m) => n + m.body.tasks.length, 0)).toBe(40);
    const batches = sendBatches(messages);
    expect(batches.flat()).toEqual(messages);
    for (const batch of batches) expect(batch.reduce((n, m) => n + m.bytes, 0)).toBeLessThanOrEqual(256_000);
    const small = sendBatches(Array.from({ length: 250 }, () => ({ bytes: 100 })));
    expect(small.map((b) => b.length)).toEqual([100, 100, 50]);
  });

  it('read a message of one URL as sent before, and refuse what is neither', () => {
    expect(tasksOfBody({ crawlId: 'c', url: 'https://a.test/', depth: 0 })).toEqual([
      { task: { crawlId: 'c', url: 'https://a.test/', depth: 0, hops: 0 }, priorDeliveries: 0 },
    ]);
    expect(tasksOfBody({ crawlId: 'c', tasks: [{ url: 'https://a.test/', depth: 0, d: 3 }] })).toEqual([
      { task: { crawlId: 'c', url: 'https://a.test/', depth: 0, hops: 0 }, priorDeliveries: 3 },
    ]);
    for (const bad of [
      null,
      'x',
      { crawlId: 'c', tasks: [] },
      { crawlId: 'c', tasks: Array(11).fill({ url: 'u', depth: 0 }) },
    ])
      expect(tasksOfBody(bad)).toBeNull();
  });
});

/** A queue message that records how it was answered. */
function fakeMessage(attempts = 1) {
  const answers: string[] = [];
  const message: Message = {
    id: 'm1',
    timestamp: new Date(),
    body: null,
    attempts,
    ack: () => answers.push('ack'),
    retry: (options) => answers.push(`retry ${options?.delaySeconds ?? 0}`),
  };
  return { message, answers };
}

const carried = (n: number, prior = 0) =>
  Array.from({ length: n }, (_, i) => ({ task: { crawlId: 'c', ...entry(i) }, priorDeliveries: prior }));

describe('a message of several URLs, answered URL by URL', () => {
  it('is acked when every URL is (or left unanswered), retried whole when every URL is', async () => {
    const acked = fakeMessage();
    const a = new Envelope(acked.message, carried(3));
    a.tasks[0]?.message.ack();
    a.tasks[1]?.message.ack();
    await a.settle(async () => expect.unreachable());
    expect(acked.answers).toEqual(['ack']);

    const retried = fakeMessage(2);
    const r = new Envelope(retried.message, carried(2, 4));
    // Each URL's deliveries count those it had in earlier messages.
    expect(r.tasks.map((t) => t.message.attempts)).toEqual([6, 6]);
    expect(new Set(r.tasks.map((t) => t.message.id)).size).toBe(2);
    r.tasks[0]?.message.retry({ delaySeconds: 5 });
    r.tasks[1]?.message.retry({ delaySeconds: 9 });
    await r.settle(async () => expect.unreachable());
    expect(retried.answers).toEqual(['retry 9']);
  });

  it('sends back only the URLs to be tried again, each keeping its deliveries, then acks the message', async () => {
    const { message, answers } = fakeMessage(2);
    const e = new Envelope(message, carried(4, 1));
    e.tasks[0]?.message.ack();
    e.tasks[1]?.message.retry({ delaySeconds: 30 });
    e.tasks[2]?.message.ack();
    e.tasks[3]?.message.retry({ delaySeconds: 60 });
    const sent: { urls: string[]; prior: (number | undefined)[]; delay: number }[] = [];
    await e.settle(async (items, delay) => {
      sent.push({ urls: items.map((i) => i.entry.url), prior: items.map((i) => i.priorDeliveries), delay });
    });
    expect(sent).toEqual([
      { urls: [entry(1).url], prior: [3], delay: 30 },
      { urls: [entry(3).url], prior: [3], delay: 60 },
    ]);
    expect(answers).toEqual(['ack']);
  });

  it('is retried whole when sending back fails, or cannot be done', async () => {
    for (const resend of [
      async () => {
        throw new Error('queue down');
      },
      null,
    ]) {
      const { message, answers } = fakeMessage();
      const e = new Envelope(message, carried(2));
      e.tasks[0]?.message.ack();
      e.tasks[1]?.message.retry({ delaySeconds: 7 });
      await e.settle(resend);
      expect(answers).toEqual(['retry 7']);
    }
  });

  it('keeps the id of a message of one URL (its lease is held under it)', () => {
    const { message } = fakeMessage();
    expect(new Envelope(message, carried(1)).tasks[0]?.message.id).toBe('m1');
  });
});
