import { z } from 'zod';
import { backoffSeconds } from '../domain/backoff';
import { compileLinkPolicy, compileSitemapPolicy, type LinkPolicy } from '../domain/policy';
import { enqueueTasks } from '../queues/frontier';
import { limiter, type Limit } from '../lib/limit';
import { OfferedUrls } from './offered';
import { hostGate } from '../objects/host-gate-client';
import { processTask, type Processed } from '../page/process';
import { readSettings, type Settings } from '../settings';
import { writeSegments } from '../storage/segments';
import { writeResults } from '../storage/d1/results';
import { emitWebhookEvents, pageFailedEvents } from '../queues/webhook-events';
import { previousLinks, previousVersions, type PreviousVersion } from '../storage/d1/pages';
import type { CrawlConfig, CrawlTask, FrontierEntry } from '../types';
import { log } from '../log';

const taskSchema = z.object({
  crawlId: z.string().min(1).max(64),
  url: z.string().min(1).max(8192),
  depth: z.number().int().min(0),
  hops: z.number().int().min(0).default(0),
  kind: z.enum(['page', 'sitemap']).optional(),
});

interface Policies {
  page: LinkPolicy;
  sitemap: (url: string) => boolean;
}

/** Compiled link policies, kept per isolate: a crawl's config never changes. */
const policies = new Map<string, Policies>();
function policiesFor(crawlId: string, config: CrawlConfig): Policies {
  let compiled = policies.get(crawlId);
  if (!compiled) {
    if (policies.size >= 256) policies.delete(policies.keys().next().value as string);
    compiled = { page: compileLinkPolicy(config), sitemap: compileSitemapPolicy(config) };
    policies.set(crawlId, compiled);
  }
  return compiled;
}

/** Links already offered by this isolate, per crawl (see OfferedUrls). */
const offered = new OfferedUrls();

/**
 * The frontier queue consumer. Messages are grouped by crawl; per crawl, one Durable Object call
 * claims the whole group and its pages are fetched FETCH_CONCURRENCY at a time. As they finish, results
 * are recorded in chunks (see settle): one R2 segment and one D1 batch per chunk, one call reporting the
 * chunk's outcomes (and getting back the new links to enqueue), then each message acked or retried on its own.
 */
export async function consumeFrontier(batch: MessageBatch, env: Env): Promise<void> {
  const settings = readSettings(env);
  const groups = new Map<string, { message: Message; task: CrawlTask }[]>();
  for (const message of batch.messages) {
    const parsed = taskSchema.safeParse(message.body);
    if (!parsed.success) {
      log('warn', 'dropping malformed frontier message', { id: message.id });
      message.ack();
      continue;
    }
    const task = parsed.data;
    const group = groups.get(task.crawlId) ?? [];
    group.push({ message, task });
    groups.set(task.crawlId, group);
  }
  // One cap on requests in flight for the whole invocation, whatever crawls its messages belong to.
  const limit = limiter(settings.fetchConcurrency);
  await Promise.all([...groups].map(([crawlId, group]) => consumeGroup(crawlId, group, env, settings, limit)));
}

async function consumeGroup(crawlId: string, group: { message: Message; task: CrawlTask }[], env: Env, settings: Settings, limit: Limit): Promise<void> {
  const stub = env.CRAWL.getByName(crawlId);
  const retryAll = (reason: string, error: unknown) => {
    log('error', reason, { crawlId, error: String(error) });
    for (const { message } of group) message.retry({ delaySeconds: backoffSeconds(message.attempts) });
  };

  let claimed;
  try {
    claimed = await stub.claim(group.map((g) => g.task.url));
  } catch (error) {
    return retryAll('claim failed', error);
  }
  const { config, claims } = claimed;
  if (!config) {
    for (const { message } of group) message.ack(); // no such crawl, or it is over
    return;
  }

  const gate = hostGate(env.HOSTS, settings);
  // A scheduled recrawl makes its requests conditional on what the previous crawl fetched.
  const previousCrawl = typeof config.recrawlOf === 'string' ? config.recrawlOf : null;
  const recrawl =
    config.recrawlOf === undefined
      ? undefined
      : {
          previous: previousCrawl ? await previousVersions(env.DB, previousCrawl, group.filter((_, i) => claims[i]).map((g) => g.task.url)) : new Map<string, PreviousVersion>(),
          links: (url: string) => (previousCrawl ? previousLinks(env.DB, previousCrawl, url) : Promise.resolve([])),
        };
  const politeness = { minIntervalMs: config.hostIntervalMs ?? 0, ...(config.hostConcurrency ? { maxConcurrency: config.hostConcurrency } : {}) };
  const { page: policy, sitemap: sitemapPolicy } = policiesFor(crawlId, config);
  const deps = { settings, policy, sitemapPolicy, sitemaps: config.sitemaps ?? false, crawlId, gate, politeness, recrawl, limit };

  // Results are recorded in chunks as pages finish, while the rest of the batch is still being fetched: the
  // next depth level reaches the queue sooner, bodies leave memory sooner, and only the last chunk's writes
  // are left once the last response is in. A chunk is a wave of FETCH_CONCURRENCY pages (at least
  // SETTLE_CHUNK_MIN), recorded one at a time in the order they filled.
  const chunkSize = Math.max(SETTLE_CHUNK_MIN, settings.fetchConcurrency);
  let buffer: Finished[] = [];
  let recording = Promise.resolve();
  const record = (chunk: Finished[]) =>
    (recording = recording
      .then(() => settle(crawlId, chunk, stub, env, config))
      .catch((error: unknown) => log('error', 'recording a chunk failed', { crawlId, count: chunk.length, error: String(error) })));
  const started: Promise<void>[] = [];
  group.forEach(({ message, task }, i) => {
    const claim = claims[i];
    if (!claim) {
      message.ack(); // already done, taken by another consumer, or the crawl is over
      return;
    }
    started.push(
      processTask(task, claim, deps).then(
        (processed) => ({ message, task, processed }),
        (error: unknown) => {
          log('error', 'processing failed', { crawlId, url: task.url, error: String(error) });
          return { message, task, error };
        },
      ).then((finished: Finished) => {
        buffer.push(finished);
        if (buffer.length >= chunkSize) {
          const chunk = buffer;
          buffer = [];
          void record(chunk);
        }
      }),
    );
  });
  await Promise.all(started);
  if (buffer.length > 0) void record(buffer);
  await recording;
}

/** A claimed task of the batch, fetched and decided (or broken by an internal error). */
type Finished = { message: Message; task: CrawlTask; processed?: Processed; error?: unknown };

/** The smallest chunk of results recorded at once (see consumeGroup). */
export const SETTLE_CHUNK_MIN = 25;

/**
 * Records a chunk of finished tasks and answers their messages: bodies to R2, rows to D1, outcomes (and the
 * links they found) to the crawl's Durable Object, accepted links to the queues, throttled URLs re-queued as
 * new delayed messages; then each message is acked or retried on its own. Never throws.
 */
async function settle(crawlId: string, chunk: Finished[], stub: ReturnType<Env['CRAWL']['getByName']>, env: Env, config: CrawlConfig): Promise<void> {
  const retryAll = (reason: string, error: unknown) => {
    log('error', reason, { crawlId, error: String(error) });
    for (const { message } of chunk) message.retry({ delaySeconds: backoffSeconds(message.attempts) });
  };
  const done = chunk.filter((f): f is Finished & { processed: Processed } => f.processed !== undefined).map((f) => ({ message: f.message, processed: f.processed }));
  const broken = chunk.filter((f) => f.processed === undefined).map((f) => ({ message: f.message, url: f.task.url }));

  try {
    const results = done.map((d) => d.processed);
    await writeSegments(env.BODIES, crawlId, results);
    await writeResults(env.DB, crawlId, results);
  } catch (error) {
    // Nothing of this chunk is recorded in D1 (a segment may be orphaned): hand its URLs back and retry its messages.
    await stub.complete(chunk.map((f) => ({ url: f.task.url, kind: 'retry', fetched: false, reason: 'storage error' }))).catch(() => undefined);
    return retryAll('D1 write failed', error);
  }
  // Links this isolate already offered to the crawl (or offers twice in this chunk) are not sent again.
  const offering = new Set<string>();
  const fresh = (links: FrontierEntry[] | undefined) =>
    links?.filter((link) => {
      if (offering.has(link.url) || offered.has(crawlId, link.url)) return false;
      offering.add(link.url);
      return true;
    });
  const outcomes = [
    ...done.map(({ processed: { outcome } }) => (outcome.links ? { ...outcome, links: fresh(outcome.links) } : outcome)),
    ...broken.map((b) => ({ url: b.url, kind: 'retry' as const, fetched: false, reason: 'internal error' })),
  ];
  let accepted, failed;
  try {
    ({ accepted, failed } = await stub.complete(outcomes));
  } catch (error) {
    return retryAll('complete failed', error);
  }
  offered.add(crawlId, offering);
  if (failed.length > 0 && config.webhook) {
    // Only the URLs the crawl recorded as failed just now (not a late duplicate of one already final).
    const recorded = new Set(failed);
    await emitWebhookEvents(env.WEBHOOKS, config, pageFailedEvents(crawlId, done.map((d) => d.processed).filter((p) => recorded.has(p.outcome.url))));
  }

  try {
    await enqueueTasks(env, crawlId, config, accepted);
  } catch (error) {
    // The URLs are recorded as queued in the Durable Object; its sweeper re-sends them.
    log('error', 'enqueue failed; the sweeper will re-send', { crawlId, count: accepted.length, error: String(error) });
  }

  const throttled = done.filter((d) => d.processed.outcome.kind === 'throttled');
  const requeued = new Set<Message>();
  // New messages, not retries: waiting for a host must not use up the messages' retries.
  const byDelay = new Map<number, { message: Message; entry: FrontierEntry }[]>();
  for (const { message, processed } of throttled) {
    const delay = processed.outcome.retryDelaySeconds ?? 1;
    const task = message.body as CrawlTask;
    byDelay.set(delay, [...(byDelay.get(delay) ?? []), { message, entry: { url: task.url, depth: task.depth, hops: task.hops, ...(task.kind ? { kind: task.kind } : {}) } }]);
  }
  for (const [delay, items] of byDelay) {
    try {
      await enqueueTasks(env, crawlId, config, items.map((i) => i.entry), delay);
      for (const { message } of items) requeued.add(message);
    } catch (error) {
      log('warn', 're-queueing throttled URLs failed; retrying their messages instead', { crawlId, error: String(error) });
    }
  }

  for (const { message, processed } of done) {
    if (processed.outcome.kind === 'throttled') {
      if (requeued.has(message)) message.ack();
      else message.retry({ delaySeconds: processed.outcome.retryDelaySeconds ?? 1 });
    } else if (processed.outcome.kind === 'retry') {
      message.retry({ delaySeconds: processed.outcome.retryDelaySeconds ?? backoffSeconds(processed.attempts) });
    } else {
      if (processed.outcome.kind === 'failed') log('warn', 'page failed', { crawlId, url: processed.outcome.url, reason: processed.outcome.reason });
      message.ack();
    }
  }
  for (const { message } of broken) message.retry({ delaySeconds: backoffSeconds(message.attempts) });
}
