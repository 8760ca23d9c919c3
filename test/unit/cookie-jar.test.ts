import { describe, expect, it } from 'vitest';
import { jarCookiesFor, keepCookies, parseSetCookie, withJar } from '../../src/domain/credentials/cookie-jar';

const NOW = Date.parse('2026-06-01T00:00:00Z');
const url = (href: string) => new URL(href);
const HOSTS = ['wiki.example.com', '*.intra.example'];

describe("a logged-in crawl's cookie jar (RFC 6265's essentials)", () => {
  it('reads a Set-Cookie: host-only without Domain, the default path the folder, Secure, Max-Age before Expires', () => {
    const c = parseSetCookie(
      'sid=abc; Path=/app; Secure; HttpOnly; Max-Age=60; Expires=Wed, 01 Jan 2020 00:00:00 GMT',
      url('https://wiki.example.com/app/page'),
      NOW,
    );
    expect(c).toEqual({
      name: 'sid',
      value: 'abc',
      domain: 'wiki.example.com',
      hostOnly: true,
      path: '/app',
      secure: true,
      expiresAt: NOW + 60_000,
    });
    expect(parseSetCookie('a=1', url('https://wiki.example.com/docs/x/page.html'), NOW)?.path).toBe('/docs/x');
    expect(parseSetCookie('a=1', url('https://wiki.example.com/page'), NOW)?.path).toBe('/');
  });

  it('refuses a Domain the host is not in, a top-level one, and a pair with no name', () => {
    const at = url('https://wiki.example.com/');
    expect(parseSetCookie('a=1; Domain=other.com', at, NOW)).toBeNull();
    expect(parseSetCookie('a=1; Domain=com', at, NOW)).toBeNull();
    expect(parseSetCookie('=1', at, NOW)).toBeNull();
    expect(parseSetCookie('a=1; Domain=.example.com', at, NOW)).toMatchObject({
      domain: 'example.com',
      hostOnly: false,
    });
  });

  it('keeps cookies only from the credential hosts; a newer one replaces, an expired one deletes', () => {
    const home = url('https://wiki.example.com/');
    expect(keepCookies([], ['sid=x'], url('https://evil.example.net/'), HOSTS, NOW)).toBeNull();
    const first = keepCookies([], ['sid=1; Path=/'], home, HOSTS, NOW) ?? [];
    const renewed = keepCookies(first, ['sid=2; Path=/'], home, HOSTS, NOW) ?? [];
    expect(renewed.map((c) => c.value)).toEqual(['2']);
    expect(keepCookies(renewed, ['sid=; Path=/; Max-Age=0'], home, HOSTS, NOW)).toEqual([]);
  });

  it('sends a cookie only where it belongs: its host (or domain among the credential hosts), path, https, unexpired', () => {
    const jar = [
      ...(keepCookies(
        [],
        ['a=1; Path=/app', 'b=2; Path=/; Secure', 'c=3; Path=/; Max-Age=10'],
        url('http://wiki.example.com/app/x'),
        HOSTS,
        NOW,
      ) ?? []),
      ...(keepCookies([], ['d=4; Domain=intra.example'], url('https://a.intra.example/'), HOSTS, NOW) ?? []),
    ];
    const names = (href: string, now = NOW) => jarCookiesFor(jar, url(href), HOSTS, now).map((c) => c.name);
    expect(names('http://wiki.example.com/app/y')).toEqual(['a', 'c']);
    expect(names('https://wiki.example.com/other')).toEqual(['b', 'c']);
    expect(names('https://wiki.example.com/other', NOW + 20_000)).toEqual(['b']);
    expect(names('https://b.intra.example/')).toEqual(['d']);
    // A host the credentials are not for gets nothing, whatever the jar holds.
    expect(names('https://example.com/app/y')).toEqual([]);
    expect(names('https://intra.example.evil.net/')).toEqual([]);
  });

  it("replaces the crawl's own cookie of the same name with the jar's", () => {
    const access = {
      hosts: HOSTS,
      headers: {},
      cookies: [
        { name: 'sid', value: 'given', path: '/', secure: false },
        { name: 'lang', value: 'en', path: '/', secure: false },
      ],
      authenticate: null,
    };
    const jarred = withJar(access, [
      { name: 'sid', value: 'renewed', domain: 'wiki.example.com', path: '/', secure: false },
    ]);
    expect(jarred.cookies.map((c) => `${c.name}=${c.value}`)).toEqual(['lang=en', 'sid=renewed']);
  });
});
