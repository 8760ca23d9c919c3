/**
 * A crawl's URLs spread in time per host (docs/politeness.md, "A crawl's URLs arrive at their host's pace"). The
 * crawl's Durable Object sees every URL it accepts: it gives each a due time about when its host will have a slot
 * (one host interval after the crawl's previous URL of that host), and the URL's queue message is delayed until
 * then. A consumer batch then holds URLs of many hosts, each about due, instead of several URLs of one host that
 * would each wait a whole interval behind the other: the batch does not stall on one host. It is an estimate: the
 * host's gate still grants every slot (robots.txt's Crawl-delay, other crawls of the host and back-offs are its to
 * know), and a URL that comes too early waits or is reserved a slot as before.
 */
import { RESERVE_HORIZON_MS } from './reservation';

/** The interval plus a small margin (1%, 1 to 20 ms) for clocks that tick at different moments: the gate's spacing. */
export function spacingFor(intervalMs: number): number {
  return intervalMs <= 0 ? 0 : intervalMs + Math.min(20, Math.max(1, Math.ceil(intervalMs * 0.01)));
}

/** URLs one consumer batch takes: the frontier queues' max_batch_size (wrangler.toml) x TASKS_PER_MESSAGE. */
const BATCH_URLS = 100;
/**
 * The widest window URLs are grouped in: a URL arrives at most this long before its slot, within the consumer's wait
 * budget (HOST_MAX_WAIT_MS, 10 s by default) with room to spare (WAIT_SHARE of it, whole seconds).
 */
const MAX_WINDOW_MS = 8000;
const WAIT_SHARE = 0.8;

/** The widest window for a consumer wait budget of `maxWaitMs`: WAIT_SHARE of it in whole seconds, 1 to 8 s. */
export function windowCap(maxWaitMs: number): number {
  return Math.max(1000, Math.min(MAX_WINDOW_MS, Math.floor((maxWaitMs * WAIT_SHARE) / 1000) * 1000));
}

/**
 * The window a crawl's due times are grouped in (whole seconds, 1 to `cap`), from how many hosts it has under way and
 * their spacing: about the time the crawl takes to have a consumer batch of URLs due. A broad crawl has a batch due
 * every second or less: each URL comes at its own time (its message rounded up to the second), so a batch holds one
 * URL of a host, or a few, already due, and waits for none. A narrow one (a few hosts) would otherwise get a batch per
 * URL, each paying for its invocation, its calls to the crawl and its R2 segment: its URLs come together at the start
 * of their window, and the batch waits for their slots (at most the window), as a reserved URL's batch does.
 */
export function windowMs(hosts: number, spacing: number, cap = MAX_WINDOW_MS): number {
  if (spacing <= 0 || hosts <= 0) return 1000;
  const fill = (BATCH_URLS * spacing) / hosts;
  return Math.min(cap, Math.max(1000, Math.floor(fill / 1000) * 1000));
}

/** A due time grouped in its window (see windowMs): the window's start, or `now` if that has passed. */
function windowed(due: number, now: number, window: number): number {
  return window <= 1000 ? due : Math.max(now, Math.floor(due / window) * window);
}

/** The plan looks no further ahead than the host gates book their timelines. */
const PLAN_HORIZON_MS = RESERVE_HORIZON_MS;
/** A host whose plan has passed this long ago is forgotten (a scan of the plan, at most this often). */
const FORGET_AFTER_MS = 60_000;

/**
 * How a host paced one of the crawl's requests, as its gate granted it: when the host is free for the next one (the
 * response's arrival plus the spacing), the spacing (the host's interval, or its robots.txt Crawl-delay), and how
 * long the response took to begin to arrive after the slot began (the next request waits for it: docs/politeness.md).
 */
export interface HostPace {
  freeAt: number;
  spacingMs: number;
  waitMs: number;
}

interface Planned {
  /** When the crawl's next URL of the host is planned. */
  next: number;
  /** Learned from the host's paced requests: its spacing and its responses' wait (a running mean). */
  spacing?: number;
  wait?: number;
}

/**
 * Per host, when the crawl's next URL of it is planned, and how fast the host really goes: kept in the crawl's
 * Durable Object's memory (an estimate; a new instance starts with none, and plans a host's first URLs from then).
 */
export class HostPlan {
  private readonly hosts = new Map<string, Planned>();
  private prunedAt = 0;

  /**
   * The due time (epoch ms) of each of the URLs accepted at `now`, given by their hosts in order: the host's next
   * planned time, or now, whichever is later, at most PLAN_HORIZON_MS ahead. Each takes the host one step further:
   * the spacing and response wait it was seen to keep, else `spacing` (the crawl's). A host new to the plan is asked
   * robots.txt first (a request like any other, which the crawl has its gate make at once: HostGate.prefetchRobots), so its
   * first URL is due a step from now. With no spacing (politeness lifted), every URL is due now.
   */
  plan(hosts: readonly string[], now: number, spacing: number): number[] {
    if (spacing <= 0) return hosts.map(() => now);
    this.prune(now);
    return hosts.map((host) => {
      const known = this.hosts.get(host);
      const step = known?.spacing === undefined ? spacing : Math.max(spacing, known.spacing) + (known.wait ?? 0);
      const due = known === undefined ? now + step : Math.max(now, known.next);
      this.hosts.set(host, { ...known, next: due + step });
      return Math.min(due, now + PLAN_HORIZON_MS);
    });
  }

  /**
   * Due times as their messages are sent: grouped in the window the crawl's breadth calls for (windowMs), at most
   * `cap` wide (windowCap).
   */
  grouped(dues: readonly number[], now: number, spacing: number, cap = MAX_WINDOW_MS): number[] {
    const window = windowMs(this.hosts.size, spacing, cap);
    return dues.map((due) => windowed(due, now, window));
  }

  /**
   * A page of `host` was fetched (its outcome reported at `now`): the host's next request comes no sooner than the
   * pace says (when it is free again), else a `spacing` from now; and its pace is learned. Its URLs found on the page
   * are planned from then, not from a plan that fell behind.
   */
  fetched(host: string, now: number, spacing: number, pace?: HostPace): void {
    if (spacing <= 0 && pace === undefined) return;
    const known = this.hosts.get(host);
    const free = pace?.freeAt ?? now + spacing;
    const learned =
      pace === undefined
        ? {}
        : { spacing: pace.spacingMs, wait: known?.wait === undefined ? pace.waitMs : (known.wait + pace.waitMs) / 2 };
    this.hosts.set(host, { ...known, ...learned, next: Math.max(known?.next ?? 0, free) });
  }

  /**
   * URLs of `host` planned ahead were taken out (a trap rule ended them before their time): its plan no longer runs
   * behind them, and its next URL is due a step from now (URLs of it still waiting keep their times; the host's gate
   * spaces any that meet).
   */
  rewind(host: string, now: number, spacing: number): void {
    const known = this.hosts.get(host);
    if (known !== undefined) this.hosts.set(host, { ...known, next: Math.min(known.next, now + spacing) });
  }

  /** Whether the plan holds the host (its first URL was planned, and it was not forgotten since). */
  knows(host: string): boolean {
    return this.hosts.has(host);
  }

  private prune(now: number): void {
    if (now - this.prunedAt < FORGET_AFTER_MS) return;
    this.prunedAt = now;
    for (const [host, { next }] of this.hosts) if (next <= now - FORGET_AFTER_MS) this.hosts.delete(host);
  }
}

/** Queues delay a message by at most 12 hours. */
const MAX_QUEUE_DELAY_SECONDS = 43_200;

/** A message may come this much before its URL's planned time (the spacing's own margin is of this order). */
const EARLY_MS = 50;

/**
 * The queue delay, whole seconds, of a message sent at `now` for a URL due at `dueAt`: rounded up, so that it arrives
 * at its planned time or after (no more than EARLY_MS before): a batch then finds its host's slot open rather than
 * waiting for it.
 */
export function dueDelaySeconds(dueAt: number | undefined, now: number): number {
  if (dueAt === undefined || dueAt - EARLY_MS <= now) return 0;
  return Math.min(MAX_QUEUE_DELAY_SECONDS, Math.ceil((dueAt - EARLY_MS - now) / 1000));
}
