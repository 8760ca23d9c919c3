import { describe, expect, it } from 'vitest';
import { templateOf } from '../../../src/domain/model/template';

describe('templateOf', () => {
  it('puts pages of one path shape together', () => {
    expect(templateOf('https://shop.test/p/123.html')).toBe('shop.test/p/*');
    expect(templateOf('https://shop.test/p/77.html?ref=home#top')).toBe('shop.test/p/*');
    expect(templateOf('https://shop.test/category/shoes')).toBe(templateOf('http://shop.test/category/hats/'));
    expect(templateOf('https://blog.test/2024/05/a-post')).toBe('blog.test/:n/:n/*');
  });

  it('keeps the home page, other hosts and other shapes apart', () => {
    expect(templateOf('https://shop.test/')).toBe('shop.test/');
    expect(templateOf('https://shop.test/?page=2')).toBe('shop.test/');
    expect(templateOf('https://shop.test/about')).toBe('shop.test/*');
    expect(templateOf('https://shop.test:8080/p/1.html')).toBe('shop.test:8080/p/*');
    expect(templateOf('https://other.test/p/1.html')).not.toBe(templateOf('https://shop.test/p/1.html'));
    expect(templateOf('https://shop.test/item/red-shoe')).not.toBe(templateOf('https://shop.test/p/1.html'));
    expect(templateOf('https://shop.test/p/2024/1.html')).toBe('shop.test/p/:n/*');
  });

  it('answers an unparsable URL with itself', () => {
    expect(templateOf('not a url')).toBe('not a url');
  });
});
