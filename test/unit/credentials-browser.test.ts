import { describe, expect, it } from 'vitest';
import type { Access } from '../../src/domain/credentials/access';
import {
  browserHeaders,
  loginActionFailed,
  loginCookies,
  loginFailure,
  pageCookies,
  redactTyped,
  shownUrl,
} from '../../src/domain/credentials/browser';

const access: Access = {
  hosts: ['wiki.example', '*.intra.example'],
  headers: { 'X-Api-Key': 'key-1' },
  cookies: [
    { name: 'session', value: 's1', path: '/', secure: false },
    { name: 'admin', value: 'a1', domain: 'wiki.example', path: '/admin', secure: false },
    { name: 'tls', value: 't1', path: '/', secure: true },
  ],
  authenticate: { username: 'u', password: 'p' },
};

describe('browserHeaders: what a rendered page request carries', () => {
  it('the headers and basic credentials on a credential host, never a cookie header', () => {
    expect(browserHeaders('http://wiki.example/page', access)).toEqual({
      'x-api-key': 'key-1',
      authorization: `Basic ${btoa('u:p')}`,
    });
    expect(browserHeaders('https://docs.intra.example/app.js', access)).toHaveProperty('x-api-key', 'key-1');
  });

  it('nothing to another host, to a data: URL or a blob: URL', () => {
    expect(browserHeaders('http://cdn.example/app.js', access)).toEqual({});
    expect(browserHeaders('http://wiki.example.evil/app.js', access)).toEqual({});
    expect(browserHeaders('data:text/plain,hi', access)).toEqual({});
    expect(browserHeaders('blob:http://wiki.example/1234', access)).toEqual({});
  });
});

describe('pageCookies: what a rendered page is given', () => {
  it("the cookies of the page's own host and path, host-only (set by the page's URL)", () => {
    expect(pageCookies('http://wiki.example/admin/users', access)).toEqual([
      { name: 'session', value: 's1', url: 'http://wiki.example/admin/users', path: '/', secure: false },
      { name: 'admin', value: 'a1', url: 'http://wiki.example/admin/users', path: '/admin', secure: false },
    ]);
    expect(pageCookies('https://wiki.example/', access).map((c) => c.name)).toEqual(['session', 'tls']);
  });

  it('none off the credential hosts', () => {
    expect(pageCookies('http://cdn.example/', access)).toEqual([]);
  });
});

describe("loginCookies: what a login's browser context ends with that becomes the crawl's", () => {
  const found = (name: string, domain: string, value = 'v') => ({ name, value, domain, path: '/', secure: false });

  it("keeps the credential hosts' cookies, host-only and domain ones alike, as cookies of their domain", () => {
    expect(loginCookies([found('sid', 'wiki.example'), found('sso', '.intra.example')], access.hosts, [])).toEqual([
      { name: 'sid', value: 'v', domain: 'wiki.example', path: '/', secure: false },
      { name: 'sso', value: 'v', domain: 'intra.example', path: '/', secure: false },
    ]);
  });

  it("leaves another host's (an identity provider's) in the browser, and the crawl's own given ones out", () => {
    const given = [{ name: 'session', value: 's1', path: '/', secure: false }];
    const cookies = [found('idp', 'login.idp.example'), found('session', 'wiki.example', 's1'), found('x', '')];
    expect(loginCookies(cookies, access.hosts, given)).toEqual([]);
    // The crawl's cookie that the site set again with another value is the session's now.
    expect(loginCookies([found('session', 'wiki.example', 's2')], access.hosts, given)).toHaveLength(1);
  });
});

describe('loginFailure: whether a login got in', () => {
  const cookie = { name: 'sid', value: 'v', domain: 'wiki.example', path: '/', secure: false };
  const hosts = ['wiki.example'];

  it('a password field still shown is the login page still: failed, wherever the page is', () => {
    const page = { url: 'https://wiki.example/login?error=1&user=u', passwordShown: true, actions: 3 };
    expect(loginFailure(page, hosts, [cookie])).toBe(
      'login failed: still on the login page after its 3 actions (a password field is still shown at https://wiki.example/login)',
    );
  });

  it('the form gone and a cookie set: in, even at the login URL (a single-page app signs in where it is)', () => {
    expect(loginFailure({ url: 'https://wiki.example/login', passwordShown: false, actions: 1 }, hosts, [cookie])).toBe(
      null,
    );
  });

  it('no cookie for the credential hosts: failed, naming them', () => {
    const reason = loginFailure({ url: 'https://wiki.example/home', passwordShown: false, actions: 1 }, hosts, []);
    expect(reason).toBe(
      'login failed: no cookie was set for the credential hosts (wiki.example) after its action, at https://wiki.example/home; if the session is set on another host, name it in credentialsFor',
    );
  });
});

describe("a login's reasons never show what it typed", () => {
  it('an action named by its kind and selector', () => {
    const action = { type: 'type' as const, selector: '#pass', text: 'hunter22' };
    expect(loginActionFailed(1, 3, action, 'no element matches "#pass"')).toBe(
      'login failed: action 2 of 3 (type into "#pass") could not be done: no element matches "#pass"',
    );
  });

  it('typed texts redacted, the longest first; texts too short to search for left alone', () => {
    expect(redactTyped('failed at /u/hunter22/x for hunter2 (a)', ['hunter2', 'hunter22', 'a'])).toBe(
      'failed at /u/[redacted]/x for [redacted] (a)',
    );
  });

  it('a URL shown without its query (a form sent by GET puts its fields there)', () => {
    expect(shownUrl('https://wiki.example/login?user=u&pass=p#x')).toBe('https://wiki.example/login');
    expect(shownUrl('not a url?pass=p')).toBe('not a url');
  });
});
