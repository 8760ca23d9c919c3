import type { Page } from '@cloudflare/puppeteer';
import { z } from 'zod';
import type { Access } from '../domain/credentials/access';
import type { BrowserCookie } from '../domain/credentials/browser';
import type { Action } from '../domain/render/rules';
import type { PrivateAllowance } from '../domain/url/address';
import { sleep } from '../lib/sleep';
import { type ActionFailure, bounded, guard, messageOf, runActions, settle } from './render';

/** A crawl's form login, as the browser does it (jobs/login.ts decides what it came to). */
export interface LoginRequest {
  /** The login page. */
  url: string;
  /** What is done on it, in order (typed text included: never logged, never in a reason). */
  actions: readonly Action[];
  /** The most the whole login may take. */
  timeoutMs: number;
  userAgent: string;
  allowPrivate: PrivateAllowance;
  /** The crawl's own credentials, which the login page is given as any page of the crawl. */
  access: Access;
}

export type LoginRun =
  /** The actions were done and the page settled: where it ended, and the cookies its context holds. */
  | { kind: 'done'; url: string; passwordShown: boolean; cookies: BrowserCookie[] }
  /** The login page could not be loaded, or did not settle. */
  | { kind: 'failed'; reason: string }
  | { kind: 'actionFailed'; failure: ActionFailure };

/** Quiet this long once the actions are done: the form was sent, and its redirects followed. */
const AFTER_IDLE_MS = 500;
/**
 * The most the wait for quiet takes (a page whose network is never quiet, polling or analytics, is read as it is
 * then, once loaded), and the time kept to read the page and the cookies before the login's deadline.
 */
const MAX_AFTER_MS = 10_000;
const READ_RESERVE_MS = 2_000;
const POLL_MS = 200;

/** Whether the document has loaded, and whether a password field is shown on it (evaluated in the page). */
const PAGE_STATE = `(() => ({
  ready: document.readyState,
  password: [...document.querySelectorAll('input[type="password"]')].some(
    (e) => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden',
  ),
}))()`;

const pageStateSchema = z.object({ ready: z.string(), password: z.boolean() });

/**
 * Logs in in `page` (a tab of a browser context of its own): the login page loaded and settled, its actions done,
 * then, once the form is sent and the network quiet, where the page ended and the context's cookies. Unlike a
 * render's, the page may navigate (a form's submission, its redirects; never to a private address), and its requests
 * to the credential hosts carry the crawl's credentials. Throws only when the browser itself fails.
 */
export async function loginIn(page: Page, request: LoginRequest): Promise<LoginRun> {
  const deadline = Date.now() + request.timeoutMs;
  await guard(page, { ...request, screenshot: null }, true);
  try {
    await bounded(
      page.goto(request.url, { waitUntil: 'load', timeout: request.timeoutMs }),
      deadline,
      'the login page did not load',
    );
    await settle(page, null, deadline, []);
    const failure = await runActions(page, request.actions, deadline);
    if (failure !== null) return { kind: 'actionFailed', failure };
    const state = await afterActions(page, deadline);
    const cookies = await contextCookies(page, deadline);
    return { kind: 'done', url: page.url(), passwordShown: state.password, cookies };
  } catch (error) {
    if (!page.browser().isConnected()) throw error;
    return { kind: 'failed', reason: messageOf(error) };
  }
}

/** Waits until the network is quiet and the document loaded (a form sent navigates: its page is read once loaded). */
async function afterActions(page: Page, deadline: number): Promise<z.output<typeof pageStateSchema>> {
  const quietBy = Math.min(deadline - READ_RESERVE_MS, Date.now() + MAX_AFTER_MS);
  for (;;) {
    const timeout = Math.max(1, quietBy - Date.now());
    await page.waitForNetworkIdle({ idleTime: AFTER_IDLE_MS, timeout }).catch(() => undefined);
    // A navigation may replace the document while it is read: then it is read again, once the next one has loaded.
    const read = await bounded(page.evaluate(PAGE_STATE), deadline, 'the page did not settle after the actions').catch(
      (error: unknown) => {
        if (Date.now() >= deadline) throw error;
        return null;
      },
    );
    const state = pageStateSchema.safeParse(read);
    if (state.success && state.data.ready === 'complete') return state.data;
    if (Date.now() >= deadline - READ_RESERVE_MS / 2)
      throw new Error('the page did not load after the actions (timed out)');
    await sleep(POLL_MS);
  }
}

/** The cookies of the page's browser context (Network.getAllCookies answers for the context of the page's target). */
async function contextCookies(page: Page, deadline: number): Promise<BrowserCookie[]> {
  const cdp = await page.createCDPSession();
  const { cookies } = await bounded(
    cdp.send('Network.getAllCookies'),
    deadline,
    'the browser did not give its cookies',
  );
  return cookies.map(({ name, value, domain, path, secure }) => ({ name, value, domain, path, secure }));
}
