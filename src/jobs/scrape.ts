import { Buffer } from 'node:buffer';
import type { OutcomeCode } from '../domain/crawl/outcome-codes';
import { SCRAPE_CRAWL_ID } from '../domain/crawl/page-cache';
import type { Access } from '../domain/credentials/access';
import type { ExtractSpec } from '../domain/extract/spec-schema';
import { type Action, type RenderMode, screenshotOf, type WaitFor } from '../domain/render/rules';
import { limiter } from '../lib/limit';
import { log } from '../log';
import { POOL_NAME } from '../objects/browser-pool';
import { hostGateClient } from '../objects/host-gate-client';
import { pacedClient } from '../objects/model-gate-client';
import { BusyClock, InvocationBrowser } from '../page/browsers';
import { cacheLookup } from '../page/cache';
import { type PipelineDeps, pipelineDeps, type RenderDeps } from '../page/deps';
import { answerNow } from '../page/model/answer-now';
import { MAX_REDIRECT_HOPS, processTask } from '../page/process';
import { readModelSettings, readSettings } from '../settings';
import { writeResults } from '../storage/d1/results';
import { decodeRecord, type StoredRecord } from '../storage/records';
import { writeSegments } from '../storage/segments';
import type { PageRecord, Processed } from '../types';

/** What a scrape answers: the page's record with its outputs inline, or why there is none. */
export type ScrapeResult =
  | {
      kind: 'page';
      url: string;
      /** The URL the page was found at, after redirects. */
      finalUrl: string;
      status: number;
      contentType: string | null;
      /** The page's title (its <title>), whatever the formats: what the model is told, as a crawl's row tells it. */
      title: string | null;
      /** When the page was fetched from the site (a cached page: when its stored copy was). */
      fetchedAt: string;
      /** Answered from the page cache (a stored copy), with no request to the site. */
      cached: boolean;
      record: StoredRecord['record'] | null;
      outputs: StoredRecord['outputs'];
      /** Why the page was rendered in a browser; null: it was not. */
      rendered: string | null;
      /** The screenshot, as a data URL (PNG), when the formats asked for one. */
      screenshot: string | null;
      /** The body as fetched (a rendered page's: its DOM), for Firecrawl's rawHtml; not in edgecrawl's answer. */
      body: Uint8Array | null;
    }
  | {
      kind: 'refused';
      status: 403 | 422 | 502 | 503 | 504;
      code: string;
      message: string;
      /** The site's answer, when it answered an error status (Firecrawl's scrape tells it as the page's statusCode). */
      httpStatus?: number;
      /** The URL that answered it, after redirects. */
      finalUrl?: string;
    };

/** How a scrape renders: as a crawl's options say, with its actions, in a browser of its own request. */
interface ScrapeRender {
  render: RenderMode;
  waitFor: WaitFor | null;
  actions: Action[];
}

/** A scrape's request beyond its URL: its extraction spec, how it renders, and its page cache maxAge (seconds). */
export interface ScrapeOptions extends ScrapeRender {
  spec: ExtractSpec;
  maxAge: number;
  /** The scrape's credentials (never stored): the page is always fetched, and kept for no later scrape. */
  access?: Access | null;
}

/** A scrape's pipeline: one page of its own crawl id, rendered in its own browser, answered from the cache if fresh. */
function depsFor(env: Env, options: ScrapeOptions, browser: InvocationBrowser): PipelineDeps {
  const settings = { ...readSettings(env), maxAttempts: 1 };
  const render: RenderDeps = {
    options: { render: options.render, waitFor: options.waitFor },
    formats: options.spec.formats,
    actions: options.actions,
    browser,
    clock: new BusyClock(),
    take: async () => true,
  };
  const request = {
    render: options.render,
    wantsBrowser: options.actions.length > 0 || screenshotOf(options.spec.formats) !== null,
  };
  const cache = async (at: string) =>
    (await cacheLookup(env, [at], { maxAge: options.maxAge, request, exceptCrawl: '' }))(at);
  const core = {
    crawlId: SCRAPE_CRAWL_ID,
    settings,
    gate: hostGateClient(env.HOSTS, settings),
    politeness: { minIntervalMs: 0 },
    policy: () => true,
    sitemapInScope: () => false,
    readSitemaps: false,
    extract: options.spec,
  };
  const access = options.access ?? null;
  const cached = options.maxAge > 0 && access === null;
  return pipelineDeps(core, { render, cache: cached ? cache : null, limit: limiter(1), access });
}

/** The answer of a scrape that ended with each of these codes; any other: 502 fetch_failed. */
const REFUSALS: Partial<Record<OutcomeCode, { status: 403 | 422 | 502 | 504; code: string }>> = {
  robots_disallowed: { status: 403, code: 'blocked_by_robots' },
  private_address: { status: 422, code: 'private_address' },
  action_failed: { status: 422, code: 'action_failed' },
  render_failed: { status: 502, code: 'render_failed' },
  dns: { status: 502, code: 'dns_error' },
  connection_refused: { status: 502, code: 'connection_refused' },
  timeout: { status: 504, code: 'timeout' },
  connection_reset: { status: 502, code: 'connection_reset' },
  tls: { status: 502, code: 'tls_error' },
  network: { status: 502, code: 'fetch_failed' },
};

/** What a scrape answers for a URL that was not stored: by its outcome's code (domain/crawl/outcome-codes.ts). */
function refusal(processed: Processed): ScrapeResult {
  const { outcome } = processed;
  const reason = outcome.kind === 'stored' ? 'stored' : (outcome.reason ?? outcome.kind);
  if (outcome.kind === 'throttled')
    return {
      kind: 'refused',
      status: 503,
      code: 'host_busy',
      message: `the host of ${outcome.url} has no free slot now; try again shortly`,
    };
  const refused = 'code' in outcome ? REFUSALS[outcome.code] : undefined;
  if (refused) return { kind: 'refused', ...refused, message: refusalMessage(refused.code, outcome.url, reason) };
  const status = processed.page?.status;
  return {
    kind: 'refused',
    status: 502,
    code: 'fetch_failed',
    message: `${outcome.url}: ${status !== undefined && !reason.includes(String(status)) ? `http ${status}, ` : ''}${reason}`,
    ...(status !== undefined && status >= 400 ? { httpStatus: status, finalUrl: outcome.url } : {}),
  };
}

function refusalMessage(code: string, url: string, reason: string): string {
  if (code === 'blocked_by_robots') return `robots.txt disallows ${url} for this crawler`;
  if (code === 'private_address') return `${url} is a private network address`;
  if (code === 'action_failed' || code === 'render_failed') return reason;
  return `${url}: ${reason}`;
}

/**
 * Fetches one URL now and extracts it with `spec`, under the rules a crawl follows: private addresses refused,
 * robots.txt obeyed, the host's politeness slots taken, each redirect hop checked again. A page any crawl or scrape
 * stored within `maxAge` is answered from its stored copy instead, extracted with `spec`, with no request to the site.
 * A page fetched is stored for the next scrapes (a row of the crawl id SCRAPE_CRAWL_ID, its body in R2).
 */
export async function scrape(env: Env, url: string, options: ScrapeOptions): Promise<ScrapeResult> {
  const settings = readSettings(env);
  const browser = new InvocationBrowser(env.BROWSER, env.BROWSERS.getByName(POOL_NAME), settings);
  try {
    // A page fetched with credentials is the caller's alone: not kept for the page cache.
    const kept = options.access ? async () => undefined : (processed: Processed) => keep(env, processed);
    const result = await scrapeWith(depsFor(env, options, browser), url, kept);
    return result.kind === 'page' ? await withModel(env, options.spec, result) : result;
  } finally {
    await browser.close();
  }
}

/** The page's record with the model's json and summary, when the spec asks for them (page/model/answer-now.ts). */
async function withModel(env: Env, spec: ExtractSpec, page: ScrapeResult & { kind: 'page' }): Promise<ScrapeResult> {
  if (!page.record) return page;
  const answered = await answerNow(
    env,
    spec,
    { url: page.finalUrl, title: page.title },
    { record: page.record, outputs: page.outputs },
    // Its calls spaced with the model step's: the account's limit is one for both.
    (client) => pacedClient(client, env, readModelSettings(env).requestsPerMinute),
  );
  return { ...page, record: answered.record, outputs: answered.outputs };
}

/** A page fetched is stored for the page cache (its body in R2, a row of SCRAPE_CRAWL_ID); a failure only logged. */
async function keep(env: Env, processed: Processed): Promise<void> {
  if (processed.page?.cachedFrom) return;
  const { screenshot: _screenshot, ...stored } = processed;
  try {
    await writeSegments(env.BODIES, SCRAPE_CRAWL_ID, [stored]);
    await writeResults(env.DB, SCRAPE_CRAWL_ID, [stored]);
  } catch (error) {
    log('warn', 'storing a scraped page for the page cache failed', {
      url: processed.outcome.url,
      error: String(error),
    });
  }
}

async function scrapeWith(
  deps: PipelineDeps,
  url: string,
  keep: (processed: Processed) => Promise<void>,
): Promise<ScrapeResult> {
  let current = url;
  for (let hops = 0; hops <= MAX_REDIRECT_HOPS; hops++) {
    const processed = await processTask(
      { crawlId: SCRAPE_CRAWL_ID, url: current, depth: 0, hops },
      { depth: 0, hops, kind: 'page', attempts: 1 },
      deps,
    );
    const { outcome, page } = processed;
    const next = outcome.kind === 'skipped' && page?.redirectTo && outcome.links?.[0];
    if (next) {
      current = next.url;
      continue;
    }
    if (outcome.kind !== 'stored' || !page) return refusal(processed);
    await keep(processed);
    return answer(url, current, processed, page);
  }
  return {
    kind: 'refused',
    status: 502,
    code: 'fetch_failed',
    message: `${url}: more than ${MAX_REDIRECT_HOPS} redirects`,
  };
}

function answer(url: string, finalUrl: string, processed: Processed, page: PageRecord): ScrapeResult {
  const stored = processed.record ? decodeRecord(processed.record) : null;
  return {
    kind: 'page',
    url,
    finalUrl,
    status: page.status,
    contentType: page.contentType,
    title: page.title,
    fetchedAt: new Date(page.fetchedAt).toISOString(),
    cached: Boolean(page.cachedFrom),
    record: stored?.record ?? null,
    outputs: stored?.outputs ?? {},
    rendered: page.rendered ?? null,
    screenshot: processed.screenshot
      ? `data:image/png;base64,${Buffer.from(processed.screenshot).toString('base64')}`
      : null,
    body: processed.body ?? null,
  };
}
