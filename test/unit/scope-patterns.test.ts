import { describe, expect, it } from 'vitest';
import { crawlConfigSchema, crawlSettingsSchema } from '../../src/domain/crawl/settings';
import { compileLinkPolicy } from '../../src/domain/url/link-policy';
import { checkPattern, compileFilters, compilePattern, PatternError } from '../../src/domain/url/patterns';
import { compileScope } from '../../src/domain/url/scope';

describe('scope', () => {
  const seeds = ['https://www.example.co.uk/start'];
  it('answers the same from its memory of hosts as from parsing, and is not fooled by URLs a plain split misreads', () => {
    const inHost = compileScope('same-host', ['https://a.example/']);
    const inOrigin = compileScope('same-origin', ['https://a.example/']);
    for (let round = 0; round < 2; round++) {
      expect(inHost('https://a.example/x')).toBe(true);
      expect(inHost('http://a.example:8080/y')).toBe(true);
      expect(inHost('https://b.example/x')).toBe(false);
      // The parser reads these hosts differently from the text before the first slash.
      expect(inHost('https://b.example\\@a.example/')).toBe(false);
      expect(inHost('https://user@a.example/')).toBe(true);
      expect(inHost('https:/b.example/')).toBe(false);
      expect(inHost('https:///a.example/')).toBe(true);
      expect(inHost('https://A.EXAMPLE/')).toBe(true);
      expect(inOrigin('https://a.example/x')).toBe(true);
      expect(inOrigin('https://a.example:444/x')).toBe(false);
      expect(inOrigin('not a url')).toBe(false);
    }
  });

  it('same-origin requires scheme, host and port', () => {
    const inScope = compileScope('same-origin', seeds);
    expect(inScope('https://www.example.co.uk/other')).toBe(true);
    expect(inScope('http://www.example.co.uk/other')).toBe(false);
    expect(inScope('https://www.example.co.uk:8443/other')).toBe(false);
  });
  it('same-host ignores scheme and port', () => {
    const inScope = compileScope('same-host', seeds);
    expect(inScope('http://www.example.co.uk:8080/x')).toBe(true);
    expect(inScope('https://blog.example.co.uk/x')).toBe(false);
  });
  it('same-domain uses the public suffix list', () => {
    const inScope = compileScope('same-domain', seeds);
    expect(inScope('https://blog.example.co.uk/x')).toBe(true);
    expect(inScope('https://example.co.uk/x')).toBe(true);
    expect(inScope('https://other.co.uk/x')).toBe(false);
  });
  it('same-domain keeps private suffixes apart (github.io sites are separate)', () => {
    const inScope = compileScope('same-domain', ['https://alice.github.io/']);
    expect(inScope('https://docs.alice.github.io/')).toBe(true);
    expect(inScope('https://bob.github.io/')).toBe(false);
  });
  it('same-domain compares IP hosts as hosts', () => {
    const inScope = compileScope('same-domain', ['http://127.0.0.1:8080/']);
    expect(inScope('http://127.0.0.1:9090/')).toBe(true);
    expect(inScope('http://127.0.0.2/')).toBe(false);
  });
  it('any takes everything; several seeds widen the scope', () => {
    expect(compileScope('any', seeds)('https://anything.test/')).toBe(true);
    const two = compileScope('same-host', ['https://a.test/', 'https://b.test/']);
    expect(two('https://b.test/x')).toBe(true);
    expect(two('https://c.test/x')).toBe(false);
  });
});

describe('URL patterns', () => {
  it('glob: * stops at slashes, ** does not, the rest is literal', () => {
    const star = compilePattern('https://example.com/blog/*');
    expect(star('https://example.com/blog/post')).toBe(true);
    expect(star('https://example.com/blog/2024/post')).toBe(false);
    expect(compilePattern('https://example.com/blog/**')('https://example.com/blog/2024/post')).toBe(true);
    expect(compilePattern('**/*.pdf')('https://example.com/a/b.pdf')).toBe(true);
    expect(compilePattern('**/*.pdf')('https://example.com/a/bpdf')).toBe(false);
    expect(compilePattern('https://example.com/?page=*')('https://example.com/?page=2')).toBe(true);
    expect(compilePattern('https://*.example.com/**')('https://docs.example.com/x')).toBe(true);
  });
  it('refuses a glob that can never match a whole URL, saying how to write it (a /regex/ is not the syntax)', () => {
    for (const pattern of ['/\\/blog\\//', '/blog/**', 'example.com/**', 'blog', 'ftp://example.com/**']) {
      expect(() => checkPattern(pattern), pattern).toThrow(PatternError);
      expect(() => checkPattern(pattern), pattern).toThrow(/matched against the whole URL.*re:/);
      // A stored crawl's pattern still compiles (and matches nothing, as before).
      expect(compilePattern(pattern)('https://example.com/blog/')).toBe(false);
    }
    expect(() => checkPattern('/\\/blog\\//')).toThrow(/for a regular expression write re:\\\/blog\\\//);
    for (const pattern of ['**/blog/**', '*://example.com/**', 'http*', 'HTTPS://example.com/**', 'https://**'])
      expect(() => checkPattern(pattern), pattern).not.toThrow();
    expect(compilePattern('re:\\/blog\\/')('https://example.com/blog/post')).toBe(true);
    // URLs are normalized (scheme and host in lower case): so is a glob's scheme and host.
    expect(compilePattern('HTTPS://Example.COM/Docs/**')('https://example.com/Docs/a')).toBe(true);
    expect(compilePattern('HTTPS://Example.COM/Docs/**')('https://example.com/docs/a')).toBe(false);
  });

  it('re: patterns are regular expressions; invalid ones throw PatternError', () => {
    expect(compilePattern('re:\\?page=\\d+$')('https://example.com/list?page=12')).toBe(true);
    expect(() => compilePattern('re:(')).toThrow(PatternError);
    expect(() => compilePattern('')).toThrow(PatternError);
  });
  it('filters: any include must match, no exclude may', () => {
    const pass = compileFilters(['**/docs/**'], ['**/docs/old/**']);
    expect(pass('https://e.com/docs/new/a')).toBe(true);
    expect(pass('https://e.com/docs/old/a')).toBe(false);
    expect(pass('https://e.com/blog/a')).toBe(false);
    expect(compileFilters([], [])('https://e.com/')).toBe(true);
  });
});

describe('link policy', () => {
  it('combines depth, scope and patterns', () => {
    const policy = compileLinkPolicy({
      seeds: ['https://e.com/'],
      scope: 'same-host',
      include: [],
      exclude: ['**/private/**'],
      maxDepth: 2,
      maxPages: null,
      hostIntervalMs: null,
      hostConcurrency: null,
      sitemaps: false,
    });
    expect(policy('https://e.com/a', 2)).toBe(true);
    expect(policy('https://e.com/a', 3)).toBe(false);
    expect(policy('https://other.com/a', 1)).toBe(false);
    expect(policy('https://e.com/private/x', 1)).toBe(false);
  });
});

describe('patterns in requests and in stored crawls', () => {
  it('refuses a never-matching glob in a request, but still reads a crawl stored with one', () => {
    const config = { seeds: ['https://example.com/'], include: ['/blog/**'], boost: ['example.com/**'] };
    expect(crawlSettingsSchema.safeParse(config).success).toBe(false);
    expect(crawlConfigSchema.parse(config).include).toEqual(['/blog/**']);
  });
});
