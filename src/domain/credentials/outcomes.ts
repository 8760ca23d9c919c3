import type { OutcomeCode } from '../crawl/outcome-codes';

/**
 * What an answer means for a crawl behind a login (docs/credentials.md): a 401, or a 403 to a request that carried
 * credentials, is the site refusing them (a session that expired, credentials that do not reach the page); a redirect
 * of such a request to the login page is the same, said otherwise. Either is the URL's own outcome, not a page to
 * store: a login page stored a thousand times is the failure this prevents.
 */

/** Paths that are a login page's, when the crawl does not name its own. */
const LOGIN_PATH =
  /(^|\/)(log-?in|sign-?in|signin|logon|auth|authenticate|sso|oauth2?|session\/new|users\/sign_in|account\/login|wp-login\.php)(\/|$|\.)/i;

/** Whether a redirect to `target` goes to the login page: the crawl's own (`loginUrl`, by origin and path), or one by its path. */
export function isLoginPage(target: string, loginUrl: string | null | undefined): boolean {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return false;
  }
  if (loginUrl) {
    const login = new URL(loginUrl);
    if (url.origin === login.origin && url.pathname === login.pathname) return true;
  }
  return LOGIN_PATH.test(url.pathname);
}

export interface AccessDenied {
  code: Extract<OutcomeCode, 'auth_required' | 'login_redirect'>;
  reason: string;
}

/**
 * Whether an answer says the request was not let in: a 401 (to any request), a 403 to one sent with credentials, a
 * redirect of one sent with credentials to the login page. Null: an answer like any other.
 */
export function accessDenied(
  status: number,
  redirectTarget: string | null,
  sent: { credentialed: boolean; loginUrl?: string | null | undefined },
): AccessDenied | null {
  if (status === 401)
    return {
      code: 'auth_required',
      reason: sent.credentialed
        ? 'http 401: the credentials were refused (expired, or not for this page)'
        : 'http 401: the page needs credentials (give the crawl headers, cookies, authenticate or a login)',
    };
  if (!sent.credentialed) return null;
  if (status === 403)
    return { code: 'auth_required', reason: 'http 403: the credentials do not let the crawler in (expired?)' };
  if (redirectTarget !== null && status >= 300 && status < 400 && isLoginPage(redirectTarget, sent.loginUrl))
    return {
      code: 'login_redirect',
      reason: `redirect ${status} to the login page ${redirectTarget.slice(0, 200)}: the session has expired or does not reach this page`,
    };
  return null;
}
