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
  code: Extract<OutcomeCode, 'auth_required' | 'credentials_refused' | 'login_redirect'>;
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
  // Without credentials, a 401 is an answer about the page, as any 4xx (a crawl's reach counts it as nothing left
  // unread); with them, the site kept back a page the crawl should have read, whose links are unread (its code says
  // so: domain/crawl/reach.ts).
  if (status === 401 && !sent.credentialed) return { code: 'auth_required', reason: 'http 401' };
  if (!sent.credentialed) return null;
  if (status === 401 || status === 403)
    return {
      code: 'credentials_refused',
      reason: `credentials refused: http ${status} (the session expired, or they do not reach this page)`,
    };
  if (redirectTarget !== null && status >= 300 && status < 400 && isLoginPage(redirectTarget, sent.loginUrl))
    return {
      code: 'login_redirect',
      reason: `login page: redirect ${status} to ${redirectTarget.slice(0, 200)} (the session expired, or does not reach this page)`,
    };
  return null;
}
