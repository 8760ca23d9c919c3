import { accessOf, CredentialsError } from '../credentials';
import { comparisonOf, extractionOf } from '../domain/crawl/settings';
import { transition } from '../domain/crawl/url-life';
import { UsageMeter } from '../domain/crawl/usage';
import { screenshotOf, waitBudgetMs } from '../domain/render/rules';
import { compileLinkPolicy, compileSitemapPolicy, compileUrlCleaner, type LinkPolicy } from '../domain/url/link-policy';
import { countedBindings } from '../lib/counted-bindings';
import { type Limit, limiter } from '../lib/limit';
import { MemoryBudget } from '../lib/memory-budget';
import { SubrequestBudget } from '../lib/subrequests';
import { log } from '../log';
import { POOL_NAME } from '../objects/browser-pool';
import { reportUsage } from '../objects/crawl-usage';
import { hostGateClient, notFoundClient } from '../objects/host-gate-client';
import { BusyClock, InvocationBrowser } from '../page/browsers';
import { cacheLookup } from '../page/cache';
import { type Connections, invocationConnections } from '../page/connections';
import {
  type PipelineCore,
  type PipelineDeps,
  type PipelineParts,
  pipelineDeps,
  type Recrawl,
  type RenderDeps,
} from '../page/deps';
import { previousHash } from '../page/previous-hash';
import { processTask } from '../page/process';
import { enqueueTasks, type Outgoing } from '../queues/frontier';
import { limitsOf, readSettings, type Settings } from '../settings';
import { previousVersions } from '../storage/d1/previous-versions';
import { readLinks } from '../storage/links';
import type { Claim, CrawlConfig, CrawlTask } from '../types';
import { ChunkWriter } from './chunks';
import { crawlCookieJar } from './cookie-jar';
import { fetchGuard, heardStatus } from './fetch-guard';
import type { CrawlStub, Finished } from './finished';
import { answerMessage, handedBack, settle } from './settle';
import { groupSubrequests, INVOCATION_SUBREQUESTS, putOff, URL_SUBREQUESTS } from './subrequests';
import { type Carrier, envelopesOf, messagesByCrawl, type TaskMessage } from './tasks';

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
export async function consumeFrontier(batch: MessageBatch, platformEnv: Env): Promise<void> {
  const settings = readSettings(platformEnv);
  const groups = messagesByCrawl(batch, 'frontier message');
  // Every subrequest of the invocation is counted where it leaves: a binding's call (env) or a page's fetch.
  const subrequests = new SubrequestBudget(settings.subrequestBudget);
  const spend = () => subrequests.spend();
  const env = countedBindings(platformEnv, spend);
  subrequests.plan(INVOCATION_SUBREQUESTS);
  // One cap on requests in flight for the whole invocation, whatever crawls its messages belong to, the invocation's
  // six connections waiting for headers, and its bodies held in memory.
  const invocation = {
    limit: limiter(settings.fetchConcurrency),
    connections: invocationConnections(settings, spend),
    memory: new MemoryBudget(settings.memoryBudgetBytes),
    browser: new InvocationBrowser(env.BROWSER, env.BROWSERS.getByName(POOL_NAME), settings),
    subrequests,
  };
  try {
    await Promise.all([...groups].map(([crawlId, group]) => consumeGroup(crawlId, group, env, settings, invocation)));
  } finally {
    // The invocation's browser, if a page needed one, goes back to the pool alive, for the next invocation.
    await invocation.browser
      .close()
      .catch((error: unknown) => log('warn', 'browser release', { error: String(error) }));
  }
}

/**
 * One crawl's messages of the batch, its operations counted (UsageMeter) and reported to the crawl in one call at the
 * end: the invocation (each crawl of a shared batch is charged one), each delivery and ack, and what fetching and
 * recording its pages took. The crawl's Durable Object counts its own requests and rows. Each URL is answered on its
 * own, then each message once (Envelope.settle): the URLs of a message to be tried again are sent back in messages of
 * their own, to the crawl's queues.
 */
async function consumeGroup(
  crawlId: string,
  carriers: Carrier[],
  env: Env,
  settings: Settings,
  invocation: Invocation,
): Promise<void> {
  invocation.subrequests.plan(groupSubrequests(carriers.length));
  const meter = UsageMeter.delivered(carriers.length);
  const envelopes = envelopesOf(carriers, meter);
  const stub = env.CRAWL.getByName(crawlId);
  const config = await claimAndFetch(
    crawlId,
    envelopes.flatMap((e) => e.tasks),
    { env, settings, invocation, meter },
    stub,
  );
  const resend = config
    ? (items: Outgoing[], delay: number) => enqueueTasks(env, crawlId, config, items, delay, meter)
    : null;
  for (const envelope of envelopes) await envelope.settle(resend);
  await reportUsage(env.CRAWL, crawlId, meter);
}

/**
 * What the invocation shares between its crawls' groups: the cap on fetches in flight, the connections, the memory,
 * one browser (taken from the account's pool when a page first needs it), and its subrequests.
 */
interface Invocation {
  limit: Limit;
  connections: Connections;
  memory: MemoryBudget;
  browser: InvocationBrowser;
  subrequests: SubrequestBudget;
}

interface GroupContext {
  env: Env;
  settings: Settings;
  invocation: Invocation;
  meter: UsageMeter;
}

/** Claims the group's URLs, fetches and settles those it got; returns the crawl's config (null: unknown, not claimed). */
async function claimAndFetch(
  crawlId: string,
  group: TaskMessage[],
  context: GroupContext,
  stub: CrawlStub,
): Promise<CrawlConfig | null> {
  const { env, settings, meter } = context;
  const limits = limitsOf(settings);
  const claimed = await claimGroup(crawlId, group, stub, limits);
  if (!claimed) return null;
  const { config, mine, status, leaseUntil } = claimed;
  const urls = mine.map((c) => c.task.url);
  const recrawl = await recrawlFor(config, urls, context);
  const cache = await cacheFor(crawlId, config, urls, context);
  const access = await openAccess(crawlId, config, env);
  // A chunk is recorded at SETTLE_CHUNK_MIN pages or more, or half the invocation's memory budget of bodies. Bodies
  // being read are bounded apart, by FETCH_CONCURRENCY x MAX_BODY_BYTES.
  const writer = new ChunkWriter(
    { pages: Math.max(SETTLE_CHUNK_MIN, settings.fetchConcurrency), bytes: settings.memoryBudgetBytes / 2 },
    context.invocation.memory,
    (chunk) => settle(chunk, { env, crawlId, config, stub, meter, limits }),
  );
  heardStatus(crawlId, status);
  const guard = fetchGuard(crawlId, () => stub.status(), leaseUntil, settings.fetchTimeoutMs, meter);
  const clock = new BusyClock();
  // A render starts only if the lease outlasts the wait for a browser and the render itself.
  const renderTime = settings.renderMaxWaitMs + settings.renderTimeoutMs + waitBudgetMs(config.waitFor);
  const renderGuard = fetchGuard(crawlId, () => stub.status(), leaseUntil, renderTime, meter);
  const deps = pipelineDeps(crawlCore(crawlId, config, context), {
    recrawl,
    cache,
    render: { ...renderDeps(config, context.invocation.browser, clock, stub), guard: renderGuard },
    access,
    jar: typeof access === 'object' && access !== null ? crawlCookieJar(env, crawlId, stub, access.hosts) : null,
    notFound: config.traps.soft404 ? notFoundClient(env.HOSTS, config.hostIntervalMs ?? 0, context.meter) : null,
    duplicates: config.duplicates,
    limit: context.invocation.limit,
    connections: context.invocation.connections,
    // Before each fetch: room in the invocation's memory budget, then the claim and the crawl still good.
    beforeFetch: () => writer.room().then(guard),
  });
  // Each URL starts only if its subrequests fit in the invocation's budget; the others go back to the queue.
  const { subrequests } = context.invocation;
  await Promise.all(
    mine.map(async ({ message, task, claim }) =>
      writer.add(
        subrequests.take(URL_SUBREQUESTS) ? await processOne(message, task, claim, deps) : putOff(message, task, claim),
      ),
    ),
  );
  await writer.close();
  meter.count('browserSeconds', clock.ms / 1000);
  return config;
}

/**
 * The group claimed in one call: the crawl's config and the messages whose URLs are this group's to fetch; the others
 * answered (done, another message's, or the crawl is over), and all of them when the coordinator cannot be reached.
 */
async function claimGroup(crawlId: string, group: TaskMessage[], stub: CrawlStub, limits: ReturnType<typeof limitsOf>) {
  let claimed: Awaited<ReturnType<CrawlStub['claim']>>;
  try {
    claimed = await stub.claim(
      group.map((g) => g.task.url),
      group.map((g) => g.message.id),
    );
  } catch (error) {
    log('error', 'claim failed', { crawlId, error: String(error) });
    for (const { message } of group)
      answerMessage(
        message,
        transition({ on: 'coordinator-unreachable', deliveries: message.attempts }, limits).message,
      );
    return null;
  }
  const { config, claims, leaseUntil, status } = claimed;
  const mine = group.flatMap((g, i) => {
    const claim = claims[i];
    if (claim && config) return [{ ...g, claim }];
    answerMessage(g.message, transition({ on: 'unclaimed' }, limits).message); // done, another message's, or the crawl is over
    return [];
  });
  if (!config || mine.length === 0) return null;
  return { config, mine, leaseUntil, status };
}

/** Rendering as the crawl asks (render, waitFor, a screenshot format), its renders counted against maxRenders. */
function renderDeps(config: CrawlConfig, browser: InvocationBrowser, clock: BusyClock, stub: CrawlStub): RenderDeps {
  const options = { render: config.render ?? 'auto', waitFor: config.waitFor ?? null, maxRenders: config.maxRenders };
  return { options, formats: config.extract?.formats ?? [], browser, clock, take: () => stub.takeRender() };
}

/** What every page of the crawl is processed with: its settings, link policies, host gates and extraction. */
function crawlCore(crawlId: string, config: CrawlConfig, { env, settings, meter }: GroupContext): PipelineCore {
  const { page: policy, sitemap: sitemapInScope } = policiesFor(crawlId, config);
  return {
    crawlId,
    settings,
    gate: hostGateClient(env.HOSTS, settings, { meter, crawlId }),
    politeness: {
      minIntervalMs: config.hostIntervalMs ?? 0,
      ...(config.hostConcurrency ? { maxConcurrency: config.hostConcurrency } : {}),
    },
    policy,
    sitemapInScope,
    readSitemaps: config.sitemaps,
    followLinks: config.links,
    extract: extractionOf(config),
    cleanUrl: compileUrlCleaner(config),
  };
}

/**
 * A recrawl's previous versions of the group's URLs. A scheduled recrawl makes its requests conditional on what the
 * previous crawl fetched; one given a previousCrawlId compares with it (fetching in full). Null: not a recrawl.
 */
async function recrawlFor(config: CrawlConfig, urls: string[], { env, meter }: GroupContext): Promise<Recrawl | null> {
  if (config.recrawlOf === undefined) return null;
  const previousCrawl = typeof config.recrawlOf === 'string' ? config.recrawlOf : null;
  const conditional = config.previousCrawlId === null;
  const spec = extractionOf(config) ?? comparisonOf(config);
  return {
    previous: previousCrawl ? await previousVersions(env.DB, previousCrawl, urls, meter) : new Map(),
    conditional,
    compare: config.extract ? null : comparisonOf(config),
    rehash: conditional ? null : (url, previous) => previousHash(env.BODIES, url, previous, spec, meter),
    links: async (_url, previous) =>
      previousCrawl ? ((await readLinks(env.BODIES, previous.linksAt, meter)) ?? []) : [],
  };
}

/**
 * The page cache (maxAge): the group's fresh copies stored by other crawls, found in one read; null: none asked. A
 * crawl with credentials never reads it: another crawl's copy was fetched without its credentials (and the copies of
 * crawls with credentials are never offered: storage/d1/page-cache.ts).
 */
async function cacheFor(
  crawlId: string,
  config: CrawlConfig,
  urls: string[],
  { env, meter }: GroupContext,
): Promise<PipelineParts['cache']> {
  if (!config.maxAge || config.credentials !== null) return null;
  const request = { render: config.render ?? 'auto', wantsBrowser: screenshotOf(config.extract?.formats) !== null };
  return cacheLookup(env, urls, { maxAge: config.maxAge, request, exceptCrawl: crawlId, meter });
}

/**
 * The crawl's credentials opened (credentials.ts), or why they cannot be: then every URL fails saying so (the key was
 * unset or changed since the crawl started), rather than being fetched without them.
 */
async function openAccess(crawlId: string, config: CrawlConfig, env: Env): Promise<PipelineParts['access']> {
  try {
    return await accessOf(env, config.credentials);
  } catch (error) {
    if (!(error instanceof CredentialsError)) throw error;
    log('error', 'credentials cannot be opened', { crawlId, error: error.message });
    return error.message;
  }
}

/** The smallest chunk of results recorded at once (see ChunkWriter). */
const SETTLE_CHUNK_MIN = 25;

/** One task fetched and decided; one that broke on an internal error is handed back (no attempt used up). */
function processOne(message: Message, task: CrawlTask, claim: Claim, deps: PipelineDeps): Promise<Finished> {
  return processTask(task, claim, deps, message.attempts).then(
    (processed) => ({ message, task, processed }),
    (error: unknown) => {
      log('error', 'processing failed', { crawlId: task.crawlId, url: task.url, error: String(error) });
      const processed = handedBack(
        { outcome: { kind: 'released', url: task.url, fetched: false }, attempts: claim.attempts },
        'internal error',
      );
      return { message, task, processed };
    },
  );
}
