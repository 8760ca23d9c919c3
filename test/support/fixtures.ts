/** Fixtures for tests inside workerd: crawl configs and rows, queue messages and queue runs. */
import { createExecutionContext, createMessageBatch, getQueueResult } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { crawlConfigSchema } from '../../src/domain/crawl/settings';
import worker from '../../src/index';
import type { CrawlConfig, CrawlStatus } from '../../src/types';

/** A crawl config with every field at its API default (seeds: example.com), overridden by `overrides`. */
export function testConfig(overrides: Partial<CrawlConfig> = {}): CrawlConfig {
  return crawlConfigSchema.parse({ seeds: ['https://example.com/'], ...overrides });
}

/** A crawl's job row in D1, as POST /v1/crawls writes it. */
export async function insertCrawlRow(id: string, config: CrawlConfig, status: CrawlStatus = 'running'): Promise<void> {
  await env.DB.prepare('INSERT INTO crawls (id, status, config, created_at, updated_at) VALUES (?, ?, ?, 0, 0)')
    .bind(id, status, JSON.stringify(config))
    .run();
}

let seq = 0;

/** A queue message as a consumer receives it (ids m1, m2, ... unless given). */
export function queueMessage(body: unknown, attempts = 1, id = `m${++seq}`) {
  return { id, timestamp: new Date(), attempts, body };
}

/** Delivers messages to the Worker's queue handler as a batch of `queue`; returns what it acked and retried. */
export async function runQueue(queue: string, messages: ReturnType<typeof queueMessage>[], bindings: Env = env) {
  const batch = createMessageBatch(queue, messages);
  const ctx = createExecutionContext();
  await worker.queue(batch as MessageBatch, bindings);
  return getQueueResult(batch, ctx);
}

/** A message a recording queue was sent: its body, and its delay if it had one. */
export type SentMessage = { body: unknown; delaySeconds?: number };

/** A queue that keeps in `sent` what is sent to it (and sends nothing). */
export function recordingQueue(sent: SentMessage[]): Queue {
  const metrics = { backlogCount: 0, backlogBytes: 0 };
  const record = (body: unknown, delaySeconds?: number) =>
    sent.push({ body, ...(delaySeconds ? { delaySeconds } : {}) });
  return {
    metrics: async () => metrics,
    send: async (body, options) => {
      record(body, options?.delaySeconds);
      return { metadata: { metrics } };
    },
    sendBatch: async (messages) => {
      for (const m of messages) record(m.body, m.delaySeconds);
      return { metadata: { metrics } };
    },
  };
}
