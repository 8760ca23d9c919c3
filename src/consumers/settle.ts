import {
  isFinal,
  type Limits,
  type MessageAction,
  resolveOutcome,
  transition,
  type UrlEvent,
} from '../domain/crawl/url-life';
import type { UsageMeter } from '../domain/crawl/usage';
import { asksModel } from '../domain/extract/spec';
import { log } from '../log';
import type { CompleteAnswer } from '../objects/crawl/work';
import { enqueueTasks } from '../queues/frontier';
import { sendModelTasks } from '../queues/model';
import {
  emitWebhookEvents,
  pageChangedEvents,
  pageDuplicateEvents,
  pageFailedEvents,
  pageStoredEvents,
} from '../queues/webhook-events';
import { writeResults } from '../storage/d1/results';
import { writeSegments } from '../storage/segments';
import type { CrawlConfig, CrawlStatus, FrontierEntry, Processed } from '../types';
import { dedupeChunk } from './dedupe';
import { heardStatus } from './fetch-guard';
import type { CrawlStub, Finished } from './finished';
import { OfferedUrls } from './offered';

/** What settling a chunk needs: the crawl, its coordinator, and where its operations are counted. */
export interface SettleContext {
  env: Env;
  crawlId: string;
  config: CrawlConfig;
  stub: CrawlStub;
  meter: UsageMeter;
  limits: Limits;
}

/** Links already offered by this isolate, per crawl (see OfferedUrls). */
const offered = new OfferedUrls();

/** Carries out what domain/crawl/url-life.ts says the queue message gets (a resend is the caller's to send first). */
export function answerMessage(message: Message, action: MessageAction): void {
  if (action.do === 'ack') message.ack();
  else message.retry({ delaySeconds: action.delaySeconds });
}

const answerEach = (chunk: readonly Finished[], event: (f: Finished) => UrlEvent, limits: Limits) => {
  for (const f of chunk) answerMessage(f.message, transition(event(f), limits).message);
};

/**
 * Settles a chunk of finished attempts, carrying out domain/crawl/url-life.ts: each outcome resolved (a retry on the last
 * attempt is a failure); its duplicates decided (dedupeChunk); bodies to R2 and rows to D1 (record); outcomes and the links they found to the crawl's
 * coordinator (report), which answers whether the crawl still runs; accepted links to the queues; throttled URLs sent
 * again, delayed to their slot (resendThrottled); then each message acked or retried on its own. Never throws.
 */
export async function settle(chunk: Finished[], context: SettleContext): Promise<void> {
  const { env, crawlId, config, meter, limits } = context;
  let resolved = chunk.map((f) => ({ ...f, processed: resolveAttempt(f.processed, limits.maxAttempts) }));
  try {
    resolved = await dedupeChunk(resolved, config, context.stub);
  } catch (error) {
    // Nothing is recorded: the messages come back, their leases still theirs.
    log('error', 'deciding duplicates failed', { crawlId, error: String(error) });
    return answerEach(resolved, (f) => ({ on: 'coordinator-unreachable', deliveries: f.message.attempts }), limits);
  }
  try {
    await record(env, crawlId, resolved, meter);
  } catch (error) {
    // Nothing of this chunk is in D1 (a segment may be orphaned): its URLs go back, no attempt used up.
    log('error', 'recording a chunk failed; its URLs are handed back', { crawlId, error: String(error) });
    const released = resolved.map((f) => ({ ...f, processed: handedBack(f.processed, 'storage error') }));
    const status = await report(context, released).then(
      (r) => r.status,
      (): CrawlStatus => 'running',
    );
    return answerEach(released, (f) => outcomeEvent(f, status), limits);
  }
  const modelQueued = await queueModelStep(context, resolved);
  let reported: Awaited<ReturnType<typeof report>>;
  try {
    reported = await report(context, resolved, modelQueued);
  } catch (error) {
    log('error', 'complete failed', { crawlId, error: String(error) });
    return answerEach(resolved, (f) => ({ on: 'coordinator-unreachable', deliveries: f.message.attempts }), limits);
  }
  try {
    await enqueueTasks(env, crawlId, config, reported.accepted, undefined, meter);
  } catch (error) {
    // The URLs are recorded as queued in the coordinator; its sweeper re-sends them.
    log('error', 'enqueue failed; the sweeper will re-send', {
      crawlId,
      count: reported.accepted.length,
      error: String(error),
    });
  }
  const resent = reported.status === 'running' ? await resendThrottled(context, resolved) : new Set<Message>();
  for (const f of resolved) {
    const action = transition(outcomeEvent(f, reported.status), limits).message;
    if (f.processed.outcome.kind === 'failed')
      log('warn', 'page failed', { crawlId, url: f.task.url, reason: f.processed.outcome.reason });
    // A throttled URL whose resend failed keeps its message instead (a delivery used up, its URL not lost).
    if (action.do === 'resend' && resent.has(f.message)) f.message.ack();
    else answerMessage(f.message, action);
  }
}

const outcomeEvent = (f: Finished, status: CrawlStatus): UrlEvent => ({
  on: 'outcome',
  outcome: f.processed.outcome,
  attempt: f.processed.attempts,
  deliveries: f.message.attempts,
  running: status === 'running',
});

/** The attempt as the coordinator is told of it; the page of an attempt to be tried again is not recorded. */
function resolveAttempt(processed: Processed, maxAttempts: number): Processed {
  const outcome = resolveOutcome(processed.outcome, processed.attempts, maxAttempts);
  if (isFinal(outcome)) return { ...processed, outcome };
  const { page: _page, body: _body, record: _record, links: _links, ...rest } = processed;
  return { ...rest, outcome };
}

/** An attempt handed back through no fault of the site: no attempt used up, nothing recorded. */
export function handedBack(processed: Pick<Processed, 'outcome' | 'attempts'>, reason: string): Processed {
  const { url } = processed.outcome;
  return { outcome: { kind: 'released', url, fetched: false, reason }, attempts: processed.attempts };
}

/**
 * The chunk's stored pages (with a record) sent to the model step when the crawl asks for json or a summary; returns
 * how many, which the crawl waits for before it completes. A page that cannot be sent keeps its record without an
 * answer (logged): the crawl is not held up by it.
 */
async function queueModelStep({ env, crawlId, config, meter }: SettleContext, done: readonly Finished[]) {
  if (!asksModel(config.extract?.formats ?? [])) return 0;
  // A page with a record made now, or one answered 304 in a schedule's run that keeps its previous record: the model
  // step answers that one only if the previous run could not (maxModelPages, the model unavailable).
  const urls = done.flatMap(({ processed: p }) =>
    p.outcome.kind === 'stored' && (p.record || p.page?.recordAt) ? [p.outcome.url] : [],
  );
  try {
    await sendModelTasks(env.MODEL, crawlId, urls, meter);
    return urls.length;
  } catch (error) {
    log('error', 'sending pages to the model step failed; they keep their records without an answer', {
      crawlId,
      count: urls.length,
      error: String(error),
    });
    return 0;
  }
}

/** Bodies to R2 (one segment per chunk), then the chunk's rows to D1 (one batch). */
async function record(env: Env, crawlId: string, done: readonly Finished[], meter: UsageMeter): Promise<void> {
  const results = done.map((d) => d.processed);
  await writeSegments(env.BODIES, crawlId, results, { usage: meter });
  await writeResults(env.DB, crawlId, results, meter);
}

/**
 * Reports the chunk's outcomes to the crawl's coordinator in one call, with the links found (less those this isolate
 * already offered), and queues page.stored and page.failed events for the URLs it recorded as stored or failed and
 * page.changed events for a recrawl's pages new or changed. Returns its answer.
 */
async function report(
  { env, crawlId, config, stub, meter }: SettleContext,
  done: readonly Finished[],
  modelQueued = 0,
) {
  const offering = new Set<string>();
  const fresh = (links: FrontierEntry[]) =>
    links.filter((link) => {
      if (offering.has(link.url) || offered.has(crawlId, link.url)) return false;
      offering.add(link.url);
      return true;
    });
  const outcomes = done.map(({ processed: { outcome } }) =>
    'links' in outcome && outcome.links ? { ...outcome, links: fresh(outcome.links) } : outcome,
  );
  const answer = await stub.complete(outcomes, modelQueued);
  heardStatus(crawlId, answer.status);
  offered.add(crawlId, offering);
  if (config.webhook) {
    const events = chunkEvents(crawlId, config, done, answer);
    await emitWebhookEvents(env.WEBHOOKS, config, events, meter);
  }
  return answer;
}

/**
 * The webhook events of a chunk: only for the URLs the crawl recorded just now (not a late repeat of one already
 * final). A duplicate is a page.stored for a webhook in Firecrawl's format (pageDuplicateEvents), none in edgecrawl's.
 */
function chunkEvents(
  crawlId: string,
  config: CrawlConfig,
  done: readonly Finished[],
  answer: Pick<CompleteAnswer, 'failed' | 'stored' | 'duplicates'>,
) {
  const [failed, stored, duplicates] = [new Set(answer.failed), new Set(answer.stored), new Set(answer.duplicates)];
  const processed = done.map((d) => d.processed);
  const firecrawl = config.webhook?.format === 'firecrawl';
  return [
    ...pageStoredEvents(
      crawlId,
      processed.filter((p) => p.outcome.kind === 'stored' && stored.has(p.outcome.url)),
    ),
    ...pageDuplicateEvents(
      crawlId,
      processed.filter((p) => firecrawl && p.outcome.kind === 'duplicate' && duplicates.has(p.outcome.url)),
    ),
    ...pageFailedEvents(
      crawlId,
      processed.filter((p) => failed.has(p.outcome.url)),
    ),
    ...pageChangedEvents(crawlId, config, processed),
  ];
}

/**
 * Throttled URLs go back to the queue as new messages, delayed until their host has a slot: waiting for a host must
 * not use up the messages' deliveries. Returns the messages whose URL was sent again.
 */
async function resendThrottled(
  { env, crawlId, config, meter, limits }: SettleContext,
  done: readonly Finished[],
): Promise<Set<Message>> {
  const byDelay = new Map<number, Finished[]>();
  for (const f of done) {
    const action = transition(outcomeEvent(f, 'running'), limits).message;
    if (action.do === 'resend') byDelay.set(action.delaySeconds, [...(byDelay.get(action.delaySeconds) ?? []), f]);
  }
  const resent = new Set<Message>();
  for (const [delay, items] of byDelay) {
    try {
      const entries = items.map(
        ({ task }): FrontierEntry => ({
          url: task.url,
          depth: task.depth,
          hops: task.hops,
          ...(task.kind ? { kind: task.kind } : {}),
        }),
      );
      await enqueueTasks(env, crawlId, config, entries, delay, meter);
      for (const { message } of items) resent.add(message);
    } catch (error) {
      log('warn', 're-queueing throttled URLs failed; retrying their messages instead', {
        crawlId,
        error: String(error),
      });
    }
  }
  return resent;
}
