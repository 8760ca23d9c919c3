import type { HTTPRequest, Page } from '@cloudflare/puppeteer';
import type { Access } from '../domain/credentials/access';
import { browserHeaders, pageCookies } from '../domain/credentials/browser';
import {
  type Action,
  actionFailed,
  MAX_WAIT_FOR_MS,
  requestVerdict,
  type Screenshot,
  type WaitFor,
} from '../domain/render/rules';
import type { PrivateAllowance } from '../domain/url/address';
import { sleep } from '../lib/sleep';

export interface RenderRequest {
  url: string;
  waitFor: WaitFor | null;
  screenshot: Screenshot | null;
  actions: Action[];
  /** The most the whole render may take. */
  timeoutMs: number;
  /** The crawler's User-Agent, appended to the browser's. */
  userAgent: string;
  allowPrivate: PrivateAllowance;
  /**
   * The crawl's credentials: the page is given its host's cookies, and its requests to the credential hosts the
   * crawl's headers (the tab must be of a context of its own: InvocationBrowser.withTab's `isolated`). Null: none.
   */
  access: Access | null;
}

/** What guard() reads of a request: the page, and how its requests are let out. */
type PageRules = Pick<RenderRequest, 'url' | 'screenshot' | 'userAgent' | 'allowPrivate' | 'access'>;

/** An action that could not be done: which, and why. */
export interface ActionFailure {
  index: number;
  action: Action;
  why: string;
}

export type Rendered =
  | {
      kind: 'rendered';
      /** The document's HTTP status as the browser saw it (null: no response, e.g. served from its cache). */
      status: number | null;
      html: string;
      screenshot: Uint8Array | null;
      /** Requests of the page's the rules refused (private addresses, other hosts, images...). */
      blocked: number;
      warnings: string[];
    }
  /** The page itself could not be rendered (it never loaded, its scripts hang): stored unrendered. */
  | { kind: 'failed'; reason: string }
  /** One of the actions could not be done (no element matches its selector, a wait ran out): the page is not read. */
  | { kind: 'actionFailed'; reason: string };

/** After load, the page is taken once its network has been idle this long and its text stops changing. */
const NETWORK_IDLE_MS = 300;
const SETTLE_POLL_MS = 200;
/** A laptop's window: what a screenshot of the viewport shows, and what responsive pages lay themselves out for. */
const VIEWPORT = { width: 1280, height: 800 };
const EMPTY_WAIT_MS = 3_000;
/** The most the default wait (network idle, text settled) takes, and the time a render keeps to read the page. */
const MAX_SETTLE_MS = 10_000;
const READ_RESERVE_MS = 3_000;

class RenderTimeout extends Error {}

/**
 * Run in the page before its own scripts: what the request rules cannot see. A popup would be a page of its own,
 * outside them (window.open does nothing); a WebSocket's handshake is not intercepted, so one may go only to the
 * page's own host.
 */
const PAGE_GUARD = `(() => {
  window.open = () => null;
  const Socket = window.WebSocket;
  if (!Socket) return;
  window.WebSocket = function (url, protocols) {
    if (new URL(url, location.href).host !== location.host) throw new DOMException('refused by the crawler', 'SecurityError');
    return new Socket(url, protocols);
  };
  window.WebSocket.prototype = Socket.prototype;
})();`;

/** What changes as scripts build a page: its text and its links (evaluated in the page). */
const PAGE_SIZE = '(document.body ? document.body.innerText.length : 0) + document.links.length * 1000';

/**
 * Renders `request.url` in `page` (a fresh tab): every request of the page filtered by domain/render/rules.ts's rules,
 * dialogs dismissed, popups closed, downloads refused; then it waits (for `waitFor`, or for the page to settle), runs
 * the actions, and reads the DOM (and a screenshot). Bounded by `timeoutMs` in all; a page that does not load or whose
 * scripts never yield is a 'failed' render. Throws only when the browser itself fails (the caller's BrowserFault).
 */
export async function renderIn(page: Page, request: RenderRequest): Promise<Rendered> {
  const deadline = Date.now() + request.timeoutMs;
  const warnings: string[] = [];
  const blocked = await guard(page, request);
  try {
    const response = await bounded(
      page.goto(request.url, { waitUntil: 'load', timeout: request.timeoutMs }),
      deadline,
      'the page did not load',
    );
    await settle(page, request.waitFor, deadline, warnings);
    const failed = await runActions(page, request.actions, deadline);
    if (failed !== null)
      return {
        kind: 'actionFailed',
        reason: actionFailed(failed.index, request.actions.length, failed.action, failed.why),
      };
    const html = await bounded(page.content(), deadline, 'the page did not answer');
    const screenshot = request.screenshot
      ? await bounded(shoot(page, request.screenshot), deadline, 'the screenshot did not finish')
      : null;
    // A page that tried to reach private addresses says so (never let through: requestVerdict).
    if (blocked.private > 0) warnings.push(`render: refused ${blocked.private} requests to private network addresses`);
    return { kind: 'rendered', status: response?.status() ?? null, html, screenshot, blocked: blocked.count, warnings };
  } catch (error) {
    if (!page.browser().isConnected()) throw error;
    return { kind: 'failed', reason: `render: ${messageOf(error)}` };
  }
}

/**
 * The page's own requests filtered, dialogs dismissed, popups closed, downloads refused; a page given credentials
 * has them (its host's cookies set, the credential hosts' headers added to its requests). `navigates`: the page may
 * go on to other pages (a login's form, its redirects), any but a private address; else it must stay itself.
 */
export async function guard(
  page: Page,
  request: PageRules,
  navigates = false,
): Promise<{ count: number; private: number }> {
  const blocked = { count: 0, private: 0 };
  const page$ = { url: request.url, screenshot: request.screenshot !== null, allowPrivate: request.allowPrivate };
  await page.setUserAgent(`${await page.browser().userAgent()} ${request.userAgent}`);
  await page.setViewport(VIEWPORT);
  if (request.access) await page.setCookie(...pageCookies(request.url, request.access));
  await page.setRequestInterception(true);
  page.on('request', (req: HTTPRequest) => {
    if (req.isInterceptResolutionHandled()) return;
    const mainFrameNavigation = req.isNavigationRequest() && req.frame() === page.mainFrame();
    const rules = navigates && mainFrameNavigation ? { ...page$, url: req.url() } : page$;
    const verdict = requestVerdict({ url: req.url(), resourceType: req.resourceType(), mainFrameNavigation }, rules);
    if (verdict.allow) return void req.continue(withCredentials(req, request.access)).catch(() => undefined);
    blocked.count++;
    if (verdict.why === 'private network address') blocked.private++;
    // A page leaving itself (a click, a script's location change) is answered 204 No Content, so the browser stays
    // on the page; an aborted navigation would replace it with an error page.
    if (mainFrameNavigation) void req.respond({ status: 204, body: '' }).catch(() => undefined);
    else void req.abort('blockedbyclient').catch(() => undefined);
  });
  await page.evaluateOnNewDocument(PAGE_GUARD);
  page.on('dialog', (dialog) => void dialog.dismiss().catch(() => undefined));
  page.on('popup', (popup) => void popup?.close().catch(() => undefined));
  const cdp = await page.createCDPSession();
  await cdp.send('Page.setDownloadBehavior', { behavior: 'deny' }).catch(() => undefined);
  return blocked;
}

/**
 * A request let out, with the crawl's headers when it goes to a credential host (every hop of a redirect is a request
 * of its own, checked by its own URL); undefined: as the page made it.
 */
function withCredentials(req: HTTPRequest, access: Access | null): { headers: Record<string, string> } | undefined {
  if (access === null) return undefined;
  const extra = browserHeaders(req.url(), access);
  if (Object.keys(extra).length === 0) return undefined;
  const own = Object.entries(req.headers()).filter(([name]) => !(name.toLowerCase() in extra));
  return { headers: { ...Object.fromEntries(own), ...extra } };
}

/** Waits for `waitFor` (bounded), or until the network is idle and the text stops changing. */
export async function settle(page: Page, waitFor: WaitFor | null, deadline: number, warnings: string[]): Promise<void> {
  // The page is read once settled or at `settleBy`, whichever comes first: one whose network never goes quiet (polling,
  // analytics) is read as it is then, with time left to read it.
  const settleBy = Math.min(deadline - READ_RESERVE_MS, Date.now() + MAX_SETTLE_MS);
  const left = () => Math.max(0, settleBy - Date.now());
  // What the caller asked to wait for has the render's whole budget (its timeout was extended by it: waitBudgetMs).
  const asked = () => Math.max(0, deadline - READ_RESERVE_MS - Date.now());
  if (typeof waitFor === 'number') return sleep(Math.min(waitFor, MAX_WAIT_FOR_MS, asked()));
  if (typeof waitFor === 'string') {
    const timeout = Math.min(MAX_WAIT_FOR_MS, asked());
    await page.waitForSelector(waitFor, { timeout }).catch(() => {
      warnings.push(`render: ${JSON.stringify(waitFor)} did not appear within ${timeout} ms`);
    });
    return;
  }
  await page.waitForNetworkIdle({ idleTime: NETWORK_IDLE_MS, timeout: left() }).catch(() => undefined);
  // Then until the text stops changing; a page still empty is given up to EMPTY_WAIT_MS to fill (a timer, not the
  // network, may be what it waits for).
  const emptyUntil = Date.now() + EMPTY_WAIT_MS;
  let last = -1;
  while (left() > SETTLE_POLL_MS) {
    const size = Number(await bounded(page.evaluate(PAGE_SIZE), deadline, 'the page did not answer'));
    if (size === last && (size > 0 || Date.now() >= emptyUntil)) return;
    last = size;
    await sleep(SETTLE_POLL_MS);
  }
}

/** Does the actions in order; the first that cannot be done stops them: which, and why (null: all were done). */
export async function runActions(
  page: Page,
  actions: readonly Action[],
  deadline: number,
): Promise<ActionFailure | null> {
  for (const [index, action] of actions.entries()) {
    // A wait for a selector has what is left of the render, the time to read the page kept back.
    const waitMs = Math.max(0, Math.min(MAX_WAIT_FOR_MS, deadline - READ_RESERVE_MS - Date.now()));
    try {
      await bounded(act(page, action, waitMs), deadline, 'the render ran out of time');
    } catch (error) {
      if (!page.browser().isConnected()) throw error;
      return { index, action, why: whyActionFailed(action, error, waitMs) };
    }
  }
  return null;
}

/** What went wrong, in the caller's terms: the selector matched nothing, or did not appear in time. */
function whyActionFailed(action: Action, error: unknown, waitMs: number): string {
  const message = messageOf(error);
  if (!('selector' in action) || action.selector === undefined) return message;
  const selector = JSON.stringify(action.selector);
  const timedOut = error instanceof Error && error.name === 'TimeoutError';
  if (action.type === 'wait' && timedOut) return `${selector} did not appear within ${waitMs} ms`;
  if (/no (element|node) found/i.test(message)) return `no element matches ${selector}`;
  return message;
}

async function act(page: Page, action: Action, waitMs: number): Promise<void> {
  switch (action.type) {
    case 'wait':
      if (action.selector !== undefined) await page.waitForSelector(action.selector, { timeout: waitMs });
      else await sleep(Math.min(action.milliseconds ?? 0, MAX_WAIT_FOR_MS));
      return;
    case 'click':
      await page.click(action.selector);
      return;
    case 'type':
      await page.type(action.selector, action.text);
      return;
    case 'write':
      await page.keyboard.type(action.text);
      return;
    case 'press':
      await page.keyboard.press(action.key === 'Space' ? ' ' : action.key);
      return;
    case 'scroll':
      await page.evaluate(`window.scrollBy(0, ${(action.direction === 'up' ? -1 : 1) * (action.amount ?? 1000)})`);
      return;
  }
}

async function shoot(page: Page, screenshot: Screenshot): Promise<Uint8Array> {
  const png = await page.screenshot({ type: 'png', fullPage: screenshot.fullPage });
  return new Uint8Array(png);
}

/** `work`, or a RenderTimeout naming `what` once the render's deadline passes. */
export async function bounded<T>(work: Promise<T>, deadline: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new RenderTimeout(`${what} (timed out)`)), Math.max(0, deadline - Date.now()));
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
    work.catch(() => undefined);
  }
}

export const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 200);
