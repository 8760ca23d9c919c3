import { accessOf, CredentialsError, secretsOf, withCookies } from '../credentials';
import type { Access } from '../domain/credentials/access';
import { loginActionFailed, loginCookies, loginFailure, redactTyped, shownUrl } from '../domain/credentials/browser';
import type { Cookie } from '../domain/credentials/fields';
import type { Action } from '../domain/render/rules';
import { log } from '../log';
import { POOL_NAME } from '../objects/browser-pool';
import { BusyClock, InvocationBrowser } from '../page/browsers';
import { type LoginRun, loginIn } from '../page/login-form';
import { readSettings } from '../settings';
import type { CrawlConfig } from '../types';

/** What a crawl's login came to: its config with the session's cookies sealed in, or why the login failed. */
export type LoginOutcome =
  | { kind: 'in'; config: CrawlConfig; browserMs: number }
  | {
      kind: 'failed';
      /** The login page: the URL the crawl's error row is recorded for. */
      url: string;
      code: 'login_failed' | 'credentials_unavailable';
      /** Why, in words (never what the login typed). */
      reason: string;
      browserMs: number;
    };

/** A login is given twice a render's time: a page loaded, its actions done, a form sent and its redirects followed. */
const LOGIN_RENDERS = 2;

/**
 * A crawl's form login (docs/credentials.md), done once when it starts, before its config is stored: the login page
 * opened in a browser context of its own, given the crawl's own credentials, its actions done; the cookies the
 * context ends with on the credential hosts become the crawl's (sealed with the rest: what D1 and the crawl's Durable
 * Object keep). A crawl without a login is returned as it is. robots.txt is not asked: the login is the caller's own
 * step on their own site, not a page crawled, and its page is not stored.
 */
export async function logIn(env: Env, config: CrawlConfig, crawlId: string): Promise<LoginOutcome> {
  const stored = config.credentials;
  const url = stored?.login?.url;
  if (!stored || url === undefined) return { kind: 'in', config, browserMs: 0 };
  let access: Access | null;
  let actions: Action[] | null;
  try {
    access = await accessOf(env, stored);
    actions = (await secretsOf(env, stored)).login;
  } catch (error) {
    if (!(error instanceof CredentialsError)) throw error;
    return { kind: 'failed', url, code: 'credentials_unavailable', reason: error.message, browserMs: 0 };
  }
  if (access === null || actions === null)
    return {
      kind: 'failed',
      url,
      code: 'login_failed',
      reason: 'login failed: its actions were not kept',
      browserMs: 0,
    };
  const clock = new BusyClock();
  const run = await runLogin(env, { url, actions, access }, clock);
  const decided = decide(run, actions, access);
  if ('reason' in decided) {
    const reason = redactTyped(decided.reason, typedTexts(actions));
    log('warn', 'crawl login failed', { crawlId, login: shownUrl(url), reason });
    return { kind: 'failed', url, code: 'login_failed', reason, browserMs: clock.ms };
  }
  const credentials = await withCookies(env, stored, decided.cookies);
  log('info', 'crawl logged in', { crawlId, login: shownUrl(url), cookies: decided.cookies.map((c) => c.name) });
  return { kind: 'in', config: { ...config, credentials }, browserMs: clock.ms };
}

/** The login done in a tab of a context of its own, in a browser of the account's pool (as a scrape takes one). */
async function runLogin(
  env: Env,
  login: { url: string; actions: Action[]; access: Access },
  clock: BusyClock,
): Promise<LoginRun> {
  const settings = readSettings(env);
  const browser = new InvocationBrowser(env.BROWSER, env.BROWSERS.getByName(POOL_NAME), settings);
  const request = {
    ...login,
    timeoutMs: LOGIN_RENDERS * settings.renderTimeoutMs,
    userAgent: settings.userAgent,
    allowPrivate: settings.allowPrivateNetworks,
  };
  try {
    return await browser.withTab(
      async (page) => {
        clock.enter();
        try {
          return await loginIn(page, request);
        } finally {
          clock.exit();
        }
      },
      { isolated: true },
    );
  } catch (error) {
    // No browser to be had (the account's limit), or it failed under the login: the crawl says so.
    const message = (error instanceof Error ? error.message : String(error)).slice(0, 200);
    return { kind: 'failed', reason: message.startsWith('browser:') ? message : `browser: ${message}` };
  } finally {
    // A browser that could not be handed back (the pool forgets its hold in time) is no reason to fail the login.
    await browser.close().catch((error: unknown) => log('warn', 'browser not handed back', { error: String(error) }));
  }
}

/** The cookies the login got the crawl, or why it failed (domain/credentials/browser.ts's rules). */
function decide(run: LoginRun, actions: readonly Action[], access: Access): { cookies: Cookie[] } | { reason: string } {
  if (run.kind === 'failed') return { reason: `login failed: ${run.reason}` };
  if (run.kind === 'actionFailed') {
    const { index, action, why } = run.failure;
    return { reason: loginActionFailed(index, actions.length, action, why) };
  }
  const cookies = loginCookies(run.cookies, access.hosts, access.cookies);
  const page = { url: run.url, passwordShown: run.passwordShown, actions: actions.length };
  const reason = loginFailure(page, access.hosts, cookies);
  return reason === null ? { cookies } : { reason };
}

/** What the login's actions type: searched for in its reasons, which never show them. */
const typedTexts = (actions: readonly Action[]): string[] =>
  actions.flatMap((action) => ('text' in action ? [action.text] : []));
