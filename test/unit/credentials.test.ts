import { describe, expect, it } from 'vitest';
import { leavesLinksUnread } from '../../src/domain/crawl/reach';
import { reasonKind } from '../../src/domain/crawl/reasons';
import {
  type Access,
  cookiesFor,
  credentialHeaders,
  hostAllowed,
  REDACTED,
  redactHeaders,
  splitCredentials,
} from '../../src/domain/credentials/access';
import { accessReport } from '../../src/domain/credentials/access-report';
import { credentialFields, refusedHeader } from '../../src/domain/credentials/fields';
import { accessDenied, isLoginPage } from '../../src/domain/credentials/outcomes';
import { seal, sealingKey, unseal } from '../../src/domain/credentials/seal';

const access = (over: Partial<Access> = {}): Access => ({
  hosts: ['docs.example.com', '*.intranet.example'],
  headers: { 'X-Api-Key': 'k1' },
  cookies: [
    { name: 'session', value: 's1', path: '/', secure: false },
    { name: 'admin', value: 'a1', path: '/admin', secure: false },
    { name: 'wiki', value: 'w1', domain: 'wiki.intranet.example', path: '/', secure: true },
  ],
  authenticate: { username: 'ada', password: 'pä55' },
  ...over,
});

describe('which request gets which credential', () => {
  it('sends them to the credential hosts only: a name, or a domain and its subdomains', () => {
    expect(hostAllowed(['docs.example.com'], 'docs.example.com')).toBe(true);
    expect(hostAllowed(['docs.example.com'], 'DOCS.example.com')).toBe(true);
    expect(hostAllowed(['docs.example.com'], 'example.com')).toBe(false);
    expect(hostAllowed(['docs.example.com'], 'evil-docs.example.com')).toBe(false);
    expect(hostAllowed(['*.intranet.example'], 'intranet.example')).toBe(true);
    expect(hostAllowed(['*.intranet.example'], 'a.b.intranet.example')).toBe(true);
    expect(hostAllowed(['*.intranet.example'], 'intranet.example.evil.com')).toBe(false);
    expect(hostAllowed(['*.intranet.example'], 'notintranet.example')).toBe(false);
  });

  it('builds the headers of a request: its own, basic credentials (UTF-8) and the cookies of its path', () => {
    expect(credentialHeaders('https://docs.example.com/admin/users', access())).toEqual({
      'x-api-key': 'k1',
      authorization: `Basic ${Buffer.from('ada:pä55', 'utf8').toString('base64')}`,
      cookie: 'session=s1; admin=a1',
    });
    expect(credentialHeaders('https://docs.example.com/administrator', access()).cookie).toBe('session=s1');
    expect(credentialHeaders('https://other.example.com/', access())).toEqual({});
    expect(credentialHeaders('https://docs.example.com/', null)).toEqual({});
  });

  it('sends a cookie with a domain only there, and a secure one only over https', () => {
    const names = (url: string) => cookiesFor(new URL(url), access()).map((c) => c.name);
    expect(names('https://wiki.intranet.example/')).toEqual(['session', 'wiki']);
    expect(names('http://wiki.intranet.example/')).toEqual(['session']);
    expect(names('https://git.intranet.example/')).toEqual(['session']);
  });

  it('records the values of credentials redacted, names kept', () => {
    const recorded = redactHeaders(
      [
        ['user-agent', 'edgecrawl'],
        ['Cookie', 'session=s1'],
        ['x-api-key', 'k1'],
      ],
      new Set(['cookie', 'x-api-key']),
    );
    expect(recorded).toEqual([
      ['user-agent', 'edgecrawl'],
      ['Cookie', REDACTED],
      ['x-api-key', REDACTED],
    ]);
  });
});

describe('what a request may give', () => {
  const headers = credentialFields.headers;
  it('refuses hop-by-hop headers and the ones the fetcher owns, naming why', () => {
    for (const name of ['Host', 'content-length', 'Connection', 'Accept-Encoding', 'User-Agent', 'Cookie', 'CF-Ray'])
      expect(refusedHeader(name), name).not.toBeNull();
    for (const name of ['Authorization', 'X-Api-Key', 'Accept-Language']) expect(refusedHeader(name), name).toBeNull();
    expect(headers.safeParse({ 'X-Token': 'a\nb' }).success).toBe(false);
    expect(headers.safeParse({ 'Bad Name': 'x' }).success).toBe(false);
    expect(headers.safeParse({ 'x-a': '1', 'X-A': '2' }).success).toBe(false);
  });

  it('splits a request into what is shown (names, hosts) and what is sealed', () => {
    const split = splitCredentials(
      {
        headers: { Authorization: 'Bearer t0k' },
        cookies: [{ name: 'sid', value: 'v', path: '/', secure: false }],
        login: {
          url: 'https://example.com/login',
          actions: [
            { type: 'type', selector: '#pass', text: 'hunter2' },
            { type: 'click', selector: '#go' },
          ],
        },
      },
      ['https://example.com/a', 'https://www.example.com/b'],
    );
    expect(split?.shown).toEqual({
      hosts: ['example.com', 'www.example.com'],
      headers: ['Authorization'],
      cookies: [{ name: 'sid', domain: null, path: '/', secure: false }],
      authenticate: false,
      login: {
        url: 'https://example.com/login',
        actions: [
          { type: 'type', selector: '#pass' },
          { type: 'click', selector: '#go' },
        ],
      },
    });
    expect(JSON.stringify(split?.shown)).not.toMatch(/t0k|hunter2|"v"/);
    expect(splitCredentials({}, ['https://example.com/'])).toBeNull();
  });
});

describe('sealing', () => {
  const secrets = {
    headers: { Authorization: 'Bearer t0k' },
    cookies: [],
    authenticate: { username: 'ada', password: 'hunter2' },
    login: null,
  };

  it('opens what it sealed, and nothing sealed with another key or altered', async () => {
    const key = await sealingKey('a-deployment-secret-of-enough-length');
    const sealed = await seal(key, secrets);
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain('hunter2');
    expect(await seal(key, secrets)).not.toBe(sealed); // a fresh IV each time
    expect(await unseal(key, sealed)).toEqual(secrets);
    expect(await unseal(await sealingKey('another-deployment-secret-value'), sealed)).toBeNull();
    const [v, iv, data] = sealed.split('.');
    // The first character of the data: all six of its bits are the data's (the last one's may be padding).
    const flipped = `${v}.${iv}.${(data ?? '').startsWith('A') ? 'B' : 'A'}${(data ?? '').slice(1)}`;
    expect(await unseal(key, flipped)).toBeNull();
    expect(await unseal(key, 'not sealed')).toBeNull();
  });
});

describe('answers that keep the crawler out', () => {
  it('names a 401, a 403 to credentials and a redirect to the login page', () => {
    expect(accessDenied(401, null, { credentialed: false })?.code).toBe('auth_required');
    expect(accessDenied(403, null, { credentialed: false })).toBeNull();
    expect(accessDenied(403, null, { credentialed: true })?.code).toBe('credentials_refused');
    expect(accessDenied(401, null, { credentialed: true })?.code).toBe('credentials_refused');
    const login = 'https://example.com/account/sign-in';
    expect(accessDenied(302, `${login}?next=/a`, { credentialed: true, loginUrl: login })?.code).toBe('login_redirect');
    expect(accessDenied(302, 'https://example.com/users/sign_in', { credentialed: true })?.code).toBe('login_redirect');
    expect(accessDenied(302, 'https://example.com/login', { credentialed: false })).toBeNull();
    expect(accessDenied(301, 'https://example.com/blog/', { credentialed: true })).toBeNull();
    expect(isLoginPage('https://example.com/blog/login-tips-for-admins', null)).toBe(false);
    // Without credentials a 401 is an answer about the page (nothing left unread, as any 4xx); with them, a refused
    // page kept back what the crawl should have read: a recrawl must not call pages only it linked to gone.
    // Read from the code alone, never from the reason's words.
    const codeOf = (denied: ReturnType<typeof accessDenied>) => denied?.code ?? null;
    expect(leavesLinksUnread(codeOf(accessDenied(401, null, { credentialed: false })))).toBe(false);
    expect(leavesLinksUnread(codeOf(accessDenied(401, null, { credentialed: true })))).toBe(true);
    expect(leavesLinksUnread(codeOf(accessDenied(403, null, { credentialed: true })))).toBe(true);
    const redirected = accessDenied(302, 'https://example.com/login', { credentialed: true });
    expect(leavesLinksUnread(codeOf(redirected))).toBe(true);
    expect(reasonKind(redirected?.reason ?? '')).toBe('login page');
    expect(reasonKind(accessDenied(403, null, { credentialed: true })?.reason ?? '')).toBe('credentials refused');
    expect(isLoginPage('https://example.com/wp-login.php', null)).toBe(true);
  });

  it('says a session expired when pages were read, then refused; and when the login failed', () => {
    const refused = [
      { code: 'login_redirect' as const, count: 3, reason: 'login page: redirect 302 to https://example.com/login' },
    ];
    expect(accessReport(refused, 10)).toMatchObject({ refused: 3, sessionExpired: true, loginFailed: false });
    expect(accessReport(refused, 0)).toMatchObject({ refused: 3, sessionExpired: false });
    expect(accessReport(refused, 0)?.message).toContain('credentials were refused');
    const failed = [{ code: 'login_failed' as const, count: 1, reason: 'login failed: still on the login page' }];
    expect(accessReport(failed, 0)).toMatchObject({ loginFailed: true, sessionExpired: false });
    expect(accessReport([], 5)).toBeNull();
  });
});
