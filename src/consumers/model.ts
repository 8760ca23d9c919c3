import { extractionOf } from '../domain/crawl/settings';
import { UsageMeter } from '../domain/crawl/usage';
import type { ExtractSpec } from '../domain/extract/spec-schema';
import { type ModelClient, ModelError } from '../domain/model/types';
import { type Limit, limiter } from '../lib/limit';
import { log } from '../log';
import { reportUsage } from '../objects/crawl-usage';
import { pacedClient } from '../objects/model-gate-client';
import { askModel } from '../page/model/ask';
import { modelClientOf } from '../page/model/client';
import { keptAnswer, modelAskOf, prepareAsk, withAnswer } from '../page/model/page-answer';
import { modelTaskSchema, sendModelTasks } from '../queues/model';
import { type ModelSettings, readModelSettings } from '../settings';
import { getCrawl } from '../storage/d1/crawls';
import { cachedAnswers, keepAnswers } from '../storage/d1/model-answers';
import { modelPages, setModelled } from '../storage/d1/model-pages';
import { encodeRecord, readRecord, type StoredRecord } from '../storage/records';
import { writeRecordSegment } from '../storage/segments';
import type { Span } from '../types';
import { learnFromAnswers, readByLearned } from './model-learned';
import { countCalls, deliveriesOf, type Item, type Job, type Page, type Settled, type Step } from './model-step';

/** Records read from R2 at once. */
const RECORD_READS = 6;

/**
 * Consumer of the model queue (formats json and summary, docs/models.md): each message is a stored page whose record
 * the model answers. Per crawl of the batch: the pages' rows and records read; answers already had for the same
 * request reused (the cache: no call); the rest asked, MODEL_CONCURRENCY at a time, within the crawl's maxModelPages;
 * the records written again as one R2 object, the rows pointed at them, the answers kept, and the crawl told how
 * many pages are done. A 429 or 5xx retries the page's message with backoff (never the page's attempts); past
 * MODEL_ATTEMPTS deliveries the page is recorded without an answer, with a warning.
 */
export async function consumeModel(batch: MessageBatch, env: Env): Promise<void> {
  const byCrawl = new Map<string, Item[]>();
  for (const message of batch.messages) {
    const parsed = modelTaskSchema.safeParse(message.body);
    if (!parsed.success) {
      log('warn', 'dropping malformed model message', { id: message.id });
      message.ack();
      continue;
    }
    byCrawl.set(parsed.data.crawlId, [...(byCrawl.get(parsed.data.crawlId) ?? []), { message, task: parsed.data }]);
  }
  const settings = readModelSettings(env);
  const limit = limiter(settings.concurrency);
  await Promise.all([...byCrawl].map(([crawlId, items]) => consumeCrawl(env, crawlId, items, settings, limit)));
}

async function consumeCrawl(env: Env, crawlId: string, items: Item[], settings: ModelSettings, limit: Limit) {
  const meter = UsageMeter.delivered(items.length);
  const stub = env.CRAWL.getByName(crawlId);
  try {
    const finished = await answerCrawl(env, crawlId, items, { settings, limit, meter });
    if (finished > 0) await stub.modelDone(finished);
  } catch (error) {
    log('error', 'model step failed; its pages come back', { crawlId, error: String(error) });
    for (const item of items) item.message.retry({ delaySeconds: backoffSeconds(deliveriesOf(item)) });
  }
  await reportUsage(env.CRAWL, crawlId, meter);
}

/** Seconds before a page's message is tried again: 2, 4, 8 ... up to 5 minutes. */
const backoffSeconds = (attempts: number, retryAfterMs: number | null = null) =>
  Math.min(300, Math.max(Math.ceil((retryAfterMs ?? 0) / 1000), 2 ** Math.min(attempts, 8)));

/** Answers one crawl's pages of the batch; returns how many are done (their messages acked). */
async function answerCrawl(
  env: Env,
  crawlId: string,
  items: Item[],
  context: { settings: ModelSettings; limit: Limit; meter: UsageMeter },
): Promise<number> {
  const crawl = await getCrawl(env.DB, crawlId);
  const spec = crawl?.extract ? extractionOf({ ...crawl.config, extract: crawl.extract }) : null;
  const ask = modelAskOf(spec);
  // Gone, or no longer asking (a re-extraction with another spec sends its own pages): nothing to answer.
  if (!crawl || !spec || !ask) return ackAll(items);
  const { pages, gone } = await readPages(env, crawlId, items, context.meter);
  const chosen = crawl.status === 'cancelled' ? { why: CANCELLED } : clientOf(env);
  // Each call spaced on the account's gate (MODEL_REQUESTS_PER_MINUTE), whichever invocation makes it.
  const paced = (client: ModelClient) => pacedClient(client, env, context.settings.requestsPerMinute, context.meter);
  const step = 'client' in chosen ? { env, crawlId, spec, ask, client: paced(chosen.client), ...context } : null;
  const settled = step
    ? await answerJobs(step, await keyed(step, pages))
    : pages.map((job) => unanswered(job, 'why' in chosen ? chosen.why : CANCELLED));
  return gone + (await record(env, crawlId, spec, step?.client.model ?? 'none', settled, context.meter));
}

const CANCELLED = 'the crawl was cancelled before the model read this page';

/** The deployment's model, or why there is none (not configured since the crawl was accepted, or misconfigured). */
function clientOf(env: Env): { client: ModelClient } | { why: string } {
  try {
    const client = modelClientOf(env);
    return client
      ? { client }
      : { why: 'no language model is configured (LLM_BASE_URL and LLM_MODEL, or the AI binding): nothing answered' };
  } catch (error) {
    return { why: `the language model is misconfigured: ${error instanceof Error ? error.message : String(error)}` };
  }
}

function ackAll(items: readonly Item[]): number {
  for (const { message } of items) message.ack();
  return items.length;
}

/** A page recorded without an answer, saying why (the crawl cancelled, no model): its markdown kept for a later run. */
const unanswered = (job: Page, why: string): Settled => ({ job, answer: null, how: 'none', warnings: [why] });

/** A record the model step has answered (by the model, the cache or selectors): kept as it is. */
const answered = (stored: StoredRecord) => stored.record.model !== undefined && stored.record.model.answer !== 'none';

/**
 * The pages' rows and stored records. A page with neither (purged, or stored without a record), or whose record is
 * answered already, has nothing to answer: its message is acked at once and counted in `gone`.
 */
async function readPages(
  env: Env,
  crawlId: string,
  items: readonly Item[],
  meter: UsageMeter,
): Promise<{ pages: Page[]; gone: number }> {
  const rows = await modelPages(
    env.DB,
    crawlId,
    items.map((i) => i.task.url),
    meter,
  );
  const reads = limiter(RECORD_READS);
  const read = await Promise.all(
    items.map(async (item): Promise<Page | null> => {
      const row = rows.get(item.task.url);
      if (!row?.recordAt) return null;
      const recordAt: Span = row.recordAt;
      meter.count('r2ClassB');
      const stored = await reads(() => readRecord(env.BODIES, recordAt));
      // Answered already: a record a schedule's run kept for a page answered 304 (the same spec's answer).
      if (!stored || answered(stored)) return null;
      const markdown = stored.outputs.markdown ?? stored.outputs.text ?? '';
      return { ...item, row, stored, input: { url: row.url, title: row.title, markdown } };
    }),
  );
  const pages = read.filter((page): page is Page => page !== null);
  return { pages, gone: ackAll(items.filter((_, i) => read[i] === null)) };
}

async function keyed(step: Step, pages: readonly Page[]): Promise<Job[]> {
  return Promise.all(
    pages.map(async (page) => ({
      ...page,
      ...(await prepareAsk(step.client, step.ask, page.input, step.settings.inputTokens)),
    })),
  );
}

/**
 * Each page's answer: the cache's when the same request was answered before; else the model's, for as many pages
 * as the crawl's maxModelPages still grants (the rest recorded without, with a warning).
 */
async function answerJobs(step: Step, jobs: readonly Job[]): Promise<Settled[]> {
  const cached = await cachedAnswers(
    step.env.DB,
    jobs.map((j) => j.key),
    step.meter,
  );
  const hits = jobs.flatMap((job): Settled[] => {
    const answer = cached.get(job.key);
    return answer ? [{ job, answer, how: 'cached', warnings: cutWarnings(job) }] : [];
  });
  step.meter.modelWork({ cached: hits.length });
  const {
    read,
    rest: misses,
    sampling,
  } = await readByLearned(
    step,
    jobs.filter((job) => !cached.has(job.key)),
  );
  const granted = misses.length > 0 ? await step.env.CRAWL.getByName(step.crawlId).takeModelPages(misses.length) : 0;
  const asked = await Promise.all(misses.slice(0, granted).map((job) => step.limit(() => askOne(step, job))));
  await learnFromAnswers(step, asked, sampling);
  const refused = misses.slice(granted).map(
    (job): Settled => ({
      job,
      answer: null,
      how: 'none',
      warnings: ["the crawl's maxModelPages is reached: not sent to the model"],
    }),
  );
  return [...hits, ...read, ...asked, ...refused];
}

const cutWarnings = (job: Job): string[] => (job.cutWarning ? [job.cutWarning] : []);

/** One page asked of the model; a 429 or 5xx comes back as a retry of its message (or, past MODEL_ATTEMPTS, none). */
async function askOne(step: Step, job: Job): Promise<Settled> {
  try {
    const answer = await askModel(step.client, step.ask, job.request);
    countCalls(step, answer);
    const kept = keptAnswer(answer);
    return { job, answer: kept, how: 'model', warnings: cutWarnings(job), fresh: job.key };
  } catch (error) {
    if (!(error instanceof ModelError)) throw error;
    // Never sent (the account's calls are spaced): back to the queue at its slot, no delivery used up.
    if (error.kind === 'paced') return { job, backInSeconds: Math.max(1, Math.ceil((error.retryAfterMs ?? 0) / 1000)) };
    const attempts = deliveriesOf(job);
    if (error.kind === 'refused' || attempts >= step.settings.attempts) {
      const why =
        error.kind === 'refused' ? 'the model refused the request' : `the model was unavailable ${attempts} times`;
      return { job, answer: null, how: 'none', warnings: [`${why}: ${error.message}`] };
    }
    log('warn', 'model call to be tried again', { crawlId: step.crawlId, kind: error.kind, attempt: attempts });
    return { job, retryInSeconds: backoffSeconds(attempts, error.retryAfterMs) };
  }
}

/**
 * Records what was answered: the records written again as one R2 object, the rows pointed at them with the warnings,
 * the fresh answers kept for reuse; then those messages acked, and the others retried. Returns how many are done.
 */
async function record(
  env: Env,
  crawlId: string,
  spec: ExtractSpec,
  model: string,
  settled: readonly Settled[],
  meter: UsageMeter,
): Promise<number> {
  const done = settled.flatMap((s) => ('answer' in s ? [s] : []));
  const items = done.map(({ job, answer, how, warnings }) => {
    const stored = withAnswer(job.stored, spec, { answer, how, model, warnings });
    const page: { recordAt: Span | null } = { recordAt: null };
    return {
      page,
      record: encodeRecord(stored.record, stored.outputs),
      row: job.row,
      warnings: stored.record.warnings,
    };
  });
  await writeRecordSegment(env.BODIES, crawlId, items, meter);
  await setModelled(
    env.DB,
    crawlId,
    items.map(({ page, row, warnings }) => ({ url: row.url, recordAt: page.recordAt, warnings })),
    meter,
  );
  const fresh = done.flatMap((s) => (s.fresh && s.answer ? [{ key: s.fresh, model, answer: s.answer }] : []));
  await keepAnswers(env.DB, fresh, meter).catch((error: unknown) =>
    log('warn', 'model answers not kept for reuse', { crawlId, error: String(error) }),
  );
  await sendBack(env, crawlId, settled, meter);
  for (const s of settled) {
    if ('answer' in s) s.job.message.ack();
    else if ('retryInSeconds' in s) s.job.message.retry({ delaySeconds: s.retryInSeconds });
  }
  return done.length;
}

/**
 * Pages the account's pacing put off, sent back as new messages delayed to their slot (grouped by delay), keeping the
 * deliveries that counted, and their messages acked; a page that cannot be sent is retried instead (a delivery used).
 */
async function sendBack(env: Env, crawlId: string, settled: readonly Settled[], meter: UsageMeter): Promise<void> {
  const byDelay = new Map<number, Page[]>();
  for (const s of settled)
    if ('backInSeconds' in s) byDelay.set(s.backInSeconds, [...(byDelay.get(s.backInSeconds) ?? []), s.job]);
  for (const [delay, jobs] of byDelay) {
    const pages = jobs.map((job) => ({ url: job.task.url, d: deliveriesOf(job) - 1 }));
    try {
      await sendModelTasks(env.MODEL, crawlId, pages, meter, delay);
      for (const job of jobs) job.message.ack();
    } catch (error) {
      log('warn', 'pages put off by the pacing could not be sent back; retried', { crawlId, error: String(error) });
      for (const job of jobs) job.message.retry({ delaySeconds: delay });
    }
  }
}
