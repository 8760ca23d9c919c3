import { Leases, leaseMs } from '../../domain/crawl/leases';
import type { OutcomeCode } from '../../domain/crawl/outcome-codes';
import {
  type FinalKind,
  type FrontierEntry,
  isFinal,
  type Outcome,
  reasonOf,
  recordOf,
  UrlState,
} from '../../domain/crawl/url-life';
import { HostPlan, windowCap } from '../../domain/politeness/spread';
import { trapReason } from '../../domain/traps/rules';
import { hostKey } from '../../domain/url/normalize';
import type { Settings } from '../../settings';
import type { Claim, CrawlConfig, CrawlStatus } from '../../types';
import { HostBudget } from './host-budget';
import type { Ledger } from './ledger';
import type { SeenSet } from './seen-set';
import type { Declaration, TrapWatch } from './traps';

/** What a claim answers: the crawl's status and config, a claim per URL (null: ack unfetched), the leases' end. */
export type ClaimAnswer = {
  status: CrawlStatus;
  config: CrawlConfig | null;
  claims: (Claim | null)[];
  leaseUntil: number;
};
/**
 * What a completion answers: the links accepted (to enqueue), the URLs recorded failed, stored and duplicates now (a
 * late repeat of an outcome already recorded is none of them), the crawl's status.
 */
export type CompleteAnswer = {
  accepted: FrontierEntry[];
  failed: string[];
  stored: string[];
  duplicates: string[];
  status: CrawlStatus;
};
export const seedEntry = (url: string): FrontierEntry => ({ url, depth: 0, hops: 0 });

/** Why a URL ended: its reason for people and its code for machines (none for a URL stored or a duplicate). */
export interface Why {
  reason: string | null;
  code: OutcomeCode | null;
}
export const NO_WHY: Why = { reason: null, code: null };

/** What the crawl's rules are as URLs are offered: its caps, and its trap rules (none for its seeds). */
export interface OfferRules {
  maxPages: number | null;
  maxPagesPerHost: number | null;
  traps: TrapWatch | null;
}

/** Queued URLs looked at in each key range of a trap just declared (endTrapped). */
const QUEUED_SCAN = 5_000;

/** No cap and no trap rule: a URL offered as it is. */
export const NO_LIMITS: OfferRules = { maxPages: null, maxPagesPerHost: null, traps: null };

/** A URL a trap rule kept out, recorded skipped: the D1 row its reason goes in is the caller's to write. */
export interface Trapped {
  url: string;
  reason: string;
}

/** What an offer took: the entries accepted (to enqueue), and those a trap rule kept out. */
export interface Offered {
  accepted: FrontierEntry[];
  trapped: Trapped[];
}

/**
 * The entries a trap rule passes, and those it keeps out with their reasons; a parameter that never changes a page is
 * folded: the URL without it is offered instead. Sitemaps and a crawl's seeds (depth 0, no redirect) are not asked.
 */
function screen(traps: TrapWatch, entries: readonly Found[]) {
  const pass: FrontierEntry[] = [];
  const trapped: (FrontierEntry & { reason: string })[] = [];
  for (const entry of entries) {
    const check = entry.kind === 'sitemap' || (entry.depth === 0 && entry.hops === 0) ? null : traps.check(entry.url);
    if (check === null) {
      pass.push(entry);
      if (entry.from !== undefined) traps.found(entry.url, entry.from);
    } else {
      trapped.push({ ...entry, reason: trapReason(check.hit) });
      if (check.fold !== undefined) pass.push({ ...entry, url: check.fold });
    }
  }
  return { pass, trapped };
}

/**
 * A queued URL a trap rule would keep out now (its pattern was found a trap after it was offered): its claim says so,
 * and the consumer ends it skipped without a request (with the URL folded from it, if any, as its link).
 */
function trapOf(traps: TrapWatch | null, entry: FrontierEntry): Pick<Claim, 'trap'> {
  if (traps === null || entry.kind === 'sitemap' || (entry.depth === 0 && entry.hops === 0)) return {};
  const check = traps.check(entry.url);
  if (check === null) return {};
  return { trap: { reason: trapReason(check.hit), ...(check.fold === undefined ? {} : { fold: check.fold }) } };
}

/** What retry-errors answers: the URLs reopened (to enqueue), how many failed ones remain, the crawl's status. */
export type RetryAnswer = { entries: FrontierEntry[]; remaining: number; status: CrawlStatus };

/**
 * What a call to complete() changed: URLs ended failed, stored or duplicates, URLs ended skipped because the crawl is
 * over, links to offer.
 */
export interface Completion {
  failed: string[];
  stored: string[];
  duplicates: string[];
  cancelled: string[];
  links: Found[];
}

/** A URL offered to the seen-set, with the page it was found on (none for a seed, or a URL sent again). */
export type Found = FrontierEntry & { from?: string };

/**
 * A crawl's URLs at work: claims leased to queue messages and the outcomes of their attempts, applied to the seen-set
 * and the counts as domain/crawl/url-life.ts says (recordOf). The leases live here, in memory.
 */
export class Work {
  readonly leases = new Leases();
  private readonly budget: HostBudget;
  /** When each host's next URL is planned (domain/politeness/spread.ts), in memory. */
  private readonly plan = new HostPlan();
  /** The origins, by host, of URLs accepted for hosts new to the plan: their gates fetch robots.txt ahead (takeNewHosts). */
  private newHosts = new Map<string, string[]>();

  /** `spacing`: the gap the crawl keeps between requests to a host, ms (0: politeness lifted), once it has started. */
  constructor(
    private readonly seen: SeenSet,
    private readonly ledger: Ledger,
    private readonly settings: Settings,
    private readonly spacing: () => number = () => 0,
  ) {
    this.budget = new HostBudget((row) => seen.eachPage(row));
  }

  /**
   * Leases each URL that is queued and not leased to another message (`holders[i]`, the id of the message that
   * carries urls[i]; a redelivery of the same message gets its URL back). Writes nothing. Returns the claims (null:
   * the message is to be acked unfetched) and when their leases run out.
   */
  claim(
    urls: readonly string[],
    holders: readonly (string | null)[] | undefined,
    now: number,
    traps: TrapWatch | null = null,
  ): { claims: (Claim | null)[]; leaseUntil: number } {
    const rows = this.seen.find(urls);
    const leaseUntil =
      now +
      leaseMs(urls.length, {
        hostMaxWaitMs: this.settings.hostMaxWaitMs,
        fetchTimeoutMs: this.settings.fetchTimeoutMs,
        connections: this.settings.connectionsPerInvocation,
      });
    const claims = urls.map((url, i): Claim | null => {
      const row = rows.get(url);
      if (!row || row.state !== UrlState.Queued) return null;
      const attempts = this.leases.grant(url, holders?.[i] ?? null, row.attempts, now, leaseUntil);
      if (attempts === null) return null;
      const reserved = row.reserved_at === null ? {} : { reservedAt: row.reserved_at };
      return { depth: row.depth, hops: row.hops, kind: row.kind, attempts, ...reserved, ...trapOf(traps, row) };
    });
    return { claims, leaseUntil };
  }

  /**
   * Records outcomes of URLs still queued, as recordOf says (an outcome for one already final, a late duplicate,
   * changes nothing). Once the crawl no longer runs, what finished is recorded as it finished, and what would be
   * tried again ends skipped: `cancelled` lists those (their D1 rows are the coordinator's to write).
   */
  complete(outcomes: readonly Outcome[], running: boolean, now: number): Completion {
    const rows = this.seen.find(outcomes.map((o) => o.url));
    const finals = new Map<
      string,
      { kind: FinalKind; reason: string | null; code: OutcomeCode | null; urls: string[] }
    >();
    const done: Completion = { failed: [], stored: [], duplicates: [], cancelled: [], links: [] };
    const spacing = this.spacing();
    for (const outcome of outcomes) {
      const row = rows.get(outcome.url);
      if (row?.state !== UrlState.Queued) continue;
      rows.delete(outcome.url);
      this.leases.release(outcome.url);
      if (outcome.fetched) {
        this.ledger.bump('fetched', 1);
        this.plan.fetched(hostKey(outcome.url), now, spacing, outcome.pace);
      }
      const change = recordOf(outcome, running);
      if (!running && !isFinal(outcome)) done.cancelled.push(outcome.url);
      if (change.to === 'queued') {
        this.seen.requeue(
          outcome.url,
          now + change.dueInSeconds * 1000,
          reasonOf(outcome),
          change.countsAttempt,
          change.reservedAt ?? null,
        );
        continue;
      }
      const group = `${change.kind}\n${change.code ?? ''}\n${change.reason ?? ''}`;
      const final = finals.get(group) ?? { kind: change.kind, reason: change.reason, code: change.code, urls: [] };
      final.urls.push(outcome.url);
      finals.set(group, final);
      if (change.kind === 'failed') done.failed.push(outcome.url);
      if (change.kind === 'stored') done.stored.push(outcome.url);
      if (change.kind === 'stored' && row.kind === 'sitemap') this.ledger.bump('sitemapsStored', 1);
      if (change.kind === 'duplicate') done.duplicates.push(outcome.url);
      if ('links' in outcome && outcome.links)
        done.links.push(...outcome.links.map((l) => ({ ...l, from: outcome.url })));
    }
    for (const { kind, reason, code, urls } of finals.values()) this.end(kind, { reason, code }, urls);
    return done;
  }

  /**
   * Offers entries to the seen-set: those a trap rule keeps out are recorded skipped at once (their D1 rows are the
   * caller's to write: `trapped`), the rest taken within the host's maxPagesPerHost and the crawl's maxPages (URLs a
   * trap rule skipped and sitemap files do not count against it). Counts what it took and returns the entries accepted, to enqueue, each
   * due when its host's plan has room for it (domain/politeness/spread.ts): its message is sent delayed until then.
   */
  offer(rules: OfferRules, entries: readonly Found[]): Offered {
    const now = Date.now();
    const screened = rules.traps ? screen(rules.traps, entries) : { pass: [...entries], trapped: [] };
    const trapped = this.seen.insertEnded('skipped', 'trap', screened.trapped, now);
    for (const name of ['discovered', 'skipped', 'trapped'] as const) this.ledger.bump(name, trapped.length);
    const budgeted = this.withinHostBudget(rules.maxPagesPerHost, screened.pass);
    const { discovered, trapped: skippedByRules, sitemaps } = this.ledger.counters;
    const room = (rules.maxPages ?? Number.POSITIVE_INFINITY) - (discovered - skippedByRules - sitemaps);
    const accepted = this.seen.offer(budgeted.entries, room, now, (fresh) => this.dues(fresh, now));
    this.ledger.bump('sitemaps', accepted.filter((e) => e.kind === 'sitemap').length);
    if (budgeted.fresh.length > 0) {
      const taken = new Set(accepted.map((e) => e.url));
      this.budget.giveBack(budgeted.fresh.filter((url) => !taken.has(url)));
    }
    this.ledger.bump('discovered', accepted.length);
    this.ledger.bump('pending', accepted.length);
    return { accepted, trapped: trapped.map(({ url, reason }) => ({ url, reason })) };
  }

  /**
   * Traps just declared: the URLs they keep out that wait queued (their delayed messages would otherwise only be
   * skipped when they came back, holding the crawl open meanwhile) end skipped now, but those under a live lease
   * (their claims are under way), and the URLs folded from them are offered. Returns both: the D1 rows of the trapped
   * are the caller's to write, the accepted to enqueue.
   */
  endTrapped(traps: TrapWatch, declared: readonly Declaration[], rules: OfferRules): Offered {
    const live = new Set(this.leases.live(Date.now()));
    const found = this.seen.queuedIn(traps.rangesOf(declared), QUEUED_SCAN).filter((e) => !live.has(e.url));
    const queued = [...new Map(found.map((e) => [e.url, e])).values()];
    const screened = screen(traps, queued);
    const byReason = new Map<string, string[]>();
    for (const { url, reason } of screened.trapped) byReason.set(reason, [...(byReason.get(reason) ?? []), url]);
    let ended = 0;
    for (const [reason, urls] of byReason) ended += this.end('skipped', { reason, code: 'trap' }, urls);
    this.ledger.bump('trapped', ended);
    const now = Date.now();
    for (const host of new Set(screened.trapped.map((t) => hostKey(t.url))))
      this.plan.rewind(host, now, this.spacing());
    const waiting = new Set(queued.map((e) => e.url));
    const folded = screened.pass.filter((e) => !waiting.has(e.url));
    return {
      accepted: folded.length > 0 ? this.offer(rules, folded).accepted : [],
      trapped: screened.trapped.map(({ url, reason }) => ({ url, reason })),
    };
  }

  /** The entries within their hosts' maxPagesPerHost (URLs the seen-set already has take no place), and the new ones. */
  private withinHostBudget(
    max: number | null,
    entries: FrontierEntry[],
  ): { entries: FrontierEntry[]; fresh: string[] } {
    if (max === null || entries.length === 0) return { entries, fresh: [] };
    const known = this.seen.find(entries.map((e) => e.url));
    const unique = [...new Map(entries.map((e) => [e.url, e])).values()];
    const within = this.budget.within(unique, max, (url) => !known.has(url));
    this.ledger.bump('overHostBudget', unique.length - within.length);
    return {
      entries: within,
      fresh: within.filter((e) => !known.has(e.url) && e.kind !== 'sitemap').map((e) => e.url),
    };
  }

  /**
   * Entries sent again (the sweeper's lost work): each due when its host's plan has room for it, as a new URL is, with
   * that time as its `dueAt` when it is later than now.
   */
  replan(entries: readonly FrontierEntry[], now: number): FrontierEntry[] {
    const dues = this.dues(entries, now);
    return entries.map((e, i) => {
      const due = dues[i] ?? now;
      return due > now ? { ...e, dueAt: due } : e;
    });
  }

  /** When each entry's message is due: its host's plan, grouped as the crawl's breadth calls for. */
  private dues(entries: readonly FrontierEntry[], now: number): number[] {
    const spacing = this.spacing();
    const hosts = entries.map((e) => hostKey(e.url));
    if (spacing > 0) this.noteNewHosts(entries, hosts);
    return this.plan.grouped(this.plan.plan(hosts, now, spacing), now, spacing, windowCap(this.settings.hostMaxWaitMs));
  }

  /** Notes the origins of entries whose hosts the plan does not know yet (before they are planned). */
  private noteNewHosts(entries: readonly FrontierEntry[], hosts: readonly string[]): void {
    hosts.forEach((host, i) => {
      if (this.plan.knows(host)) return;
      const origin = new URL(entries[i]?.url ?? '').origin;
      const origins = this.newHosts.get(host) ?? [];
      if (!origins.includes(origin)) origins.push(origin);
      this.newHosts.set(host, origins);
    });
  }

  /** The hosts (with their origins) first planned since the last call: their gates fetch robots.txt ahead. */
  takeNewHosts(): Map<string, string[]> {
    const hosts = this.newHosts;
    this.newHosts = new Map();
    return hosts;
  }

  /**
   * Puts failed URLs (those of `urls`, or any) back in the frontier, attempts starting over: at most `limit`. Returns
   * them, and how many failed ones remain.
   */
  reopen(limit: number, urls?: readonly string[]): { entries: FrontierEntry[]; remaining: number } {
    const entries = this.seen.reopenFailed(limit, urls, Date.now());
    this.ledger.bump('failed', -entries.length);
    this.ledger.bump('pending', entries.length);
    return { entries, remaining: this.seen.countFailed() };
  }

  /** Ends URLs (still queued) in a final state, why (none for stored and duplicates), with their counts. */
  end(kind: FinalKind, why: Why, urls: readonly string[]): number {
    const ended = this.seen.finish(kind, why.reason, why.code, urls);
    this.ledger.bump(kind === 'duplicate' ? 'duplicates' : kind, ended);
    this.ledger.bump('pending', -ended);
    return ended;
  }

  /** Forgets what memory holds of the seen-set (the crawl's storage was deleted). */
  forget(): void {
    this.budget.forget();
  }

  /** Marks URLs failed for good (their messages were dead-lettered); returns those changed, with their attempts. */
  abandon(entries: readonly { url: string; reason: string; code: OutcomeCode }[]): { url: string; attempts: number }[] {
    const rows = this.seen.find(entries.map((e) => e.url));
    const changed: { url: string; attempts: number }[] = [];
    for (const { url, reason, code } of entries) {
      const row = rows.get(url);
      if (!row || row.state !== UrlState.Queued) continue;
      rows.delete(url);
      this.end('failed', { reason, code }, [url]);
      changed.push({ url, attempts: Math.max(row.attempts, this.leases.release(url)?.attempts ?? 0) });
    }
    return changed;
  }
}
