import { DurableObject } from 'cloudflare:workers';
import type { DedupeCandidate, Verdict } from '../domain/crawl/duplicates';
import type { OutcomeCode } from '../domain/crawl/outcome-codes';
import type { Reach } from '../domain/crawl/reach';
import { WAKE_QUIET_MS } from '../domain/crawl/sweep';
import type { FrontierEntry, Outcome } from '../domain/crawl/url-life';
import { emptyUsage, estimateCost, type Usage, UsageMeter } from '../domain/crawl/usage';
import { spacingFor } from '../domain/politeness/spread';
import { DEFAULT_MAX_RENDERS } from '../domain/render/rules';
import { repeatsTemplate } from '../domain/traps/compare';
import type { TrapRule } from '../domain/traps/rules';
import { log } from '../log';
import { readSettings, type Settings } from '../settings';
import type { CrawlConfig, CrawlSnapshot, CrawlStatus, CrawlSummary } from '../types';
import { alarmBy } from './alarm';
import { withChanges } from './crawl/changes';
import { CookieJarStore, type StoredJar } from './crawl/cookie-jar';
import { Duplicates } from './crawl/duplicates';
import { HostHolds } from './crawl/host-holds';
import { Ledger } from './crawl/ledger';
import { CrawlMeta } from './crawl/meta';
import { ModelWork, type TemplateSample, type TemplateState } from './crawl/model-work';
import { measureReach } from './crawl/reach';
import { SCHEMA, SeenSet } from './crawl/seen-set';
import { StatusMirror } from './crawl/status-mirror';
import { Sweeper } from './crawl/sweeper';
import { TrapWatch } from './crawl/traps';
import {
  type ClaimAnswer,
  type CompleteAnswer,
  NO_LIMITS,
  type OfferRules,
  type RetryAnswer,
  seedEntry,
  Work,
} from './crawl/work';
import { prefetchRobots } from './host-gate-client';
import { migrateSchema } from './sqlite-schema';

/** The model step silent this long with pages waiting: they were lost, and the crawl stops waiting for them. */
const MODEL_STALL_MS = 30 * 60_000;

/** How a counted call saves the ledger after its work: as Ledger.save decides ('due'), every usage now, or not at all. */
type SaveMode = 'due' | 'flush' | 'skip';

/** What a counted call does after its work (see CrawlCoordinator.rpc). */
interface Bookkeeping<T> {
  /** The work can settle the crawl's last pending URL: whether the crawl is done is checked (before the save). */
  finishes: boolean;
  /** How the ledger is saved ('due' unless given), or by the work's result. */
  save?: SaveMode | ((result: T) => SaveMode);
}

/**
 * One per crawl (addressed by crawl id): a thin RPC front over the crawl's parts, which hold its SQL: the seen-set
 * (SeenSet), the counts and usage (Ledger), the status and its mirror in D1 (StatusMirror), the claims and outcomes
 * of its URLs (Work, by domain/crawl/url-life.ts). Its storage exists only once the crawl has started: a call for an
 * unknown (or purged) crawl answers "no such crawl" and writes nothing. An instance that finds a running crawl has
 * woken up after a restart: it holds no leases, and sweeps soon (see domain/crawl/sweep.ts).
 */
export class CrawlCoordinator extends DurableObject<Env> {
  private readonly settings: Settings;
  private readonly ledger: Ledger;
  private readonly meta: CrawlMeta;
  private readonly mirror: StatusMirror;
  private readonly work: Work;
  private readonly sweeper: Sweeper;
  private readonly duplicates: Duplicates;
  /** The crawl's trap rules (undefined: not made yet; see traps()). */
  private trapWatch: TrapWatch | null | undefined;
  /** The ended crawl's reach, and the status and counts it was measured at. */
  private reach: { key: string; reach: Reach } | null = null;
  private readonly holds: HostHolds;
  private readonly model: ModelWork;
  private readonly jar: CookieJarStore;
  /** The crawl's parts, for tests (runInDurableObject); an instance's own fields are not exposed over RPC. */
  readonly parts: { ledger: Ledger; seen: SeenSet; work: Work; duplicates: Duplicates };
  private readonly seen: SeenSet;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.settings = readSettings(env);
    this.ledger = new Ledger(ctx.storage.sql);
    this.meta = new CrawlMeta(this.ledger);
    this.mirror = new StatusMirror(this.ledger);
    const seen = new SeenSet(this.ledger);
    this.seen = seen;
    // A crawl's URLs of one host are planned its spacing apart: the host's interval or the crawl's, the larger.
    const spacing = () => spacingFor(Math.max(this.settings.hostMinIntervalMs, this.meta.config?.hostIntervalMs ?? 0));
    this.work = new Work(seen, this.ledger, this.settings, spacing);
    this.holds = new HostHolds(seen, this.work.leases);
    this.sweeper = new Sweeper(seen, this.work, this.ledger, this.holds);
    this.duplicates = new Duplicates(seen, this.ledger);
    this.model = new ModelWork(this.ledger);
    this.jar = new CookieJarStore(this.ledger);
    this.parts = { ledger: this.ledger, seen, work: this.work, duplicates: this.duplicates };
    if (!this.meta.tablesExist()) return;
    this.load();
    const woke = this.sweeper.woke + WAKE_QUIET_MS;
    if (this.mirror.status === 'running') ctx.blockConcurrencyWhile(() => alarmBy(ctx.storage, woke));
  }

  private load(): void {
    migrateSchema(this.ctx.storage.sql, SCHEMA);
    this.ledger.load();
    this.mirror.load();
  }

  /**
   * The bookkeeping of a call served for the crawl's work, done once here so no call can forget a part of it: the
   * request is counted (Ledger.request), the work runs (awaited when it is async), then, when the work can settle the
   * crawl's last pending URL, whether the crawl is done (finishIfDone), and last the ledger is saved. A call's guards
   * (no such crawl, not running) come before: a call they answer is not counted. What a call does after the save
   * (an alarm set, D1 rows written) follows the wrapper's return.
   */
  private rpc<T>(work: () => Promise<T>, after: Bookkeeping<T>): Promise<T>;
  private rpc<T>(work: () => T, after: Bookkeeping<T>): T;
  private rpc<T>(work: () => T | Promise<T>, after: Bookkeeping<T>): T | Promise<T> {
    this.ledger.request();
    // What the call ends and offers is one row of the seen-set's log, written before the call answers (or throws).
    this.seen.hold();
    let result: T | Promise<T>;
    try {
      result = work();
    } catch (error) {
      this.seen.write();
      throw error;
    }
    if (!(result instanceof Promise)) return this.settle(result, after);
    return result.then(
      (done) => this.settle(done, after),
      (error: unknown) => {
        this.seen.write();
        throw error;
      },
    );
  }

  /** The end of rpc's bookkeeping: the seen-set's row written, finishIfDone when the work can finish the crawl, the save. */
  private settle<T>(result: T, { finishes, save = 'due' }: Bookkeeping<T>): T {
    this.seen.write();
    if (finishes) this.finishIfDone();
    const mode = typeof save === 'function' ? save(result) : save;
    if (mode !== 'skip') this.ledger.save(mode === 'flush');
    return result;
  }

  /**
   * Starts the crawl with its seeds (idempotent). Returns the entries to enqueue. `failed`: a crawl that cannot go on
   * (its login failed: jobs/start.ts) is started with that URL alone, failed for that reason, so it is done at once
   * and its counts agree with its error row.
   */
  async start(
    crawlId: string,
    config: CrawlConfig,
    { failed }: { failed?: { url: string; reason: string; code: OutcomeCode } } = {},
  ): Promise<FrontierEntry[]> {
    if (!this.meta.tablesExist()) this.load();
    if (this.meta.id !== null) return [];
    this.meta.init(crawlId, config);
    this.mirror.set('running');
    // When no seed is accepted, the crawl is done at once.
    const accepted = this.rpc(
      () => {
        if (!failed)
          return this.work.offer({ ...this.offerRules(), traps: null }, config.seeds.map(seedEntry)).accepted;
        this.work.offer(NO_LIMITS, [seedEntry(failed.url)]);
        this.work.end('failed', { reason: failed.reason, code: failed.code }, [failed.url]);
        return [];
      },
      { finishes: true },
    );
    await this.ctx.storage.setAlarm(Date.now() + this.settings.sweepIntervalMs);
    this.fetchRobotsAhead();
    return accepted;
  }

  /**
   * The gates of hosts the crawl just planned its first URLs of fetch their robots.txt now, in the background (see
   * HostGate.prefetchRobots): a Durable Object request per new host, counted in the crawl's usage.
   */
  private fetchRobotsAhead(): void {
    const hosts = this.work.takeNewHosts();
    if (hosts.size === 0) return;
    const interval = Math.max(this.settings.hostMinIntervalMs, this.meta.config?.hostIntervalMs ?? 0);
    const meter = new UsageMeter();
    meter.count('durableObjectRequests', hosts.size);
    this.ledger.add(meter.usage);
    this.ctx.waitUntil(prefetchRobots(this.env.HOSTS, hosts, interval));
  }

  /** Leases URLs to the messages that carry them (see Work.claim); one call for a whole queue batch. */
  claim(urls: string[], holders?: (string | null)[]): ClaimAnswer {
    const [status, config, now] = [this.mirror.status, this.meta.config, Date.now()];
    if (status !== 'running' || config === null)
      return { status, config, claims: urls.map(() => null), leaseUntil: now };
    this.sweeper.active(now);
    // Leases settle no URL: nothing pending changes.
    const claimed = this.rpc(() => this.work.claim(urls, holders, now, this.traps()), { finishes: false });
    return { status, config, ...claimed };
  }

  /**
   * Which of a chunk's stored pages are duplicates (see Duplicates.decide): one call per chunk, before the chunk is
   * recorded, so a duplicate's content is never written. Null for no such crawl.
   */
  async dedupe(candidates: DedupeCandidate[]): Promise<Verdict[] | null> {
    const id = this.meta.id;
    if (id === null) return null;
    // Verdicts settle no URL (the chunk's outcomes are reported by complete()), but the trap rules learn from the
    // pages, and URLs queued behind a trap they declare end now: the crawl may be done.
    const { verdicts, swept } = this.rpc(
      () => {
        const verdicts = this.duplicates.decide(candidates);
        const traps = this.traps();
        const declared =
          traps?.observe(
            candidates.map((c, i) => ({
              url: c.url,
              sketch: c.template ?? null,
              duplicate: verdicts[i]?.duplicate ?? false,
            })),
          ) ?? [];
        const running = this.mirror.status === 'running';
        const swept =
          traps && running && declared.length > 0 ? this.work.endTrapped(traps, declared, this.offerRules()) : null;
        return { verdicts, swept };
      },
      { finishes: true },
    );
    const config = this.meta.config;
    if (swept && config) {
      await this.sweeper.recordTrapped(this.env, id, swept.trapped);
      await this.sweeper.send(this.env, id, config, swept.accepted);
    }
    return verdicts;
  }

  /**
   * Records claimed URLs' outcomes and offers the links they found; returns the links accepted, to be enqueued.
   * `modelQueued`: stored pages of the chunk sent to the model step, which the crawl waits for before it completes.
   */
  async complete(outcomes: Outcome[], modelQueued = 0): Promise<CompleteAnswer> {
    const id = this.meta.id;
    if (id === null) return { accepted: [], failed: [], stored: [], duplicates: [], status: 'cancelled' };
    const now = Date.now();
    this.sweeper.active(now);
    const { done, accepted, trapped } = this.rpc(
      () => {
        const running = this.mirror.status === 'running';
        this.model.queued(modelQueued);
        const done = this.work.complete(outcomes, running, now);
        this.duplicates.settled(outcomes.map((o) => o.url));
        const givenBack = running ? this.duplicates.giveBack(outcomes, now) : [];
        const links = running ? this.work.offer(this.offerRules(), done.links) : { accepted: [], trapped: [] };
        return { done, accepted: running ? [...givenBack, ...links.accepted] : [], trapped: links.trapped };
      },
      { finishes: true },
    );
    this.fetchRobotsAhead();
    await this.sweeper.recordCancelled(this.env, id, done.cancelled);
    await this.sweeper.recordTrapped(this.env, id, trapped);
    const { failed, stored, duplicates } = done;
    return { accepted, failed, stored, duplicates, status: this.mirror.status };
  }

  /** Pages sent to the model step outside a chunk (a re-extraction's): the crawl waits for them as for a chunk's. */
  modelQueued(n: number): void {
    if (this.meta.id === null) return;
    this.rpc(() => this.model.queued(n), { finishes: false });
  }

  /** Pages the model step finished (answered, or given up on): the crawl may now be done. */
  modelDone(n: number): void {
    if (this.meta.id === null) return;
    this.rpc(() => this.model.done(n), { finishes: true });
  }

  /** Up to `n` pages of the crawl's model budget (maxModelPages): how many the model may read. */
  takeModelPages(n: number): number {
    const config = this.meta.config;
    if (config === null) return 0;
    return this.rpc(() => this.model.take(n, config.maxModelPages ?? null), { finishes: false });
  }

  /** Learned selectors (extract.json.learnSelectors): each template's state. */
  templates(keys: string[]): Record<string, TemplateState> {
    if (this.meta.id === null) return {};
    return this.rpc(() => this.model.templates(keys), { finishes: false, save: 'skip' });
  }

  /** A page the model read, as a sample of its template: the samples to learn from when it makes enough. */
  addSample(key: string, sample: TemplateSample): TemplateSample[] | null {
    if (this.meta.id === null) return null;
    return this.rpc(() => this.model.addSample(key, sample), { finishes: false });
  }

  /** What learning a template's selectors came to. */
  learned(key: string, result: { fields: string } | { why: string }): void {
    if (this.meta.id === null) return;
    this.rpc(() => this.model.learned(key, result), { finishes: false });
  }

  /** Marks URLs failed for good (dead-lettered); returns those changed, with their attempts. */
  abandon(entries: { url: string; reason: string; code: OutcomeCode }[]): { url: string; attempts: number }[] {
    if (this.meta.id === null) return [];
    return this.rpc(() => this.work.abandon(entries), { finishes: true });
  }

  /** Whether the crawl still runs: what a consumer asks before it starts a fetch (reads only, not counted). */
  status(): CrawlStatus | null {
    return this.meta.id === null ? null : this.mirror.status;
  }

  /** Adds what a consumer counted of the crawl's operations (see UsageMeter). */
  recordUsage(usage: Usage): void {
    if (this.meta.id === null) return;
    this.rpc(() => this.ledger.add(usage), {
      finishes: false,
      // A running crawl's alarm writes what waits; an ended one's last reports are written now.
      save: () => (this.mirror.status !== 'running' ? 'flush' : 'due'),
    });
  }

  /**
   * One render of the crawl's budget (config.maxRenders): false once it is spent, or the crawl no longer runs. Counted
   * as usage (written with it: an instance that dies may forget up to 10 s of renders, so the cap can be passed by as
   * many).
   */
  takeRender(): boolean {
    const config = this.meta.config;
    if (config === null || this.mirror.status !== 'running') return false;
    const max = config.maxRenders === undefined ? DEFAULT_MAX_RENDERS : config.maxRenders;
    return this.rpc(
      () => {
        if (max !== null && this.ledger.usage.renders >= max) return false;
        this.ledger.add({ ...emptyUsage(), renders: 1 });
        return true;
      },
      // A refusal changed nothing but the request's count: it waits for the next save.
      { finishes: false, save: (taken) => (taken ? 'due' : 'skip') },
    );
  }

  /**
   * The crawl's cookie jar, sealed, and its version (consumers/cookie-jar.ts): only a crawl with credentials has one.
   * Never shown by any route. Counted as a request; nothing written.
   */
  readJar(): StoredJar | null {
    if (this.meta.id === null) return null;
    return this.rpc(() => this.jar.read(), { finishes: false, save: 'skip' });
  }

  /**
   * Keeps the sealed jar if it is still at `version`; false: another invocation wrote it since (read it again). A crawl
   * that no longer runs keeps nothing (true: nothing more to do).
   */
  writeJar(sealed: string, version: number): boolean {
    if (this.meta.id === null || this.mirror.status !== 'running') return true;
    return this.rpc(() => this.jar.write(sealed, version), { finishes: false });
  }

  /** The traps the crawl's rules declared, and the links refused by maxPagesPerHost (reads only, not counted). */
  trapReport(): { declared: { rule: TrapRule; pattern: string }[]; overHostBudget: number } | null {
    if (this.meta.id === null) return null;
    return { declared: this.traps()?.list() ?? [], overHostBudget: this.ledger.counters.overHostBudget };
  }

  usage(): { fetched: number; usage: Usage } | null {
    return this.meta.id === null ? null : { fetched: this.ledger.counters.fetched, usage: this.ledger.usage };
  }

  /** What the crawl has come to so far, for lists (reads only, not counted); an ended crawl's with its reach. */
  summary(): CrawlSummary | null {
    const snapshot = this.snapshot();
    if (snapshot === null) return null;
    const { usd } = estimateCost(this.ledger.usage, snapshot.counts.fetched);
    const reach = snapshot.status === 'running' ? null : this.endedReach(snapshot);
    return { counts: snapshot.counts, pending: snapshot.pending, usd, ...(reach ? { reach } : {}) };
  }

  /** How far the ended crawl reached: measured once per ending (its counts and status are the key). */
  private endedReach(snapshot: CrawlSnapshot): Reach | null {
    const config = this.meta.config;
    if (config === null) return null;
    const { counts, status } = snapshot;
    const key = `${status} ${counts.discovered} ${counts.failed} ${counts.skipped}`;
    if (this.reach?.key !== key)
      this.reach = { key, reach: measureReach(this.ledger, this.seen, config, counts.discovered, status) };
    return this.reach.reach;
  }

  snapshot(): CrawlSnapshot | null {
    const id = this.meta.id;
    if (id === null) return null;
    const { pending, modeling, modelPages: _m, trapped: _t, overHostBudget: _o, ...rest } = this.ledger.counters;
    const { sitemaps: discovered, sitemapsStored: stored, ...counts } = rest;
    // Pages waiting for the model step are pending too: the crawl has not completed.
    const waiting = pending + modeling;
    const { status, finishedAt } = this.mirror;
    return { id, status, counts, pending: waiting, finishedAt, sitemaps: { discovered, stored } };
  }

  /**
   * Cancels the crawl: nothing more is handed out, its hosts' gates give back the slots they hold for it, and every
   * queued URL not under a live lease ends skipped ('cancelled', with its row in D1's errors), the rest when their
   * attempts end (see Work.complete). A large frontier is ended a step at a time, by the alarm. Not through rpc: the
   * alarm it runs counts the call's request.
   */
  async cancel(): Promise<CrawlSnapshot | null> {
    const id = this.meta.id;
    if (id === null) return null;
    if (this.mirror.status === 'running') {
      this.mirror.set('cancelled');
      this.ledger.save();
      await this.holds.giveBack(this.env, id, true);
      await this.alarm(); // ends the first step of queued URLs and mirrors the status
    }
    return this.snapshot();
  }

  /**
   * Deletes everything the object stored (the crawl's data is being purged); afterwards it knows no such crawl. A
   * crawl purged while it runs (past its retention) gives its hosts' slots back first. Not counted: its ledger goes
   * with the rest.
   */
  async purge(): Promise<void> {
    if (this.meta.id !== null) await this.holds.giveBack(this.env, this.meta.id, true);
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
    this.meta.forget();
    this.work.leases.clear();
    this.duplicates.forget();
    this.seen.forget();
    this.work.forget();
    this.trapWatch = undefined;
    this.ledger.reset();
  }

  /** Puts failed URLs (at most `limit`) back in the frontier and reopens a completed crawl; returns them to enqueue. */
  async retryFailed(limit: number, urls?: readonly string[]): Promise<RetryAnswer | null> {
    if (this.meta.id === null) return null;
    if (this.mirror.status === 'cancelled') return { entries: [], remaining: 0, status: 'cancelled' };
    // Reopened URLs are pending again: none is settled.
    const { entries, remaining } = await this.rpc(
      async () => {
        const reopened = this.work.reopen(limit, urls);
        if (reopened.entries.length > 0) {
          this.sweeper.active(Date.now());
          if (this.mirror.status === 'completed') {
            this.mirror.set('running');
            await this.syncStatus();
          }
          await alarmBy(this.ctx.storage, Date.now() + this.settings.sweepIntervalMs);
        }
        return reopened;
      },
      { finishes: false },
    );
    return { entries, remaining, status: this.mirror.status };
  }

  /** The sweep: the status owed to D1, a cancelled crawl's next step, or lost work re-sent (domain/crawl/sweep.ts). */
  override async alarm(): Promise<void> {
    const { id, config } = this.meta;
    if (id === null || config === null) return;
    // Checked for the crawl's end: the sweep records stored the URLs a consumer stored unreported (Sweeper.resend),
    // which can leave nothing pending. The alarm writes every usage that waits.
    const more = await this.rpc(
      async () => {
        // A cancelled crawl's status is synced after its step (endCancelledStep), with what the step ended.
        if (this.mirror.owed() && this.mirror.status !== 'cancelled') await this.syncStatus();
        const lost = this.model.giveUpIfStalled(Date.now(), MODEL_STALL_MS);
        if (lost > 0)
          log('error', 'model step silent: its pages are no longer waited for', { crawlId: id, pages: lost });
        if (this.mirror.status === 'cancelled') return this.endCancelledStep(id);
        if (this.mirror.status !== 'running') return false;
        const more = await this.sweeper.resend(this.env, id, {
          config,
          rules: this.offerRules(),
          stallAfterMs: this.settings.stallAfterMs,
        });
        this.fetchRobotsAhead();
        return more;
      },
      { finishes: true, save: 'flush' },
    );
    if (this.mirror.status === 'completed' || this.ledger.counters.pending + this.model.waiting === 0) return;
    await alarmBy(this.ctx.storage, this.sweeper.nextAt(Date.now(), more, this.settings.sweepIntervalMs));
  }

  /**
   * A cancelled crawl's next step (Sweeper.endCancelled), then D1 told what it came to while that is owed (until
   * nothing is pending: StatusMirror.sync). True when more queued URLs remain.
   */
  private async endCancelledStep(id: string): Promise<boolean> {
    const more = await this.sweeper.endCancelled(this.env, id);
    if (this.mirror.owed()) await this.syncStatus();
    return more;
  }

  /**
   * Nothing pending: the crawl has completed, and gives back what its hosts' gates may still hold for it. A cancelled
   * crawl whose last pending URL just ended tells D1 the counts it settled at.
   */
  private finishIfDone(): void {
    const id = this.meta.id;
    const waiting = this.ledger.counters.pending + this.model.waiting;
    if (id === null || waiting > 0) return;
    if (this.mirror.status === 'running') {
      this.mirror.set('completed');
      this.ctx.waitUntil(this.syncStatus());
      this.ctx.waitUntil(this.holds.giveBack(this.env, id, false));
    } else if (this.mirror.status === 'cancelled' && this.mirror.owed()) this.ctx.waitUntil(this.syncStatus());
  }

  /** The crawl's trap rules that learn as it goes (objects/crawl/traps.ts); null before it has a config. */
  private traps(): TrapWatch | null {
    if (this.trapWatch !== undefined) return this.trapWatch;
    const config = this.meta.config;
    this.trapWatch =
      config === null
        ? null
        : new TrapWatch(this.ledger, config.traps, repeatsTemplate, (row) => this.seen.eachStored(row));
    return this.trapWatch;
  }

  /** What URLs found by the crawl are offered under: its caps and its trap rules. */
  private offerRules(): OfferRules {
    const config = this.meta.config;
    return {
      maxPages: config?.maxPages ?? null,
      maxPagesPerHost: config?.maxPagesPerHost ?? null,
      traps: this.traps(),
    };
  }

  private async syncStatus(): Promise<void> {
    const { id, config } = this.meta;
    const summary = this.summary();
    if (id === null || config === null || summary === null) return;
    const ok = await this.mirror.sync(this.env, id, config, await withChanges(this.env.DB, id, config, summary));
    this.ledger.save();
    if (!ok) await alarmBy(this.ctx.storage, Date.now() + 5_000);
  }
}
