import type { OutcomeCode } from '../../domain/crawl/outcome-codes';
import { nextSweepAt, type SweepPlan, sweepPlan } from '../../domain/crawl/sweep';
import { CANCELLED_CODE, CANCELLED_REASON, type FrontierEntry } from '../../domain/crawl/url-life';
import { UsageMeter } from '../../domain/crawl/usage';
import { compileLinkPolicy, compileUrlCleaner } from '../../domain/url/link-policy';
import { log } from '../../log';
import { enqueueTasks } from '../../queues/frontier';
import { recordErrors } from '../../storage/d1/errors';
import { recordedPages } from '../../storage/d1/stored-page';
import { readLinks } from '../../storage/links';
import type { CrawlConfig } from '../../types';
import type { HostHolds } from './host-holds';
import type { Ledger } from './ledger';
import type { SeenSet } from './seen-set';
import { NO_WHY, type OfferRules, type Trapped, type Work } from './work';

/** URLs re-sent, or ended by a cancel, per step. */
const SWEEP_STEP = 1000;

/**
 * Finds a crawl's lost work (domain/crawl/sweep.ts says when): URLs whose lease expired, and queued URLs whose messages a
 * restart or a stall lost. It keeps the instance's clock of activity: made when the instance was, moved by each
 * claim and completion.
 */
export class Sweeper {
  private readonly wokeAt = Date.now();
  private activeAt = 0;
  private recovering = false;
  /** A restart's recovery has begun: the crawl's reservations were given back (see forgetReservations). */
  private recovered = false;
  private backstopAt = 0;

  constructor(
    private readonly seen: SeenSet,
    private readonly work: Work,
    private readonly ledger: Ledger,
    private readonly holds: HostHolds,
  ) {}

  get woke(): number {
    return this.wokeAt;
  }

  /** A consumer was heard from. */
  active(now: number): void {
    this.activeAt = now;
  }

  /** When the sweep after one at `now` is due (see nextSweepAt). */
  nextAt(now: number, more: boolean, intervalMs: number): number {
    return nextSweepAt({ now, wokeAt: this.wokeAt, activeAt: this.activeAt }, more, intervalMs);
  }

  /** What domain/crawl/sweep.ts says this sweep does. */
  private plan(now: number, stallAfterMs: number): SweepPlan {
    const clock = {
      now,
      wokeAt: this.wokeAt,
      activeAt: this.activeAt,
      pending: this.ledger.counters.pending,
      recovering: this.recovering,
      backstopAt: this.backstopAt,
    };
    return sweepPlan(clock, stallAfterMs);
  }

  /** The URLs to re-send now (marked as sent), why, and whether a restart's recovery has more after them. */
  lost(now: number, stallAfterMs: number): { entries: FrontierEntry[]; why: string; more: boolean } {
    const expiredLeases = this.work.leases.expire(now);
    this.holds.noteLost(expiredLeases);
    const expired = this.seen.queued(expiredLeases);
    // The attempt of a consumer that died counts: a page that kills its consumer cannot come round forever.
    for (const e of expired) this.seen.requeue(e.url, now, 'lease expired', true);
    const plan = this.plan(now, stallAfterMs);
    if (plan.backstop) this.backstopAt = now;
    const due =
      plan.dueBefore === null ? [] : this.seen.due(plan.dueBefore, SWEEP_STEP, new Set(this.work.leases.live(now)));
    this.recovering = plan.recovering && plan.why === 'wake' && due.length === SWEEP_STEP;
    // Sent again at their hosts' pace, as new URLs are (domain/politeness/spread.ts), each due then.
    const entries = this.work.replan([...new Map([...expired, ...due].map((e) => [e.url, e])).values()], now);
    if (entries.length > 0) {
      this.seen.resent(entries, now);
      this.activeAt = now;
    }
    return { entries, why: plan.why ?? 'lease expired', more: this.recovering };
  }

  /**
   * Re-sends the lost URLs (see lost()), less those a consumer stored before it could report them: those are recorded
   * stored now and their links followed, so no stored page is fetched twice. True when a restart's recovery has more.
   */
  async resend(
    env: Env,
    crawlId: string,
    { config, rules, stallAfterMs }: { config: CrawlConfig; rules: OfferRules; stallAfterMs: number },
  ): Promise<boolean> {
    if (!this.recovered && this.plan(Date.now(), stallAfterMs).why === 'wake')
      await this.forgetReservations(env, crawlId);
    const { entries, why, more } = this.lost(Date.now(), stallAfterMs);
    if (entries.length === 0) return more;
    const meter = new UsageMeter();
    const found = await this.storedUnreported(env, crawlId, { config, rules }, entries, meter);
    await this.recordTrapped(env, crawlId, found.trapped);
    const lost = [...entries.filter((e) => !found.stored.has(e.url)), ...found.accepted];
    log('warn', 'sweeper re-sent lost URLs', {
      crawlId,
      count: entries.length - found.stored.size,
      why,
      storedUnreported: found.stored.size,
    });
    await enqueueTasks(env, crawlId, config, lost, undefined, meter);
    this.ledger.add(meter.usage);
    return more;
  }

  /**
   * The first sweep of a restart's recovery (domain/crawl/sweep.ts: wake), when URLs due before the instance woke were not
   * heard of since: the crawl's messages are taken as lost, those delayed to a slot reserved for them too, which
   * nothing would re-send before a stall. Its hosts' gates give back what they hold for it (its reservations, and
   * those its dead consumers made without reporting them: the hosts of the URLs they held, the first to be re-sent),
   * and its queued URLs are due now, their reservations forgotten: they take new places on their hosts' timelines as
   * they come back. Otherwise the re-sent URLs would wait behind the crawl's own slots, which no message presents
   * any more.
   */
  private async forgetReservations(env: Env, crawlId: string): Promise<void> {
    this.recovered = true;
    const now = Date.now();
    const overdue = this.seen.due(this.wokeAt, SWEEP_STEP, new Set(this.work.leases.live(now))).map((e) => e.url);
    // Nothing was due before the instance woke: its messages are delayed, not lost (the crawl of a slow host, whose
    // coordinator was evicted while every URL waited for its slot). They are left as they are.
    if (overdue.length === 0) return;
    this.holds.noteLost(overdue);
    await this.holds.giveBack(env, crawlId, false);
    this.seen.forgetReservations(this.wokeAt);
  }

  /** Of the lost URLs, those D1 has a stored page of: recorded stored, with their links offered (those accepted). */
  private async storedUnreported(
    env: Env,
    crawlId: string,
    { config, rules }: { config: CrawlConfig; rules: OfferRules },
    lost: readonly FrontierEntry[],
    meter: UsageMeter,
  ) {
    const pages = await recordedPages(
      env.DB,
      crawlId,
      lost.map((e) => e.url),
      meter,
    );
    const stored = new Set(this.seen.queued(pages.map((p) => p.url)).map((e) => e.url));
    const [policy, clean] = [compileLinkPolicy(config), compileUrlCleaner(config)];
    const candidates: FrontierEntry[] = [];
    for (const page of pages.filter((p) => stored.has(p.url))) {
      const links = ((await readLinks(env.BODIES, page.linksAt, meter)) ?? []).map(clean);
      const depth = page.depth + 1;
      candidates.push(...links.filter((url) => policy(url, depth)).map((url) => ({ url, depth, hops: 0 })));
    }
    this.work.end('stored', NO_WHY, [...stored]);
    this.ledger.bump('fetched', stored.size);
    return { stored, ...this.work.offer(rules, candidates) };
  }

  /**
   * A cancelled crawl: ends its next SWEEP_STEP queued URLs that no live lease holds (their attempts are not under
   * way) skipped, 'cancelled', their D1 rows written first. True when more remain.
   */
  async endCancelled(env: Env, crawlId: string): Promise<boolean> {
    const now = Date.now();
    this.holds.noteLost(this.work.leases.expire(now));
    const urls = this.seen
      .due(Number.MAX_SAFE_INTEGER, SWEEP_STEP, new Set(this.work.leases.live(now)))
      .map((e) => e.url);
    await this.recordCancelled(env, crawlId, urls);
    this.work.end(
      'skipped',
      { reason: CANCELLED_REASON, code: CANCELLED_CODE },
      this.seen.queued(urls).map((e) => e.url),
    );
    return urls.length === SWEEP_STEP;
  }

  /** Sends URLs this object accepted outside a consumer's call (folded from trapped ones) to the queue, counted. */
  async send(env: Env, crawlId: string, config: CrawlConfig, entries: readonly FrontierEntry[]): Promise<void> {
    if (entries.length === 0) return;
    const meter = new UsageMeter();
    try {
      await enqueueTasks(env, crawlId, config, [...entries], undefined, meter);
    } catch (error) {
      // They are recorded queued: the sweep sends them again.
      log('warn', 'sending folded URLs failed; the sweeper will re-send', { crawlId, error: String(error) });
    }
    this.ledger.add(meter.usage);
  }

  /** D1 errors rows for URLs ended skipped because the crawl was cancelled (a consumer writes the rows of the rest). */
  recordCancelled(env: Env, crawlId: string, urls: readonly string[]): Promise<void> {
    return this.recordSkipped(
      env,
      crawlId,
      urls.map((url) => ({ url, reason: CANCELLED_REASON, code: CANCELLED_CODE })),
    );
  }

  /** D1 errors rows for URLs a trap rule kept out as they were offered (objects/crawl/work.ts). */
  recordTrapped(env: Env, crawlId: string, trapped: readonly Trapped[]): Promise<void> {
    return this.recordSkipped(
      env,
      crawlId,
      trapped.map(({ url, reason }) => ({ url, reason, code: 'trap' as const })),
    );
  }

  /** D1 errors rows for URLs this object ended skipped. */
  private async recordSkipped(
    env: Env,
    crawlId: string,
    ended: readonly { url: string; reason: string; code: OutcomeCode }[],
  ): Promise<void> {
    if (ended.length === 0) return;
    const meter = new UsageMeter();
    const rows = ended.map((e) => ({ ...e, outcome: 'skipped' as const, attempts: 0, httpStatus: null }));
    await recordErrors(env.DB, crawlId, rows, Date.now(), meter);
    this.ledger.add(meter.usage);
  }
}
