/** Runtime settings from the Worker's vars, with defaults and bounds. */

import type { Limits } from './domain/crawl/url-life';
import { type PrivateAllowance, parsePrivateAllowance } from './domain/url/address';

export interface Settings {
  /** ALLOW_PRIVATE_NETWORKS: "true", "false", or a list of allowed private hosts and IPv4 CIDRs. */
  allowPrivateNetworks: PrivateAllowance;
  userAgent: string;
  fetchTimeoutMs: number;
  maxBodyBytes: number;
  maxAttempts: number;
  /** The frontier queues' max_retries in wrangler.toml (a message is delivered at most this + 1 times). */
  queueMaxRetries: number;
  /** Requests one consumer invocation has in flight at once (its batch may be larger). */
  fetchConcurrency: number;
  /**
   * Of those, how many may wait for response headers at once: Cloudflare gives an invocation six connections in
   * that phase and queues the rest while their timeouts run, so this is at most 6 (CONNECTIONS_PER_INVOCATION).
   */
  connectionsPerInvocation: number;
  /**
   * Local emulation of that platform rule (wrangler dev does not enforce it): when > 0, page fetches beyond this
   * many waiting for headers are held back inside fetch() as the runtime would, their timeouts running
   * (EMULATE_CONNECTION_LIMIT; 0: off).
   */
  emulatedConnectionLimit: number;
  /** Minimum gap between two requests to one host, for every crawl (robots crawl-delay can raise it). */
  hostMinIntervalMs: number;
  /** Requests in flight to one host at once, across every consumer and crawl. */
  hostMaxConcurrency: number;
  /** How long a consumer may wait for a host's slot before handing the URL back to the queue. */
  hostMaxWaitMs: number;
  /** Upper bound on a robots.txt Crawl-delay and on a host's Retry-After back-off. */
  hostMaxDelayMs: number;
  /** How often a running crawl's Durable Object sweeps for lost work. */
  sweepIntervalMs: number;
  /** A crawl with URLs pending and no activity for this long has lost messages: they are re-sent. */
  stallAfterMs: number;
  /** Browsers at once across every consumer and crawl (BROWSER_MAX: the account's Browser Rendering limit, or less). */
  browserMax: number;
  /** New browsers the account may launch per minute (BROWSER_LAUNCHES_PER_MINUTE). */
  browserLaunchesPerMinute: number;
  /** How long an idle browser stays alive for the next invocation to reconnect to (its keep_alive). */
  browserKeepAliveMs: number;
  /** An idle browser nobody reconnected to within this long is closed by the pool (BROWSER_IDLE_CLOSE_MS). */
  browserIdleCloseMs: number;
  /** Pages one consumer invocation renders at once, as tabs of its one browser (RENDER_TABS). */
  renderTabs: number;
  /** The most one render may take, the page's own waiting included (RENDER_TIMEOUT_MS). */
  renderTimeoutMs: number;
  /** How long an invocation waits for a browser (the account's limit reached) before handing the URL back. */
  renderMaxWaitMs: number;
  /**
   * Subrequests (fetches and binding calls) one frontier consumer invocation plans at most (SUBREQUEST_BUDGET): below
   * the platform's limit per invocation (10,000 on Workers Paid unless `[limits] subrequests` says otherwise, 50 on
   * Free), so that URLs it cannot afford go back to the queue instead of the invocation failing half way.
   */
  subrequestBudget: number;
  /**
   * Bytes of bodies fetched and not yet written to R2 that one frontier invocation holds before it starts another
   * fetch (MEMORY_BUDGET_BYTES): an isolate has 128 MB. A chunk is recorded once it holds half of it.
   */
  memoryBudgetBytes: number;
  /** WEBHOOK_SECRET: signs Firecrawl-format webhook deliveries whose webhook has no secret; a secret, never logged. */
  webhookSecret?: string;
}

/** Connections a Worker invocation may have waiting for response headers at once (Cloudflare's limit). */
const PLATFORM_CONNECTIONS = 6;

const MiB = 1024 * 1024;

/** The least SUBREQUEST_BUDGET: Workers Free's limit (an invocation always starts one URL: lib/subrequests.ts). */
const MIN_SUBREQUEST_BUDGET = 50;

function intVar(value: string | undefined, fallback: number, min: number, max: number): number {
  const n = value === undefined || value.trim() === '' ? NaN : Number(value);
  return Number.isInteger(n) ? Math.min(max, Math.max(min, n)) : fallback;
}

export function readSettings(env: Env): Settings {
  return {
    allowPrivateNetworks: parsePrivateAllowance(env.ALLOW_PRIVATE_NETWORKS),
    userAgent: env.USER_AGENT?.trim() || 'edgecrawl/0.1',
    fetchTimeoutMs: intVar(env.FETCH_TIMEOUT_MS, 15_000, 100, 120_000),
    maxBodyBytes: intVar(env.MAX_BODY_BYTES, 10 * 1024 * 1024, 1024, 100 * 1024 * 1024),
    maxAttempts: intVar(env.MAX_ATTEMPTS, 4, 1, 20),
    queueMaxRetries: intVar(env.QUEUE_MAX_RETRIES, 10, 0, 100),
    fetchConcurrency: intVar(env.FETCH_CONCURRENCY, 50, 1, 500),
    connectionsPerInvocation: intVar(env.CONNECTIONS_PER_INVOCATION, PLATFORM_CONNECTIONS, 1, PLATFORM_CONNECTIONS),
    emulatedConnectionLimit: intVar(env.EMULATE_CONNECTION_LIMIT, 0, 0, 1000),
    hostMinIntervalMs: intVar(env.HOST_MIN_INTERVAL_MS, 1000, 0, 600_000),
    hostMaxConcurrency: intVar(env.HOST_MAX_CONCURRENCY, 2, 1, 256),
    hostMaxWaitMs: intVar(env.HOST_MAX_WAIT_MS, 10_000, 0, 600_000),
    hostMaxDelayMs: intVar(env.HOST_MAX_DELAY_MS, 120_000, 1000, 3_600_000),
    sweepIntervalMs: intVar(env.SWEEP_INTERVAL_MS, 30_000, 200, 3_600_000),
    stallAfterMs: intVar(env.STALL_AFTER_MS, 120_000, 1000, 24 * 3_600_000),
    browserMax: intVar(env.BROWSER_MAX, 10, 1, 1000),
    browserLaunchesPerMinute: intVar(env.BROWSER_LAUNCHES_PER_MINUTE, 30, 1, 10_000),
    browserKeepAliveMs: intVar(env.BROWSER_KEEP_ALIVE_MS, 60_000, 10_000, 600_000),
    browserIdleCloseMs: intVar(env.BROWSER_IDLE_CLOSE_MS, 15_000, 1000, 600_000),
    renderTabs: intVar(env.RENDER_TABS, 4, 1, 32),
    renderTimeoutMs: intVar(env.RENDER_TIMEOUT_MS, 20_000, 1000, 120_000),
    renderMaxWaitMs: intVar(env.RENDER_MAX_WAIT_MS, 10_000, 0, 120_000),
    subrequestBudget: intVar(env.SUBREQUEST_BUDGET, 9000, MIN_SUBREQUEST_BUDGET, 10_000_000),
    memoryBudgetBytes: intVar(env.MEMORY_BUDGET_BYTES, 32 * MiB, 2 * MiB, 96 * MiB),
    ...(env.WEBHOOK_SECRET?.trim() ? { webhookSecret: env.WEBHOOK_SECRET.trim() } : {}),
  };
}

/** How the model step (formats json and summary) works: docs/models.md. */
export interface ModelSettings {
  /** Model calls one invocation of the model queue's consumer makes at once (MODEL_CONCURRENCY). */
  concurrency: number;
  /** Tokens of the page's markdown (and the prompt) sent at most (MODEL_INPUT_TOKENS); the head is kept. */
  inputTokens: number;
  /** Deliveries of a page's model message (429s, 5xx) before it is stored without an answer (MODEL_ATTEMPTS). */
  attempts: number;
  /**
   * Model calls the account starts a minute, across every invocation (MODEL_REQUESTS_PER_MINUTE; objects/model-gate.ts
   * spaces them): Workers AI allows 300 text-generation requests a minute by default.
   */
  requestsPerMinute: number;
}

export function readModelSettings(env: Env): ModelSettings {
  return {
    concurrency: intVar(env.MODEL_CONCURRENCY, 4, 1, 50),
    inputTokens: intVar(env.MODEL_INPUT_TOKENS, 6000, 500, 120_000),
    attempts: intVar(env.MODEL_ATTEMPTS, 8, 1, 20),
    requestsPerMinute: intVar(env.MODEL_REQUESTS_PER_MINUTE, 240, 1, 60_000),
  };
}

/** Documents a page of Firecrawl's crawl status answers at most (FIRECRAWL_PAGE_SIZE; Firecrawl's is 100). */
export const firecrawlPageSize = (env: Env): number => intVar(env.FIRECRAWL_PAGE_SIZE, 100, 1, 1000);

/** The limits a URL's life works within (domain/crawl/url-life.ts). */
export const limitsOf = (settings: Settings): Limits => ({
  maxAttempts: settings.maxAttempts,
  maxRetries: settings.queueMaxRetries,
});
