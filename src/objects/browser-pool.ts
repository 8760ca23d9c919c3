import { DurableObject } from 'cloudflare:workers';
import puppeteer from '@cloudflare/puppeteer';
import { z } from 'zod';
import {
  emptyPool,
  type Grant,
  grant,
  idleToClose,
  launched,
  type PoolLimits,
  type PoolState,
  released,
  renewed,
  tidy,
} from '../domain/render/pool';
import { readSettings } from '../settings';
import { alarmBy } from './alarm';
import { migrateSchema } from './sqlite-schema';

const stateSchema: z.ZodType<PoolState> = z.object({
  sessions: z.array(
    z.object({ id: z.string(), holder: z.string().nullable(), until: z.number(), idleSince: z.number().optional() }),
  ),
  launches: z.array(z.number()),
});

/** The one pool of the account (every consumer and crawl asks the same object). */
export const POOL_NAME = 'account';

/**
 * The account's browsers (domain/render/pool.ts decides): a consumer invocation that has pages to render asks for a
 * browser, connects to the idle one it is given or launches one when the count allows, and hands it back, still alive,
 * when its batch is done. The state is one row, written when it changes (a few times per consumer invocation that
 * renders, not per page).
 */
export class BrowserPool extends DurableObject<Env> {
  private state: PoolState = emptyPool();
  private readonly limits: PoolLimits;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    const settings = readSettings(env);
    this.limits = {
      maxBrowsers: settings.browserMax,
      launchesPerMinute: settings.browserLaunchesPerMinute,
      keepAliveMs: settings.browserKeepAliveMs,
      holdMs: BROWSER_HOLD_MS,
      idleCloseMs: settings.browserIdleCloseMs,
    };
    const sql = ctx.storage.sql;
    migrateSchema(sql, ['CREATE TABLE pool (k TEXT PRIMARY KEY, v TEXT NOT NULL)']);
    const raw = sql.exec<{ v: string }>("SELECT v FROM pool WHERE k = 'state'").toArray()[0]?.v;
    if (raw !== undefined) this.state = stateSchema.parse(JSON.parse(raw));
  }

  /** A browser for `holder`: connect to an idle one, launch one, or wait. */
  acquire(holder: string): Grant {
    const next = grant(this.state, holder, Date.now(), this.limits, () => crypto.randomUUID());
    this.save(next.state);
    return next.grant;
  }

  /** The launch behind `ticket` gave the browser `sessionId`. */
  launched(ticket: string, sessionId: string): void {
    this.save(launched(this.state, ticket, sessionId, Date.now(), this.limits));
  }

  /** Done with a browser (or a failed launch ticket); `alive`: it can be connected to again, until the alarm closes it. */
  async release(id: string, alive: boolean): Promise<void> {
    const now = Date.now();
    this.save(released(this.state, id, alive, now, this.limits));
    if (alive) await alarmBy(this.ctx.storage, now + this.limits.idleCloseMs);
  }

  /** Closes the browsers nobody took within BROWSER_IDLE_CLOSE_MS: an idle browser is billed until its keep_alive ends. */
  override async alarm(): Promise<void> {
    const { close, state, nextAt } = idleToClose(this.state, Date.now(), this.limits);
    this.save(state);
    if (nextAt !== null) await alarmBy(this.ctx.storage, nextAt);
    await Promise.all(close.map((id) => this.closeBrowser(id)));
  }

  private async closeBrowser(id: string): Promise<void> {
    try {
      const browser = await puppeteer.connect(this.env.BROWSER, id);
      await browser.close();
    } catch {
      // Gone already (its keep_alive ran out): nothing to close.
    }
  }

  /** The holder still works with its browser. */
  renew(id: string, holder: string): void {
    this.save(renewed(this.state, id, holder, Date.now(), this.limits));
  }

  /** The browsers as the pool counts them now: held, idle and launching. */
  census(): { held: number; idle: number; launching: number; max: number } {
    const { sessions } = tidy(this.state, Date.now(), this.limits);
    const launching = sessions.filter((s) => s.id.startsWith('launch:')).length;
    const held = sessions.filter((s) => s.holder !== null).length - launching;
    return { held, idle: sessions.length - held - launching, launching, max: this.limits.maxBrowsers };
  }

  private save(state: PoolState): void {
    const text = JSON.stringify(state);
    if (text === JSON.stringify(this.state)) return;
    this.state = state;
    this.ctx.storage.sql.exec("INSERT OR REPLACE INTO pool (k, v) VALUES ('state', ?)", text);
  }
}

/** A hold lapses after this long unless renewed (a consumer renews while it renders; one that died frees it). */
const BROWSER_HOLD_MS = 60_000;
