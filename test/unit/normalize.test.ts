import { describe, expect, it } from 'vitest';
import { normalizePercentEncoding, normalizeUrl } from '../../src/domain/url/normalize';

describe('normalizeUrl', () => {
  const same: [string, string][] = [
    ['HTTP://Example.COM/a', 'http://example.com/a'],
    ['http://example.com:80/a', 'http://example.com/a'],
    ['https://example.com:443/a', 'https://example.com/a'],
    ['http://example.com:8080/a', 'http://example.com:8080/a'],
    ['http://example.com', 'http://example.com/'],
    ['http://example.com/a/./b/../c', 'http://example.com/a/c'],
    ['http://example.com/a#frag', 'http://example.com/a'],
    ['http://example.com/a?', 'http://example.com/a'],
    ['http://example.com/a?#x', 'http://example.com/a'],
    ['http://example.com/%7euser/%41%62c', 'http://example.com/~user/Abc'],
    ['http://example.com/a%2fb', 'http://example.com/a%2Fb'],
    ['http://example.com/a b', 'http://example.com/a%20b'],
    ['http://example.com/?q=%7e&x=%2f', 'http://example.com/?q=~&x=%2F'],
    ['http://example.com./a', 'http://example.com/a'],
    ['http://bücher.example/', 'http://xn--bcher-kva.example/'],
    ['http://0x7f.1/', 'http://127.0.0.1/'],
    ['  http://example.com/a  ', 'http://example.com/a'],
  ];
  for (const [input, expected] of same) {
    it(`${input} -> ${expected}`, () => expect(normalizeUrl(input)).toBe(expected));
  }

  it('keeps query order and content', () => {
    expect(normalizeUrl('http://example.com/?b=2&a=1&a=0')).toBe('http://example.com/?b=2&a=1&a=0');
  });

  it('resolves relative references against a base', () => {
    expect(normalizeUrl('../c?x=1#y', 'http://example.com/a/b/')).toBe('http://example.com/a/c?x=1');
    expect(normalizeUrl('//other.example/p', 'https://example.com/')).toBe('https://other.example/p');
  });

  it('rejects what is not http(s)', () => {
    for (const input of [
      'mailto:a@b.c',
      'javascript:void(0)',
      'ftp://example.com/',
      'file:///etc/passwd',
      'data:text/html,x',
      'not a url',
      '',
      'http://',
    ]) {
      expect(normalizeUrl(input), input).toBeNull();
    }
  });

  it('is idempotent', () => {
    for (const [input] of same) {
      const once = normalizeUrl(input) as string;
      expect(normalizeUrl(once)).toBe(once);
    }
  });

  it('normalizePercentEncoding upper-cases escapes and decodes unreserved ones only', () => {
    expect(normalizePercentEncoding('%2f%2D%5f%3a')).toBe('%2F-_%3A');
  });
});
