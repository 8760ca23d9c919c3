import { describe, expect, it } from 'vitest';
import {
  matches,
  normalizePattern,
  parseRobots,
  productToken,
  ROBOTS_PARSE_LIMIT_BYTES,
} from '../../src/domain/robots/robots';

const allowed = (robotstxt: string, agent: string, url: string) => parseRobots(robotstxt).isAllowed(url, agent);

// Cases follow RFC 9309 and Google's reference tests (google/robotstxt robots_test.cc).
describe('robots.txt: syntax', () => {
  it('an empty file or an empty agent allows everything', () => {
    expect(allowed('', 'FooBot', 'http://foo.bar/')).toBe(true);
    expect(allowed('user-agent: FooBot\ndisallow: /\n', '', 'http://foo.bar/x')).toBe(true);
  });

  it('key: value lines; a missing colon is accepted for exactly two words', () => {
    const url = 'http://foo.bar/x/y';
    expect(allowed('user-agent: FooBot\ndisallow: /\n', 'FooBot', url)).toBe(false);
    expect(allowed('foo: FooBot\nbar: /\n', 'FooBot', url)).toBe(true);
    expect(allowed('user-agent FooBot\ndisallow /\n', 'FooBot', url)).toBe(false);
    expect(allowed('user-agent FooBot\ndisallow / extra\n', 'FooBot', url)).toBe(true);
  });

  it('groups: rules outside groups are ignored; groups for one agent are merged', () => {
    const robotstxt =
      'allow: /foo/bar/\n\nuser-agent: FooBot\ndisallow: /\nallow: /x/\nuser-agent: BarBot\ndisallow: /\nallow: /y/\n\n\nallow: /w/\n' +
      'user-agent: BazBot\n\nuser-agent: FooBot\nallow: /z/\ndisallow: /\n';
    expect(allowed(robotstxt, 'FooBot', 'http://foo.bar/x/b')).toBe(true);
    expect(allowed(robotstxt, 'FooBot', 'http://foo.bar/z/d')).toBe(true);
    expect(allowed(robotstxt, 'FooBot', 'http://foo.bar/y/c')).toBe(false);
    expect(allowed(robotstxt, 'BarBot', 'http://foo.bar/y/c')).toBe(true);
    expect(allowed(robotstxt, 'BarBot', 'http://foo.bar/w/a')).toBe(true);
    expect(allowed(robotstxt, 'BarBot', 'http://foo.bar/z/d')).toBe(false);
    expect(allowed(robotstxt, 'BazBot', 'http://foo.bar/z/d')).toBe(true);
    for (const agent of ['FooBot', 'BarBot', 'BazBot'])
      expect(allowed(robotstxt, agent, 'http://foo.bar/foo/bar/')).toBe(false);
  });

  it('keys and agent names are case-insensitive; paths are case-sensitive', () => {
    for (const robotstxt of [
      'USER-AGENT: FooBot\nALLOW: /x/\nDISALLOW: /\n',
      'user-agent: FooBot\nallow: /x/\ndisallow: /\n',
      'uSeR-aGeNt: FooBot\nAlLoW: /x/\ndIsAlLoW: /\n',
    ]) {
      expect(allowed(robotstxt, 'FooBot', 'http://foo.bar/x/y')).toBe(true);
      expect(allowed(robotstxt, 'FooBot', 'http://foo.bar/a/b')).toBe(false);
    }
    for (const robotstxt of [
      'User-Agent: FOO BAR\nAllow: /x/\nDisallow: /\n',
      'User-Agent: foo bar\nAllow: /x/\nDisallow: /\n',
      'User-Agent: FoO bAr\nAllow: /x/\nDisallow: /\n',
    ]) {
      for (const agent of ['Foo', 'foo']) {
        expect(allowed(robotstxt, agent, 'http://foo.bar/x/y')).toBe(true);
        expect(allowed(robotstxt, agent, 'http://foo.bar/a/b')).toBe(false);
      }
    }
    expect(allowed('user-agent: FooBot\ndisallow: /x/\n', 'FooBot', 'http://foo.bar/x/y')).toBe(false);
    expect(allowed('user-agent: FooBot\ndisallow: /X/\n', 'FooBot', 'http://foo.bar/x/y')).toBe(true);
  });

  it('an agent is matched by its product token, up to the first character outside [A-Za-z_-]', () => {
    expect(productToken('edgecrawl/0.1 (+https://x)')).toBe('edgecrawl');
    expect(productToken('Foo_Bar-baz 2')).toBe('Foo_Bar-baz');
    const robotstxt = 'User-Agent: *\nDisallow: /\nUser-Agent: Foo Bar\nAllow: /x/\nDisallow: /\n';
    expect(allowed(robotstxt, 'Foo', 'http://foo.bar/x/y')).toBe(true);
    expect(allowed(robotstxt, 'Foo/2.1', 'http://foo.bar/x/y')).toBe(true);
    expect(allowed('user-agent: FooBot/1.0\ndisallow: /\n', 'foobot', 'http://foo.bar/x')).toBe(false);
  });

  it('the global group applies only when no group names the agent', () => {
    const global = 'user-agent: *\nallow: /\nuser-agent: FooBot\ndisallow: /\n';
    expect(allowed(global, 'FooBot', 'http://foo.bar/x/y')).toBe(false);
    expect(allowed(global, 'BarBot', 'http://foo.bar/x/y')).toBe(true);
    expect(
      allowed('user-agent: FooBot\nallow: /\nuser-agent: BarBot\ndisallow: /\n', 'QuxBot', 'http://foo.bar/x/y'),
    ).toBe(true);
    const specificWins = 'User-agent: *\nDisallow: /x/\nUser-agent: FooBot\nDisallow: /y/\n';
    expect(allowed(specificWins, 'FooBot', 'http://foo.bar/x/page')).toBe(true);
    expect(allowed(specificWins, 'FooBot', 'http://foo.bar/y/page')).toBe(false);
    // "* " with more text is still global; "*foo" is not.
    expect(allowed('user-agent: * some comment\ndisallow: /\n', 'AnyBot', 'http://foo.bar/a')).toBe(false);
    expect(allowed('user-agent: *foo\ndisallow: /\n', 'AnyBot', 'http://foo.bar/a')).toBe(true);
  });

  it('a group naming the agent but with no rules allows everything, even with a global disallow', () => {
    expect(allowed('user-agent: *\ndisallow: /\nuser-agent: FooBot\n', 'FooBot', 'http://foo.bar/a')).toBe(true);
    expect(allowed('user-agent: *\ndisallow: /\nuser-agent: FooBot\ndisallow:\n', 'FooBot', 'http://foo.bar/a')).toBe(
      true,
    );
  });

  it('one group can name several agents', () => {
    const robotstxt = 'user-agent: FooBot\nuser-agent: BarBot\ndisallow: /private\n\nuser-agent: *\ndisallow: /\n';
    expect(allowed(robotstxt, 'BarBot', 'http://foo.bar/public')).toBe(true);
    expect(allowed(robotstxt, 'FooBot', 'http://foo.bar/private/x')).toBe(false);
    expect(allowed(robotstxt, 'QuxBot', 'http://foo.bar/public')).toBe(false);
  });

  it('LF, CR and CRLF line endings, a BOM, comments and a missing final newline', () => {
    for (const eol of ['\n', '\r', '\r\n']) {
      const robotstxt = [
        '\uFEFFUser-Agent: foo',
        'Allow: /some/path # comment',
        'User-Agent: bar',
        '',
        '',
        'Disallow: /',
      ].join(eol);
      expect(allowed(robotstxt, 'bar', 'http://foo.bar/x')).toBe(false);
      expect(allowed(robotstxt, 'foo', 'http://foo.bar/x')).toBe(true);
      expect(allowed(robotstxt, 'foo', 'http://foo.bar/some/path')).toBe(true);
    }
    expect(
      allowed(
        'User-agent: FooBot\n# Disallow: /\nDisallow: /foo/quz#qux\nAllow: /\n',
        'FooBot',
        'http://foo.bar/foo/bar',
      ),
    ).toBe(true);
    expect(
      allowed(
        'User-agent: FooBot\n# Disallow: /\nDisallow: /foo/quz#qux\nAllow: /\n',
        'FooBot',
        'http://foo.bar/foo/quz',
      ),
    ).toBe(false);
  });

  it('accepts common key typos', () => {
    expect(allowed('useragent: FooBot\ndissallow: /\n', 'FooBot', 'http://foo.bar/x')).toBe(false);
    expect(allowed('user agent: FooBot\ndisalow: /\n', 'FooBot', 'http://foo.bar/x')).toBe(false);
  });

  it('cuts lines after 8 x 2083 - 1 characters', () => {
    const maxLine = 2083 * 8;
    let longline = '/x/';
    while (longline.length < maxLine - 'disallow: '.length - 3 + 1) longline += 'a';
    const robotstxt = `user-agent: FooBot\ndisallow: ${longline}/qux\n`;
    expect(allowed(robotstxt, 'FooBot', 'http://foo.bar/fux')).toBe(true);
    expect(allowed(robotstxt, 'FooBot', `http://foo.bar${longline}/fux`)).toBe(false);
  });

  it('parses only the first 500 KiB', () => {
    const filler = `# ${'x'.repeat(1000)}\n`.repeat(Math.ceil(ROBOTS_PARSE_LIMIT_BYTES / 1003));
    const robotstxt = `user-agent: *\ndisallow: /early\n${filler}disallow: /late\n`;
    expect(allowed(robotstxt, 'FooBot', 'http://foo.bar/early')).toBe(false);
    expect(allowed(robotstxt, 'FooBot', 'http://foo.bar/late')).toBe(true);
  });
});

describe('robots.txt: matching', () => {
  const url = 'http://foo.bar/x/page.html';
  it('the longest match wins and allow wins ties', () => {
    expect(allowed('user-agent: FooBot\ndisallow: /x/page.html\nallow: /x/\n', 'FooBot', url)).toBe(false);
    expect(allowed('user-agent: FooBot\nallow: /x/page.html\ndisallow: /x/\n', 'FooBot', url)).toBe(true);
    expect(allowed('user-agent: FooBot\nallow: /x/page.html\ndisallow: /x/\n', 'FooBot', 'http://foo.bar/x/')).toBe(
      false,
    );
    expect(allowed('user-agent: FooBot\ndisallow: \nallow: \n', 'FooBot', url)).toBe(true);
    expect(allowed('user-agent: FooBot\ndisallow: /\nallow: /\n', 'FooBot', url)).toBe(true);
    expect(allowed('user-agent: FooBot\ndisallow: /x\nallow: /x/\n', 'FooBot', 'http://foo.bar/x')).toBe(false);
    expect(allowed('user-agent: FooBot\ndisallow: /x\nallow: /x/\n', 'FooBot', 'http://foo.bar/x/')).toBe(true);
    expect(allowed('user-agent: FooBot\ndisallow: /x/page.html\nallow: /x/page.html\n', 'FooBot', url)).toBe(true);
    expect(allowed('user-agent: FooBot\nallow: /page\ndisallow: /*.html\n', 'FooBot', 'http://foo.bar/page.html')).toBe(
      false,
    );
    expect(allowed('user-agent: FooBot\nallow: /page\ndisallow: /*.html\n', 'FooBot', 'http://foo.bar/page')).toBe(
      true,
    );
    expect(allowed('user-agent: FooBot\nallow: /x/page.\ndisallow: /*.html\n', 'FooBot', url)).toBe(true);
    expect(
      allowed('user-agent: FooBot\nallow: /x/page.\ndisallow: /*.html\n', 'FooBot', 'http://foo.bar/x/y.html'),
    ).toBe(false);
    expect(
      allowed('user-agent: FooBot\nallow: /folder\ndisallow: /folder\n', 'FooBot', 'http://example.com/folder/page'),
    ).toBe(true);
  });

  it('* and $ wildcards', () => {
    const a = 'User-agent: FooBot\nDisallow: /foo/bar/quz\nAllow: /foo/*/qux\n';
    expect(allowed(a, 'FooBot', 'http://foo.bar/foo/bar/quz')).toBe(false);
    expect(allowed(a, 'FooBot', 'http://foo.bar/foo/quz')).toBe(true);
    expect(allowed(a, 'FooBot', 'http://foo.bar/foo//quz')).toBe(true);
    const b = 'User-agent: FooBot\nDisallow: /foo/bar$\nAllow: /foo/bar/qux\n';
    expect(allowed(b, 'FooBot', 'http://foo.bar/foo/bar')).toBe(false);
    expect(allowed(b, 'FooBot', 'http://foo.bar/foo/bar/qux')).toBe(true);
    expect(allowed(b, 'FooBot', 'http://foo.bar/foo/bar/')).toBe(true);
    const php = 'user-agent: FooBot\ndisallow: /\nallow: /*.php$\n';
    expect(allowed(php, 'FooBot', 'http://foo.bar/folder/filename.php')).toBe(true);
    for (const path of [
      '/filename.php?parameters',
      '/filename.php/',
      '/filename.php5',
      '/php/',
      '/filename?php',
      '/aaaphpaaa',
      '//windows.PHP',
    ]) {
      expect(allowed(php, 'FooBot', `http://foo.bar${path}`), path).toBe(false);
    }
    const root = 'user-agent: FooBot\nallow: /$\ndisallow: /\n';
    expect(allowed(root, 'FooBot', 'http://example.com/')).toBe(true);
    expect(allowed(root, 'FooBot', 'http://example.com/page.html')).toBe(false);
    expect(matches('/a$b', '/a$b')).toBe(true); // $ not at the end is literal
  });

  it("Google's documented /fish examples", () => {
    const fish = 'user-agent: FooBot\ndisallow: /\nallow: /fish\n';
    for (const p of [
      '/fish',
      '/fish.html',
      '/fish/salmon.html',
      '/fishheads',
      '/fishheads/yummy.html',
      '/fish.html?id=anything',
    ])
      expect(allowed(fish, 'FooBot', `http://foo.bar${p}`), p).toBe(true);
    for (const p of ['/bar', '/Fish.asp', '/catfish', '/?id=fish'])
      expect(allowed(fish, 'FooBot', `http://foo.bar${p}`), p).toBe(false);
    const fishStar = 'user-agent: FooBot\ndisallow: /\nallow: /fish*\n';
    expect(allowed(fishStar, 'FooBot', 'http://foo.bar/fishheads')).toBe(true);
    expect(allowed(fishStar, 'FooBot', 'http://foo.bar/catfish')).toBe(false);
    const fishDir = 'user-agent: FooBot\ndisallow: /\nallow: /fish/\n';
    expect(allowed(fishDir, 'FooBot', 'http://foo.bar/fish/?salmon')).toBe(true);
    expect(allowed(fishDir, 'FooBot', 'http://foo.bar/fish')).toBe(false);
    const fishPhp = 'user-agent: FooBot\ndisallow: /\nallow: /fish*.php\n';
    expect(allowed(fishPhp, 'FooBot', 'http://foo.bar/fishheads/catfish.php?parameters')).toBe(true);
    expect(allowed(fishPhp, 'FooBot', 'http://foo.bar/Fish.PHP')).toBe(false);
  });

  it('percent-encoding: non-ASCII patterns are encoded, escapes compare case-insensitively, unreserved escapes equal their characters', () => {
    const robotstxt = 'User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/ツ\n';
    expect(allowed(robotstxt, 'FooBot', 'http://foo.bar/foo/bar/%E3%83%84')).toBe(true);
    expect(allowed(robotstxt, 'FooBot', 'http://foo.bar/foo/bar/ツ')).toBe(true); // the URL is normalized too
    expect(
      allowed(
        'User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%e3%83%84\n',
        'FooBot',
        'http://foo.bar/foo/bar/%E3%83%84',
      ),
    ).toBe(true);
    // RFC 9309 2.2.2: percent-encoded unreserved characters are unencoded before comparison.
    expect(
      allowed('User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%62%61%7A\n', 'FooBot', 'http://foo.bar/foo/bar/baz'),
    ).toBe(true);
    expect(allowed('User-agent: FooBot\nDisallow: /~joe\n', 'FooBot', 'http://foo.bar/%7Ejoe/x')).toBe(false);
    // Reserved characters stay encoded: %2F is not "/".
    expect(allowed('User-agent: FooBot\nDisallow: /a/b\n', 'FooBot', 'http://foo.bar/a%2Fb')).toBe(true);
    expect(
      allowed(
        'User-agent: FooBot\nDisallow: /\nAllow: /foo/bar?qux=taz&baz=http://foo.bar?tar&par\n',
        'FooBot',
        'http://foo.bar/foo/bar?qux=taz&baz=http://foo.bar?tar&par',
      ),
    ).toBe(true);
    expect(normalizePattern('/é%2f*$')).toBe('/%C3%A9%2F*$');
  });

  it('index.html allowed means the directory is allowed', () => {
    const robotstxt = 'User-Agent: *\nAllow: /allowed-slash/index.html\nDisallow: /\n';
    expect(allowed(robotstxt, 'foobot', 'http://foo.com/allowed-slash/')).toBe(true);
    expect(allowed(robotstxt, 'foobot', 'http://foo.com/allowed-slash/index.htm')).toBe(false);
    expect(allowed(robotstxt, 'foobot', 'http://foo.com/allowed-slash/index.html')).toBe(true);
    expect(allowed(robotstxt, 'foobot', 'http://foo.com/anyother-url')).toBe(false);
  });

  it('/robots.txt is always allowed', () => {
    expect(allowed('user-agent: *\ndisallow: /\n', 'FooBot', 'http://foo.bar/robots.txt')).toBe(true);
    expect(allowed('user-agent: *\ndisallow: /\n', 'FooBot', 'http://foo.bar/robots.txt?x')).toBe(false);
  });

  it('matching stays fast on adversarial patterns', () => {
    const pattern = `/${'*a'.repeat(200)}$`;
    const started = Date.now();
    expect(allowed(`user-agent: *\ndisallow: ${pattern}\n`, 'FooBot', `http://foo.bar/${'a'.repeat(2000)}b`)).toBe(
      true,
    );
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

describe('robots.txt: crawl-delay and sitemaps', () => {
  it('crawl-delay comes from the group that applies', () => {
    const robots = parseRobots('User-agent: *\nCrawl-delay: 2\n\nUser-agent: FooBot\nCrawl-delay: 0.5\nDisallow: /x\n');
    expect(robots.crawlDelay('FooBot/1.0')).toBe(0.5);
    expect(robots.crawlDelay('BarBot')).toBe(2);
    expect(parseRobots('User-agent: *\nCrawl-delay: soon\n').crawlDelay('x')).toBeUndefined();
    expect(parseRobots('User-agent: *\nCrawl-delay: -1\n').crawlDelay('x')).toBeUndefined();
  });

  it('sitemaps are collected from anywhere in the file', () => {
    const robots = parseRobots(
      'Sitemap: https://foo.bar/a.xml\nUser-agent: *\nDisallow: /x\nsite-map: https://foo.bar/b.xml # comment\n',
    );
    expect(robots.sitemaps).toEqual(['https://foo.bar/a.xml', 'https://foo.bar/b.xml']);
  });

  it('a crawl-delay line ends the run of user-agent lines, as any non-agent line does', () => {
    const robots = parseRobots('User-agent: a\nCrawl-delay: 5\nUser-agent: b\nDisallow: /\n');
    expect(robots.isAllowed('http://foo.bar/x', 'a')).toBe(true);
    expect(robots.isAllowed('http://foo.bar/x', 'b')).toBe(false);
    expect(robots.crawlDelay('b')).toBeUndefined();
  });
});
