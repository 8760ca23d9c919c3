import { backoffSeconds } from '../domain/backoff';
import type { UsageMeter } from '../domain/usage';
import { log } from '../log';
import { enqueueTasks } from '../queues/frontier';
import { emitWebhookEvents, pageFailedEvents } from '../queues/webhook-events';
import { writeResults } from '../storage/d1/results';
import { writeSegments } from '../storage/segments';
import type { CrawlConfig, CrawlTask, FrontierEntry, Outcome, Processed } from '../types';
import { OfferedUrls } from './offered';

export type CrawlStub = ReturnType<Env['CRAWL']['getByName']>;

/** A claimed task of the batch, fetched and decided (or broken by an internal error). */
export type Finished = { message: Message; task: CrawlTask; processed?: Processed; error?: unknown };

type Done = { message: Message; task: CrawlTask; processed: Processed };

/** Links already offered by this isolate, per crawl (see OfferedUrls). */
const offered = new OfferedUrls();

/**
 * Records a chunk of finished tasks and answers their messages: bodies to R2 and rows to D1 (record), outcomes
 * and the links they found to the crawl's Durable Object (report), accepted links to the queues, throttled URLs
 * re-queued as new delayed messages (requeueThrottled); then each message acked or retried on its own (answer).
 * Never throws.
 */
export async function settle(crawlId: string, chunk: Finished[], stub: CrawlStub, env: Env, config: CrawlConfig, meter: UsageMeter): Promise<void> {
  const done = chunk.filter((f): f is Done => f.processed !== undefined);
  const broken = chunk.filter((f) => f.processed === undefined);
  const retryAll = (reason: string, error: unknown) => {
    log('error', reason, { crawlId, error: String(error) });
    for (const { message } of chunk) message.retry({ delaySeconds: backoffSeconds(message.attempts) });
  };
  try {
    await record(env, crawlId, done, meter);
  } catch (error) {
    // Nothing of this chunk is recorded in D1 (a segment may be orphaned): hand its URLs back and retry its messages.
    await stub.complete(chunk.map((f): Outcome => ({ url: f.task.url, kind: 'retry', fetched: false, reason: 'storage error' }))).catch(() => undefined);
    return retryAll('D1 write failed', error);
  }
  let accepted: FrontierEntry[];
  try {
    accepted = await report({ env, crawlId, config, stub, meter }, done, broken);
  } catch (error) {
    return retryAll('complete failed', error);
  }
  try {
    await enqueueTasks(env, crawlId, config, accepted, undefined, meter);
  } catch (error) {
    // The URLs are recorded as queued in the Durable Object; its sweeper re-sends them.
    log('error', 'enqueue failed; the sweeper will re-send', { crawlId, count: accepted.length, error: String(error) });
  }
  const requeued = await requeueThrottled(env, crawlId, config, done, meter);
  answer(crawlId, done, broken, requeued);
}

/** Bodies to R2 (one segment per chunk), then the chunk's rows to D1 (one batch). */
async function record(env: Env, crawlId: string, done: readonly Done[], meter: UsageMeter): Promise<void> {
  const results = done.map((d) => d.processed);
  await writeSegments(env.BODIES, crawlId, results, { usage: meter });
  await writeResults(env.DB, crawlId, results, meter);
}

/**
 * Reports the chunk's outcomes to the crawl's Durable Object in one call, with the links found (less those this
 * isolate already offered), and queues page.failed events for the URLs it recorded as failed. Returns the links
 * it accepted.
 */
async function report(
  { env, crawlId, config, stub, meter }: { env: Env; crawlId: string; config: CrawlConfig; stub: CrawlStub; meter: UsageMeter },
  done: readonly Done[],
  broken: readonly Finished[],
): Promise<FrontierEntry[]> {
  const offering = new Set<string>();
  const fresh = (links: FrontierEntry[]) =>
    links.filter((link) => {
      if (offering.has(link.url) || offered.has(crawlId, link.url)) return false;
      offering.add(link.url);
      return true;
    });
  const outcomes: Outcome[] = [
    ...done.map(({ processed: { outcome } }) => ('links' in outcome && outcome.links ? { ...outcome, links: fresh(outcome.links) } : outcome)),
    ...broken.map((b): Outcome => ({ url: b.task.url, kind: 'retry', fetched: false, reason: 'internal error' })),
  ];
  const { accepted, failed } = await stub.complete(outcomes);
  offered.add(crawlId, offering);
  if (failed.length > 0 && config.webhook) {
    // Only the URLs the crawl recorded as failed just now (not a late duplicate of one already final).
    const recorded = new Set(failed);
    const events = pageFailedEvents(
      crawlId,
      done.map((d) => d.processed).filter((p) => recorded.has(p.outcome.url)),
    );
    await emitWebhookEvents(env.WEBHOOKS, config, events, meter);
  }
  return accepted;
}

/**
 * Throttled URLs go back to the queue as new messages, delayed until their host has a slot: waiting for a
 * host must not use up the messages' retries. Returns the messages whose URL was re-queued.
 */
async function requeueThrottled(env: Env, crawlId: string, config: CrawlConfig, done: readonly Done[], meter: UsageMeter): Promise<Set<Message>> {
  const byDelay = new Map<number, Done[]>();
  for (const d of done) {
    if (d.processed.outcome.kind !== 'throttled') continue;
    const delay = d.processed.outcome.retryDelaySeconds ?? 1;
    byDelay.set(delay, [...(byDelay.get(delay) ?? []), d]);
  }
  const requeued = new Set<Message>();
  for (const [delay, items] of byDelay) {
    try {
      const entries = items.map(({ task, processed: { outcome } }): FrontierEntry => {
        const reservation = outcome.kind === 'throttled' && outcome.reservation !== undefined ? { reservation: outcome.reservation } : {};
        return { url: task.url, depth: task.depth, hops: task.hops, ...(task.kind ? { kind: task.kind } : {}), ...reservation };
      });
      await enqueueTasks(env, crawlId, config, entries, delay, meter);
      for (const { message } of items) requeued.add(message);
    } catch (error) {
      log('warn', 're-queueing throttled URLs failed; retrying their messages instead', { crawlId, error: String(error) });
    }
  }
  return requeued;
}

/** Acks or retries each message of the chunk on its own. */
function answer(crawlId: string, done: readonly Done[], broken: readonly Finished[], requeued: Set<Message>): void {
  for (const { message, processed } of done) {
    const { outcome } = processed;
    if (outcome.kind === 'throttled') {
      if (requeued.has(message)) message.ack();
      else message.retry({ delaySeconds: outcome.retryDelaySeconds ?? 1 });
    } else if (outcome.kind === 'retry') {
      message.retry({ delaySeconds: outcome.retryDelaySeconds ?? backoffSeconds(processed.attempts) });
    } else {
      if (outcome.kind === 'failed') log('warn', 'page failed', { crawlId, url: outcome.url, reason: outcome.reason });
      message.ack();
    }
  }
  for (const { message } of broken) message.retry({ delaySeconds: backoffSeconds(message.attempts) });
}
