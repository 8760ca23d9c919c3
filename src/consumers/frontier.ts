import { backoffSeconds } from '../domain/backoff';
import { compileLinkPolicy, compileSitemapPolicy, type LinkPolicy } from '../domain/policy';
import type { UsageMeter } from '../domain/usage';
import { HeldBytes } from '../lib/held-bytes';
import { type Limit, limiter } from '../lib/limit';
import { log } from '../log';
import { reportUsage } from '../objects/crawl-usage';
import { hostGateClient } from '../objects/host-gate-client';
import { type Connections, invocationConnections } from '../page/connections';
import { type ProcessDeps, processTask } from '../page/process';
import { readSettings, type Settings } from '../settings';
import { type PreviousVersion, previousVersions } from '../storage/d1/pages';
import { readLinks } from '../storage/links';
import type { Claim, CrawlConfig, CrawlTask } from '../types';
import { type CrawlStub, type Finished, settle } from './settle';
import { meteredGroup, type TaskMessage, tasksByCrawl } from './tasks';

interface Policies {
  page: LinkPolicy;
  sitemap: (url: string) => boolean;
}

/** Compiled link policies, kept per isolate: a crawl's config never changes. */
const policies = new Map<string, Policies>();
function policiesFor(crawlId: string, config: CrawlConfig): Policies {
  let compiled = policies.get(crawlId);
  if (!compiled) {
    const oldest = policies.keys().next();
    if (policies.size >= 256 && !oldest.done) policies.delete(oldest.value);
    compiled = { page: compileLinkPolicy(config), sitemap: compileSitemapPolicy(config) };
    policies.set(crawlId, compiled);
  }
  return compiled;
}

/**
 * The frontier queue consumer. Messages are grouped by crawl; per crawl, one Durable Object call
 * claims the whole group and its pages are fetched FETCH_CONCURRENCY at a time. As they finish, results
 * are recorded in chunks (see settle): one R2 segment and one D1 batch per chunk, one call reporting the
 * chunk's outcomes (and getting back the new links to enqueue), then each message acked or retried on its own.
 */
export async function consumeFrontier(batch: MessageBatch, env: Env): Promise<void> {
  const settings = readSettings(env);
  const groups = tasksByCrawl(batch, 'frontier message');
  // One cap on requests in flight for the whole invocation, whatever crawls its messages belong to, the invocation's
  // six connections waiting for headers, and its bodies held in memory.
  const invocation = { limit: limiter(settings.fetchConcurrency), connections: invocationConnections(settings), memory: new HeldBytes(HELD_MAX_BYTES) };
  await Promise.all([...groups].map(([crawlId, group]) => consumeGroup(crawlId, group, env, settings, invocation)));
}

/**
 * One crawl's messages of the batch, its operations counted (UsageMeter) and reported to the crawl in one call at the
 * end: the invocation (each crawl of a shared batch is charged one), each delivery and ack, and what fetching and
 * recording its pages took. The crawl's Durable Object counts its own requests and rows.
 */
async function consumeGroup(crawlId: string, messages: TaskMessage[], env: Env, settings: Settings, invocation: Invocation): Promise<void> {
  const { meter, group } = meteredGroup(messages);
  const stub = env.CRAWL.getByName(crawlId);
  await claimAndFetch(crawlId, group, { env, settings, invocation, meter }, stub);
  await reportUsage(env.CRAWL, crawlId, meter);
}

/** What the invocation shares between its crawls' groups: the cap on fetches in flight, the connections, the memory. */
interface Invocation {
  limit: Limit;
  connections: Connections;
  memory: HeldBytes;
}

interface GroupContext {
  env: Env;
  settings: Settings;
  invocation: Invocation;
  meter: UsageMeter;
}

async function claimAndFetch(crawlId: string, group: TaskMessage[], context: GroupContext, stub: CrawlStub): Promise<void> {
  const { env, meter } = context;
  let claimed: Awaited<ReturnType<CrawlStub['claim']>>;
  try {
    claimed = await stub.claim(group.map((g) => g.task.url));
  } catch (error) {
    log('error', 'claim failed', { crawlId, error: String(error) });
    for (const { message } of group) message.retry({ delaySeconds: backoffSeconds(message.attempts) });
    return;
  }
  const { config, claims } = claimed;
  if (!config) {
    for (const { message } of group) message.ack(); // no such crawl, or it is over
    return;
  }
  const claimedUrls = group.filter((_, i) => claims[i]).map((g) => g.task.url);
  const deps = await processDeps(crawlId, config, claimedUrls, context);
  const record = (chunk: Finished[]) =>
    settle(crawlId, chunk, stub, env, config, meter).catch((error: unknown) =>
      log('error', 'recording a chunk failed', { crawlId, count: chunk.length, error: String(error) }),
    );
  await fetchInChunks(group, claims, { deps, memory: context.invocation.memory }, record);
}

/** What processing a crawl's pages needs: settings, policies, the host gates, and a recrawl's previous versions. */
async function processDeps(crawlId: string, config: CrawlConfig, urls: string[], { env, settings, invocation, meter }: GroupContext): Promise<ProcessDeps> {
  // A scheduled recrawl makes its requests conditional on what the previous crawl fetched.
  const previousCrawl = typeof config.recrawlOf === 'string' ? config.recrawlOf : null;
  const recrawl =
    config.recrawlOf === undefined
      ? undefined
      : {
          previous: previousCrawl ? await previousVersions(env.DB, previousCrawl, urls, meter) : new Map<string, PreviousVersion>(),
          links: async (url: string, previous: PreviousVersion) =>
            previousCrawl ? ((await readLinks(env, previousCrawl, { url, ...previous }, meter)) ?? []) : [],
        };
  const politeness = { minIntervalMs: config.hostIntervalMs ?? 0, ...(config.hostConcurrency ? { maxConcurrency: config.hostConcurrency } : {}) };
  const { page: policy, sitemap: sitemapInScope } = policiesFor(crawlId, config);
  const gate = hostGateClient(env.HOSTS, settings, meter);
  const { limit, connections } = invocation;
  return {
    settings,
    policy,
    sitemapInScope,
    readSitemaps: config.sitemaps,
    extract: config.extract ?? null,
    crawlId,
    gate,
    politeness,
    recrawl,
    limit,
    connections,
  };
}

/** The smallest chunk of results recorded at once (see fetchInChunks). */
const SETTLE_CHUNK_MIN = 25;
/** A chunk is recorded once its bodies reach this size, however few pages it holds. */
const CHUNK_MAX_BYTES = 16 * 1024 * 1024;
/**
 * Bodies fetched and not yet written to R2 that an invocation holds before it starts another fetch (an isolate has
 * 128 MB): new fetches wait for chunks to be recorded. Fetches under way are bounded by FETCH_CONCURRENCY apart.
 */
const HELD_MAX_BYTES = 32 * 1024 * 1024;

const heldBytes = (f: Finished) => (f.processed?.body?.byteLength ?? 0) + (f.processed?.record?.byteLength ?? 0);

/**
 * Fetches the claimed tasks of a group and records their results in chunks as pages finish, while the rest
 * are still being fetched: the next depth level reaches the queue sooner, bodies leave memory sooner, and only
 * the last chunk's writes are left once the last response is in. A chunk is a wave of FETCH_CONCURRENCY pages
 * (at least SETTLE_CHUNK_MIN) or CHUNK_MAX_BYTES of bodies, recorded one at a time in the order they filled; past
 * HELD_MAX_BYTES of bodies not yet recorded, the next fetch waits for a chunk to be. Unclaimed messages are acked.
 */
async function fetchInChunks(
  group: TaskMessage[],
  claims: (Claim | null)[],
  { deps, memory }: { deps: ProcessDeps; memory: HeldBytes },
  record: (chunk: Finished[]) => Promise<void>,
): Promise<void> {
  const chunkSize = Math.max(SETTLE_CHUNK_MIN, deps.settings.fetchConcurrency);
  let buffer: Finished[] = [];
  let bufferBytes = 0;
  let recording = Promise.resolve();
  const flush = () => {
    const [chunk, bytes] = [buffer, bufferBytes];
    [buffer, bufferBytes] = [[], 0];
    recording = recording.then(() => record(chunk)).finally(() => memory.release(bytes));
  };
  const limit = deps.limit ?? ((task) => task());
  // A fetch that must wait for memory first has the results so far recorded, which is what frees it.
  const gated: ProcessDeps = { ...deps, limit: (task) => limit(() => memory.room(() => buffer.length > 0 && flush()).then(task)) };
  const started = group.flatMap(({ message, task }, i) => {
    const claim = claims[i];
    if (!claim) {
      message.ack(); // already done, taken by another consumer, or the crawl is over
      return [];
    }
    return [
      processOne(message, task, claim, gated).then((finished) => {
        const bytes = heldBytes(finished);
        buffer.push(finished);
        bufferBytes += bytes;
        memory.hold(bytes);
        if (buffer.length >= chunkSize || bufferBytes >= CHUNK_MAX_BYTES) flush();
      }),
    ];
  });
  await Promise.all(started);
  if (buffer.length > 0) flush();
  await recording;
}

/** One task fetched and decided, or broken by an internal error (its message is retried). */
function processOne(message: Message, task: CrawlTask, claim: Claim, deps: ProcessDeps): Promise<Finished> {
  return processTask(task, claim, deps).then(
    (processed) => ({ message, task, processed }),
    (error: unknown) => {
      log('error', 'processing failed', { crawlId: task.crawlId, url: task.url, error: String(error) });
      return { message, task, error };
    },
  );
}
