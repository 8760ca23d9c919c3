import { UsageMeter } from '../domain/crawl/usage';
import { sleep } from '../lib/sleep';
import { log } from '../log';
import { reportUsage } from '../objects/crawl-usage';
import { enqueueTasks } from '../queues/frontier';
import { emitWebhookEvents, webhookEvent } from '../queues/webhook-events';
import { deleteCrawl, insertCrawl } from '../storage/d1/crawls';
import { deleteErrors, type ErrorRecord, recordErrors } from '../storage/d1/errors';
import type { CrawlConfig, FrontierEntry } from '../types';
import { type LoginOutcome, logIn } from './login';

export class CrawlStartError extends Error {}

/**
 * Starts a crawl: its form login first (jobs/login.ts: its session's cookies are sealed into the config stored), its
 * job row in D1, its Durable Object with the seeds, the seeds' messages. A crawl whose login failed is still made,
 * and ends at once, its error row for the login page saying why: it never crawls a login page in place of the site.
 * Used by POST /v1/crawls, Firecrawl's POST /crawl and /batch/scrape, and the scheduler (each run logs in anew).
 */
export async function startCrawl(
  env: Env,
  config: CrawlConfig,
  origin: { scheduleId?: string; id?: string } = {},
): Promise<string> {
  // An id given: the caller kept something under it first (a Firecrawl job: what its documents carry).
  const id = origin.id ?? crypto.randomUUID();
  const login = await logIn(env, config, id);
  const stored = login.kind === 'in' ? login.config : config;
  const meter = new UsageMeter();
  meter.count('browserSeconds', login.browserMs / 1000);
  await insertCrawl(env.DB, id, stored, Date.now(), origin.scheduleId ?? null, meter);
  const stub = env.CRAWL.getByName(id);
  let seeds: FrontierEntry[];
  try {
    // The login's error row before the crawl ends (at once, its login URL failed and no seed offered), so it is there
    // when it has.
    if (login.kind === 'failed') await recordErrors(env.DB, id, [loginError(login)], Date.now(), meter);
    seeds = await stub.start(
      id,
      stored,
      login.kind === 'in' ? {} : { failed: { url: login.url, reason: login.reason, code: login.code } },
    );
  } catch (error) {
    // No crawl state exists: remove the job row so nothing half-made is listed.
    await deleteCrawl(env.DB, id).catch(() => undefined);
    if (login.kind === 'failed') await deleteErrors(env.DB, id, [login.url]).catch(() => undefined);
    log('error', 'crawl start failed', { crawlId: id, error: String(error) });
    throw new CrawlStartError('could not start the crawl; try again');
  }
  // From here the crawl exists: nothing may answer an error, or a client that tries again starts a second crawl.
  await tellStarted(env, id, stored, origin.scheduleId ?? null, meter);
  await sendSeeds(env, id, stored, seeds, meter);
  await reportUsage(env.CRAWL, id, meter);
  return id;
}

/** The error row of a crawl whose login failed: its login page, failed. */
const loginError = (login: LoginOutcome & { kind: 'failed' }): ErrorRecord => ({
  url: login.url,
  outcome: 'failed',
  reason: login.reason,
  code: login.code,
  attempts: 1,
  httpStatus: null,
});

/** Sends of the seeds tried before leaving them to the sweeper; waits of 100 and 400 ms between. */
const SEND_ATTEMPTS = 3;

/**
 * Queues the crawl's crawl.started event (when its webhook asks for it), before its seeds, so it is most likely
 * delivered before the crawl's page events. A send is tried again as the seeds' are; if every try fails the event is
 * lost (logged by emitWebhookEvents), never the start.
 */
async function tellStarted(
  env: Env,
  id: string,
  config: CrawlConfig,
  scheduleId: string | null,
  meter: UsageMeter,
): Promise<void> {
  if (!config.webhook?.events?.includes('crawl.started')) return;
  const event = webhookEvent('crawl.started', id, { seeds: config.seeds.length, scheduleId });
  for (let attempt = 1; attempt <= SEND_ATTEMPTS; attempt++) {
    if (await emitWebhookEvents(env.WEBHOOKS, config, [event], meter)) return;
    if (attempt < SEND_ATTEMPTS) await sleep(100 * 4 ** (attempt - 1));
  }
  log('error', 'crawl.started not queued; the crawl goes on without it', { crawlId: id, attempts: SEND_ATTEMPTS });
}

/**
 * Sends the seeds' messages, trying again on a failure (a send is safe to repeat: the seen-set hands each URL to one
 * message). If every try fails, the seeds stay queued in the crawl's Durable Object, whose sweeper re-sends them once
 * the crawl has been quiet for STALL_AFTER_MS: the crawl starts late, never twice.
 */
async function sendSeeds(
  env: Env,
  id: string,
  config: CrawlConfig,
  seeds: FrontierEntry[],
  meter: UsageMeter,
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await enqueueTasks(env, id, config, seeds, undefined, meter);
      return;
    } catch (error) {
      if (attempt >= SEND_ATTEMPTS) {
        log('error', 'seeds not sent; the sweeper re-sends them', {
          crawlId: id,
          attempts: attempt,
          error: String(error),
        });
        return;
      }
      await sleep(100 * 4 ** (attempt - 1));
    }
  }
}
