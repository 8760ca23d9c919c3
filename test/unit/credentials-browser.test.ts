import { describe, expect, it } from 'vitest';
import type { Access } from '../../src/domain/credentials/access';
import { browserHeaders, pageCookies } from '../../src/domain/credentials/browser';

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
