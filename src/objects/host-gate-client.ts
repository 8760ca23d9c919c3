import type { UsageMeter } from '../domain/crawl/usage';
import { reservationDelayMs } from '../domain/politeness/reservation';
import type { NotFoundAnswer } from '../domain/traps/soft-404';
import { hostKey } from '../domain/url/normalize';
import { limiter } from '../lib/limit';
import { sleep } from '../lib/sleep';
import { log } from '../log';
import type { Gate, GateReport, GateResult } from '../page/gate';
import type { Settings } from '../settings';
import { type Admission, type AdmitRequest, DEFAULT_429_BACKOFF_MS } from './host-gate';

/** Unpaced slots finished within this long of each other are released in one call. */
const RELEASE_BATCH_MS = 20;

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

  constructor(
    private readonly stub: HostStub,
    private readonly meter?: UsageMeter,
  ) {}

  /** Counts a call to the host's Durable Object. */
  call(): HostStub {
    this.meter?.count('durableObjectRequests');
    return this.stub;
  }

  admit(request: AdmitRequest): Promise<Admission> {
    return new Promise((resolve, reject) => {
      if (this.admits.push({ request, resolve, reject }) === 1) queueMicrotask(() => this.sendAdmits());
    });
  }

  private sendAdmits(): void {
    const pending = this.admits;
    this.admits = [];
    this.call()
      .admitMany(pending.map((p) => p.request))
      .then(
        (admissions) => {
          for (const [i, p] of pending.entries()) {
            const admission = admissions[i];
            if (!admission) {
              p.reject(new Error('host gate answered fewer admissions than asked'));
              continue;
            }
            if (admission.kind === 'go' && admission.spacing === 0) this.running++;
            p.resolve(admission);
          }
        },
        (error: unknown) => {
          for (const p of pending) p.reject(error);
        },
      );
  }

  async release(slot: Released, paced: boolean): Promise<void> {
    if (paced) return this.call().release(slot.slot, slot.respondedAt);
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
    if (slots.length > 0) await this.call().releaseMany(slots);
  }
}

/** How long a host asked us to wait (429, or 503 with Retry-After), ms; 0 for none. */
function slowDownMs(report: GateReport | undefined): number {
  if (report?.status === 429) return (report.retryAfterSeconds ?? DEFAULT_429_BACKOFF_MS / 1000) * 1000;
  if (report?.status === 503 && report.retryAfterSeconds !== undefined) return report.retryAfterSeconds * 1000;
  return 0;
}

/** The slot's request is over: report a slow-down to the host before releasing, so no request slips in between. */
async function finishSlot(
  channel: HostChannel,
  slot: string,
  paced: boolean,
  report: GateReport | undefined,
): Promise<void> {
  const slowDown = slowDownMs(report);
  if (slowDown > 0) await channel.call().backoff(slowDown);
  await channel.release(
    report?.respondedAt === undefined ? { slot } : { slot, respondedAt: report.respondedAt },
    paced,
  );
}

/** Who asks a client for slots. */
export interface GateClientOptions {
  meter?: UsageMeter;
  /**
   * The crawl whose URLs the client admits: its slots are booked in its name (given back when it ends), and a URL
   * with no slot within the wait budget gets one reserved later on the host's timeline. None (a scrape, a map):
   * nothing is reserved; beyond the budget the URL is throttled.
   */
  crawlId?: string;
}

/**
 * The consumer's side of the host gates (HostGate, one Durable Object per host name): a Gate that passes
 * a URL through robots.txt, then a slot. Waits for the slot's start (and, when all slots are taken, asks
 * again) for at most settings.hostMaxWaitMs; past that, the URL is throttled. After the fetch, done()
 * releases the slot and reports 429s and Retry-After to the host. One client serves one consumer
 * invocation: its round trips to each host are batched (HostChannel).
 */
export function hostGateClient(hosts: Env['HOSTS'], settings: Settings, options: GateClientOptions = {}): Gate {
  const channels = new Map<string, HostChannel>();
  const channelFor = (url: string) => {
    const key = hostKey(url);
    const channel = channels.get(key) ?? new HostChannel(hosts.getByName(key), options.meter);
    channels.set(key, channel);
    return channel;
  };
  const asker = options.crawlId === undefined ? {} : { crawlId: options.crawlId, reserve: true };
  return async (url, politeness, reservedAt) => {
    const channel = channelFor(url);
    const deadline = Date.now() + settings.hostMaxWaitMs;
    // A reservation the URL holds is kept while it waits for the host's cap, and handed back with it if it must.
    const held = reservedAt === undefined ? {} : { reservedAt };
    for (;;) {
      const admission = await channel.admit({
        url,
        ...politeness,
        ...held,
        ...asker,
        maxWaitMs: Math.max(0, deadline - Date.now()),
      });
      if (admission.kind === 'disallowed' || admission.kind === 'unreachable' || admission.kind === 'ended')
        return admission;
      if (admission.kind === 'reserved') {
        const retryInMs = reservationDelayMs(admission.startAt, Date.now());
        return { kind: 'throttled', retryInMs, reservation: admission.startAt };
      }
      if (admission.kind === 'wait') {
        if (Date.now() + admission.retryInMs > deadline)
          return { kind: 'throttled', retryInMs: admission.retryInMs, ...reservation(reservedAt) };
        await sleep(admission.retryInMs);
        continue;
      }
      return goAhead(channel, admission);
    }
  };
}

function reservation(reservedAt: number | undefined): { reservation?: number } {
  return reservedAt === undefined ? {} : { reservation: reservedAt };
}

/**
 * A granted slot: sleep to its start by the clock (so the reply's own latency does not shift it), then begin; a
 * paced slot whose crawl ended meanwhile is not begun (the gate took it back).
 */
async function goAhead(channel: HostChannel, admission: Extract<Admission, { kind: 'go' }>): Promise<GateResult> {
  const wait = admission.startAt - Date.now();
  if (wait > 0) await sleep(wait);
  const paced = admission.spacing > 0;
  if (paced && !(await channel.call().begin(admission.slot, admission.spacing))) return { kind: 'ended' };
  return {
    kind: 'go',
    ...(admission.robotsSitemaps ? { robotsSitemaps: admission.robotsSitemaps } : {}),
    ...(paced ? { paced: { spacing: admission.spacing, beganAt: Date.now() } } : {}),
    done: (report) => finishSlot(channel, admission.slot, paced, report),
  };
}

/** Host gates asked at once to fetch robots.txt ahead of a crawl's first URLs of them (a Durable Object call each). */
const PREFETCH_CONCURRENCY = 32;

/**
 * A crawl accepted its first URLs of these hosts (origins by host name): each host's gate fetches their robots.txt
 * now (HostGate.prefetchRobots), a spacing before the URLs are due. A gate that cannot be reached fetches it when the URL
 * comes, as it always could.
 */
export async function prefetchRobots(
  hosts: Env['HOSTS'],
  origins: ReadonlyMap<string, string[]>,
  minIntervalMs: number,
): Promise<void> {
  const limit = limiter(PREFETCH_CONCURRENCY);
  await Promise.all(
    [...origins].map(([key, list]) =>
      limit(async () => {
        try {
          await hosts.getByName(key).prefetchRobots(list, minIntervalMs);
        } catch (error) {
          log('warn', 'a host gate could not fetch robots.txt ahead', { host: key, error: String(error) });
        }
      }),
    ),
  );
}

/** Host gates called at once when a crawl ends (a Durable Object call each). */
const RELEASE_CONCURRENCY = 6;

/**
 * A crawl is over: each host's gate in `hostKeys` gives back what it holds for it (HostGate.releaseCrawl; `ended`:
 * it will not run again). A gate that cannot be reached keeps them until their time has passed. Returns the slots
 * given back from the hosts' timelines.
 */
export async function releaseCrawl(
  hosts: Env['HOSTS'],
  crawlId: string,
  hostKeys: Iterable<string>,
  ended: boolean,
): Promise<number> {
  const limit = limiter(RELEASE_CONCURRENCY);
  const freed = await Promise.all(
    [...hostKeys].map((key) =>
      limit(async () => {
        try {
          return (await hosts.getByName(key).releaseCrawl(crawlId, ended)).booked;
        } catch (error) {
          log('warn', "a host gate kept an ended crawl's slots (until their time)", {
            crawlId,
            host: key,
            error: String(error),
          });
          return 0;
        }
      }),
    ),
  );
  return freed.reduce((sum, n) => sum + n, 0);
}

/**
 * What a page's host answers for a made-up path (HostGate.notFound: soft 404s), asked of its gate in the crawl's name:
 * a Durable Object call, made only for a page that reads as not found.
 */
export function notFoundClient(
  hosts: Env['HOSTS'],
  minIntervalMs: number,
  meter?: UsageMeter,
): (url: string) => Promise<NotFoundAnswer | null> {
  return (url) => {
    meter?.count('durableObjectRequests');
    return hosts.getByName(hostKey(url)).notFound(url, minIntervalMs);
  };
}
