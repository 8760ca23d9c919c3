import { DEFAULT_429_BACKOFF_MS, type Admission, type AdmitRequest } from './host-gate';
import type { Settings } from '../settings';

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

/** Unpaced slots finished within this long of each other are released in one call. */
export const RELEASE_BATCH_MS = 20;

type HostStub = ReturnType<Env['HOSTS']['getByName']>;
type Released = { slot: string; respondedAt?: number };

/**
 * Round trips to one host's Durable Object, batched: admissions asked for in the same turn (a consumer
 * starts all the URLs of its batch at once) go in one admitMany call, and unpaced slots are handed back
 * together once none of this consumer's requests to the host is still running, or RELEASE_BATCH_MS after
 * the first of them finished. Paced slots are released at once: the next paced request waits for it.
 */
class HostChannel {
  private admits: { request: AdmitRequest; resolve: (a: Admission) => void; reject: (e: unknown) => void }[] = [];
  private releases: Released[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Unpaced requests of this consumer to the host that were granted and not yet finished. */
  private running = 0;

  constructor(readonly stub: HostStub) {}

  admit(request: AdmitRequest): Promise<Admission> {
    return new Promise((resolve, reject) => {
      if (this.admits.push({ request, resolve, reject }) === 1) queueMicrotask(() => this.sendAdmits());
    });
  }

  private sendAdmits(): void {
    const pending = this.admits;
    this.admits = [];
    this.stub.admitMany(pending.map((p) => p.request)).then(
      (admissions) => {
        pending.forEach((p, i) => {
          const admission = admissions[i] as Admission;
          if (admission.kind === 'go' && admission.spacing === 0) this.running++;
          p.resolve(admission);
        });
      },
      (error: unknown) => pending.forEach((p) => p.reject(error)),
    );
  }

  async release(slot: Released, paced: boolean): Promise<void> {
    if (paced) return this.stub.release(slot.slot, slot.respondedAt);
    this.running--;
    this.releases.push(slot);
    if (this.running > 0) {
      this.timer ??= setTimeout(() => void this.sendReleases().catch(() => undefined), RELEASE_BATCH_MS);
      return;
    }
    return this.sendReleases();
  }

  private async sendReleases(): Promise<void> {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    const slots = this.releases;
    this.releases = [];
    // A slot never released is taken back by the gate after its grace period.
    if (slots.length > 0) await this.stub.releaseMany(slots);
  }
}

/**
 * Passes a URL through its host's gate: robots.txt, then a slot. Waits for the slot's start (and,
 * when all slots are taken, asks again) for at most settings.hostMaxWaitMs; past that, the URL is
 * throttled. After the fetch, done() releases the slot and reports 429s and Retry-After to the host.
 * One gate serves one consumer invocation: its round trips to each host are batched (HostChannel).
 */
export function hostGate(hosts: Env['HOSTS'], settings: Settings): Gate {
  const channels = new Map<string, HostChannel>();
  const channelFor = (url: string) => {
    const key = hostKey(url);
    let channel = channels.get(key);
    if (!channel) channels.set(key, (channel = new HostChannel(hosts.getByName(key))));
    return channel;
  };
  return async (url, politeness) => {
    const channel = channelFor(url);
    const deadline = Date.now() + settings.hostMaxWaitMs;
    for (;;) {
      const admission = await channel.admit({ url, ...politeness, maxWaitMs: Math.max(0, deadline - Date.now()) });
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
          const paced = admission.spacing > 0;
          if (paced) await channel.stub.begin(admission.slot, admission.spacing);
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
              if (slowDown > 0) await channel.stub.backoff(slowDown);
              await channel.release(response?.respondedAt === undefined ? { slot: admission.slot } : { slot: admission.slot, respondedAt: response.respondedAt }, paced);
            },
          };
      }
    }
  };
}
