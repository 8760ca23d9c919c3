import { extractionOf } from '../domain/crawl/settings';
import { UsageMeter } from '../domain/crawl/usage';
import { extractPage } from '../domain/extract';
import { asksModel } from '../domain/extract/spec';
import type { ExtractSpec } from '../domain/extract/spec-schema';
import { log } from '../log';
import { reportUsage } from '../objects/crawl-usage';
import { extractFacts } from '../page/read';
import { type ReextractTask, reextractTaskSchema, sendReextractStep } from '../queues/extract';
import { sendModelTasks } from '../queues/model';
import { BodyReader } from '../storage/bodies';
import { advanceReextraction, getCrawl } from '../storage/d1/crawls';
import { htmlPagesAfter, type StoredHtmlPage, updateExtracted } from '../storage/d1/reextraction';
import { writeRecordSegment } from '../storage/segments';
import type { ExtractedPage } from '../types';
import { meteredMessage } from './tasks';

/** Pages re-extracted per message: a few seconds of CPU at most. */
const STEP = 50;
/** Deliveries of a step before its pages are skipped (each counted, with nothing re-extracted), so the rest goes on. */
const STEP_ATTEMPTS = 4;

/**
 * Consumer of the re-extraction queue: each message re-extracts a step of a crawl's stored HTML pages with the
 * crawl's new spec, from the bodies in R2 (no request to the site), writes their records as one R2 object, points
 * the pages at them, counts the progress, and sends the next step. Messages of a spec that a newer re-extraction
 * replaced are dropped.
 */
export async function consumeReextraction(batch: MessageBatch, env: Env): Promise<void> {
  for (const message of batch.messages) {
    const parsed = reextractTaskSchema.safeParse(message.body);
    if (!parsed.success) {
      log('warn', 'dropping malformed re-extraction message', { id: message.id });
      message.ack();
      continue;
    }
    // The step's operations are the crawl's: this invocation, the message read and deleted, and the step's R2 and D1 work.
    const meter = UsageMeter.delivered(1);
    try {
      await step(env, parsed.data, message.attempts >= STEP_ATTEMPTS, meter);
      meteredMessage(message, meter).ack();
      await reportUsage(env.CRAWL, parsed.data.crawlId, meter);
    } catch (error) {
      log('error', 're-extraction step failed', {
        crawlId: parsed.data.crawlId,
        after: parsed.data.after,
        attempt: message.attempts,
        error: String(error),
      });
      message.retry({ delaySeconds: 2 ** Math.min(message.attempts, 6) });
    }
  }
}

async function step(env: Env, task: ReextractTask, skip: boolean, meter: UsageMeter): Promise<void> {
  const crawl = await getCrawl(env.DB, task.crawlId);
  if (!crawl?.extract || crawl.extraction?.version !== task.version) return; // gone, or replaced by a newer spec
  const pages = await htmlPagesAfter(env.DB, { crawlId: task.crawlId, afterUrl: task.after, limit: STEP });
  if (skip)
    log('error', 're-extraction step skipped after repeated failures', {
      crawlId: task.crawlId,
      after: task.after,
      pages: pages.length,
    });
  else
    await reextract(
      env,
      task.crawlId,
      pages,
      extractionOf({ ...crawl.config, extract: crawl.extract }) ?? crawl.extract,
      meter,
    );
  const last = pages.at(-1);
  const finished = pages.length < STEP || last === undefined;
  await advanceReextraction(env.DB, task.crawlId, task.version, pages.length, finished);
  if (!finished) {
    await sendReextractStep(env.EXTRACT, { ...task, after: last.url });
    meter.count('queueOperations');
  }
}

/** Extracts the pages from their stored bodies (read in storage order, a segment at a time) and records them. */
async function reextract(
  env: Env,
  crawlId: string,
  pages: readonly StoredHtmlPage[],
  spec: ExtractSpec,
  meter: UsageMeter,
): Promise<void> {
  const reader = new BodyReader(env.BODIES, meter);
  const ordered = [...pages].sort(
    (a, b) => a.bodyAt.key.localeCompare(b.bodyAt.key) || (a.bodyAt.offset ?? 0) - (b.bodyAt.offset ?? 0),
  );
  const items: { page: ExtractedPage; record: Uint8Array }[] = [];
  for (const stored of ordered) {
    const body = await reader.read(stored.bodyAt);
    if (body === null) continue; // the body is gone from R2: the page keeps its old record
    const { facts, record } = extractFacts(await extractPage(body, stored.contentType, stored.url, spec));
    items.push({ page: { url: stored.url, ...facts }, record });
  }
  await writeRecordSegment(env.BODIES, crawlId, items, meter);
  await updateExtracted(
    env.DB,
    crawlId,
    items.map((item) => item.page),
    meter,
  );
  if (asksModel(spec.formats))
    await queueModelStep(
      env,
      crawlId,
      items.map((item) => item.page.url),
      meter,
    );
}

/** The step's pages go to the model step (formats json and summary): the crawl counts them, then they are sent. */
async function queueModelStep(env: Env, crawlId: string, urls: string[], meter: UsageMeter): Promise<void> {
  if (urls.length === 0) return;
  await env.CRAWL.getByName(crawlId).modelQueued(urls.length);
  await sendModelTasks(env.MODEL, crawlId, urls, meter);
}
