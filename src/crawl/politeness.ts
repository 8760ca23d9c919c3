import { DEFAULT_429_BACKOFF_MS } from './host-gate';
import type { Settings } from './settings';

/** The rate limiter and robots.txt of a URL's host are one Durable Object per host name. */
export function hostKey(url: string): string {
  return new URL(url).hostname.toLowerCase();
}

export type GateResult =
  /** A slot was granted and its start reached: fetch now, then call done(). */
  | { kind: 'go'; sitemaps?: string[]; done: (response?: { status: number; respondedAt: number; retryAfterSeconds?: number }) => Promise<void> }
  | { kind: 'disallowed'; sitemaps?: string[] }
  /** robots.txt unreachable: a transient failure of this URL. */
  | { kind: 'unreachable'; reason: string; retryInMs: number }
  /** No slot within the wait budget: hand the URL back without using up an attempt. */
  | { kind: 'throttled'; retryInMs: number };

/** A crawl's own politeness, on top of the host's. */
export interface CrawlPoliteness {
  minIntervalMs: number;
  maxConcurrency?: number;
  /** Also return the robots.txt Sitemap URLs of the URL's origin. */
  withSitemaps?: boolean;
}

export type Gate = (url: string, politeness: CrawlPoliteness) => Promise<GateResult>;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Passes a URL through its host's gate: robots.txt, then a slot. Waits for the slot's start (and,
 * when all slots are taken, asks again) for at most settings.hostMaxWaitMs; past that, the URL is
 * throttled. After the fetch, done() releases the slot and reports 429s and Retry-After to the host.
 */
export function hostGate(hosts: Env['HOSTS'], settings: Settings): Gate {
  return async (url, politeness) => {
    const stub = hosts.getByName(hostKey(url));
    const deadline = Date.now() + settings.hostMaxWaitMs;
    for (;;) {
      const admission = await stub.admit({ url, ...politeness, maxWaitMs: Math.max(0, deadline - Date.now()) });
      switch (admission.kind) {
        case 'disallowed':
          return admission;
        case 'unreachable':
          return admission;
        case 'wait':
          if (Date.now() + admission.retryInMs > deadline) return { kind: 'throttled', retryInMs: admission.retryInMs };
          await sleep(admission.retryInMs);
          continue;
        case 'go':
          // Sleep to the slot's start by the clock, so the reply's own latency does not shift it.
          const wait = admission.startAt - Date.now();
          if (wait > 0) await sleep(wait);
          if (admission.spacing > 0) await stub.begin(admission.slot, admission.spacing);
          return {
            kind: 'go',
            ...(admission.sitemaps ? { sitemaps: admission.sitemaps } : {}),
            done: async (response) => {
              const slowDown =
                response?.status === 429
                  ? (response.retryAfterSeconds ?? DEFAULT_429_BACKOFF_MS / 1000) * 1000
                  : response?.status === 503 && response.retryAfterSeconds !== undefined
                    ? response.retryAfterSeconds * 1000
                    : 0;
              // Back off before releasing, so no request slips in between.
              if (slowDown > 0) await stub.backoff(slowDown);
              await stub.release(admission.slot, response?.respondedAt);
            },
          };
      }
    }
  };
}
