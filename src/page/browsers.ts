import puppeteer, { type Browser, type BrowserContext, type BrowserWorker, type Page } from '@cloudflare/puppeteer';
import type { Grant } from '../domain/render/pool';
import { type Limit, limiter } from '../lib/limit';
import { sleep } from '../lib/sleep';
import type { Settings } from '../settings';

/** The account's pool of browsers (objects/browser-pool.ts), as a consumer sees it. */
export interface BrowserPoolApi {
  acquire(holder: string): Promise<Grant>;
  launched(ticket: string, sessionId: string): Promise<void>;
  release(id: string, alive: boolean): Promise<void>;
  renew(id: string, holder: string): Promise<void>;
}

/** No browser could be had in time: the account's limit (or its launch rate) is reached. Transient. */
export class BrowserUnavailable extends Error {
  constructor(
    message: string,
    readonly retryInMs: number,
  ) {
    super(message);
  }
}

/** The browser failed under the page (it crashed, disconnected, or could not be launched). Transient. */
class BrowserFault extends Error {}

/** A page that has not closed after this long takes its browser down with it (no tab is leaked). */
const CLOSE_TIMEOUT_MS = 5_000;

/** A tab: its page, and the browser context it was opened in when it has one of its own. */
interface Tab {
  page: Page;
  context: BrowserContext | null;
}

interface Held {
  browser: Browser;
  id: string;
  renewedAt: number;
  broken: boolean;
}

/**
 * A consumer invocation's browser: one, taken from the account's pool on the first page that needs it, with up to
 * RENDER_TABS pages open at once, and handed back still alive when the invocation is done, for the next invocation
 * to reconnect to. A browser that disconnects is handed back as dead and another taken for the next page.
 */
export class InvocationBrowser {
  private held: Promise<Held> | null = null;
  private readonly tabs: Limit;
  readonly holder = crypto.randomUUID();
  /** Pages opened and not yet closed (0 once every render is over: tested). */
  openTabs = 0;

  constructor(
    private readonly binding: BrowserWorker,
    private readonly pool: BrowserPoolApi,
    private readonly settings: Settings,
  ) {
    this.tabs = limiter(settings.renderTabs);
  }

  /**
   * Runs `work` in a new tab of the invocation's browser; the tab is closed whatever happens. `isolated`: in a browser
   * context of its own (cookies, storage and cache of its own, closed with the tab), for a page given credentials: the
   * browser is shared by every crawl of the account, so no crawl's cookie is ever set in its default context.
   */
  withTab<T>(work: (page: Page) => Promise<T>, { isolated = false }: { isolated?: boolean } = {}): Promise<T> {
    return this.tabs(async () => {
      const held = await this.browser();
      const tab = await this.openTab(held, isolated);
      this.openTabs++;
      try {
        return await work(tab.page);
      } finally {
        await this.closeTab(held, tab);
      }
    });
  }

  /** Hands the browser back to the pool: alive (disconnected, for reuse) or dead (closed). */
  async close(): Promise<void> {
    const pending = this.held;
    this.held = null;
    const held = await pending?.catch(() => null);
    if (!held) return;
    const alive = !held.broken && held.browser.isConnected();
    if (alive) await Promise.resolve(held.browser.disconnect()).catch(() => undefined);
    else await held.browser.close().catch(() => undefined);
    await this.pool.release(held.id, alive);
  }

  private async openTab(held: Held, isolated: boolean): Promise<Tab> {
    let context: BrowserContext | null = null;
    try {
      context = isolated ? await held.browser.createBrowserContext() : null;
      return { page: await (context ?? held.browser).newPage(), context };
    } catch (error) {
      await context?.close().catch(() => undefined);
      held.broken = true;
      throw new BrowserFault(`browser: could not open a page (${messageOf(error)})`);
    }
  }

  /** Closes the tab (an isolated one: its whole context, which closes its page and forgets its cookies). */
  private async closeTab(held: Held, tab: Tab): Promise<void> {
    const closing = tab.context ? tab.context.close() : tab.page.close();
    const closed = await Promise.race([
      closing.then(
        () => true,
        () => false,
      ),
      sleep(CLOSE_TIMEOUT_MS).then(() => false),
    ]);
    this.openTabs--;
    if (!closed) held.broken = true;
  }

  /** The held browser, taken (again, if the last one broke) when needed; its hold renewed while it works. */
  private async browser(): Promise<Held> {
    let held = this.held ? await this.held.catch(() => null) : null;
    if (held && (held.broken || !held.browser.isConnected())) {
      await this.close();
      held = null;
    }
    if (!held) {
      this.held = this.acquire();
      held = await this.held.catch((error: unknown) => {
        this.held = null;
        throw error;
      });
    }
    if (Date.now() - held.renewedAt > RENEW_AFTER_MS) {
      held.renewedAt = Date.now();
      await this.pool.renew(held.id, this.holder);
    }
    return held;
  }

  /** Asks the pool until it grants a browser, connecting or launching as told, for at most RENDER_MAX_WAIT_MS. */
  private async acquire(): Promise<Held> {
    const deadline = Date.now() + this.settings.renderMaxWaitMs;
    for (;;) {
      const grant = await this.pool.acquire(this.holder);
      if (grant.kind === 'wait') {
        const left = deadline - Date.now();
        if (left <= 0) throw new BrowserUnavailable(`browser: none free (${grant.why} at the limit)`, grant.retryInMs);
        await sleep(Math.min(grant.retryInMs, left));
        continue;
      }
      const held = grant.kind === 'connect' ? await this.connect(grant.sessionId) : await this.launch(grant.ticket);
      if (held) return held;
    }
  }

  private async connect(sessionId: string): Promise<Held | null> {
    try {
      const browser = await puppeteer.connect(this.binding, sessionId);
      return { browser, id: sessionId, renewedAt: Date.now(), broken: false };
    } catch {
      await this.pool.release(sessionId, false); // gone (its keep_alive ran out): forget it, ask again
      return null;
    }
  }

  private async launch(ticket: string): Promise<Held> {
    let browser: Browser;
    try {
      browser = await puppeteer.launch(this.binding, { keep_alive: this.settings.browserKeepAliveMs });
    } catch (error) {
      await this.pool.release(ticket, false);
      throw new BrowserFault(`browser: launch failed (${messageOf(error)})`);
    }
    const id = browser.sessionId();
    await this.pool.launched(ticket, id);
    return { browser, id, renewedAt: Date.now(), broken: false };
  }
}

/** A hold is renewed once this much of it has passed (objects/browser-pool.ts BROWSER_HOLD_MS is 60 s). */
const RENEW_AFTER_MS = 20_000;

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 200);

/**
 * Browser time one crawl's pages kept a browser busy: the union of the intervals in which at least one of its pages
 * was open (several tabs at once count once), which is what Browser Rendering bills while the browser is held.
 */
export class BusyClock {
  private open = 0;
  private since = 0;
  ms = 0;

  enter(): void {
    if (this.open++ === 0) this.since = Date.now();
  }

  exit(): void {
    if (--this.open === 0) this.ms += Date.now() - this.since;
  }
}
