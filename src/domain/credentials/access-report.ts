/**
 * What a crawl with credentials says of them once pages were refused (GET /v1/crawls/:id `access`): its login failed,
 * its session expired mid-crawl (pages were read, then refused), or its credentials never let it in.
 */

export interface AccessFailure {
  code: 'auth_required' | 'credentials_refused' | 'login_redirect' | 'login_failed' | 'credentials_unavailable';
  count: number;
  reason: string;
}

export interface AccessReport {
  /** URLs the site refused (401, 403 with credentials) or sent to the login page. */
  refused: number;
  loginFailed: boolean;
  /** Pages were read with the credentials, then refused: the session ended during the crawl. */
  sessionExpired: boolean;
  message: string;
}

/** The report of a crawl's access failures, with `stored` pages read; null when there is nothing to say. */
export function accessReport(failures: readonly AccessFailure[], stored: number): AccessReport | null {
  const count = (code: AccessFailure['code']) => failures.find((f) => f.code === code)?.count ?? 0;
  const login = failures.find((f) => f.code === 'login_failed');
  const locked = failures.find((f) => f.code === 'credentials_unavailable');
  const refused = count('auth_required') + count('credentials_refused') + count('login_redirect');
  if (!login && !locked && refused === 0) return null;
  const sessionExpired = !login && refused > 0 && stored > 0;
  return { refused, loginFailed: Boolean(login), sessionExpired, message: messageOf(login ?? locked, refused, stored) };
}

function messageOf(stop: AccessFailure | undefined, refused: number, stored: number): string {
  if (stop?.code === 'login_failed') return `${stop.reason}: the crawl stopped before its first page`;
  if (stop) return stop.reason;
  const urls = `${refused} URL${refused === 1 ? '' : 's'}`;
  if (stored > 0)
    return `${urls} answered 401/403 or sent the crawler to the login page after ${stored} page${stored === 1 ? ' was' : 's were'} read: the session expired, or the credentials do not reach them (GET /v1/crawls/:id/errors lists them)`;
  return `${urls} answered 401/403 or sent the crawler to the login page, and no page was read: the credentials were refused`;
}
