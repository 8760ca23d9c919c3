import { describe, expect, it } from 'vitest';
import { charsetOf, decodeBody, isHtml, parseHtmlPage } from '../../src/domain/html/page';

describe('parseHtmlPage', () => {
  it('extracts normalized, deduplicated links from a, area and rel=canonical, in order', () => {
    const html = `<html><head><title> A  title
      here </title><link rel="canonical" href="/canon"><link rel="stylesheet" href="/s.css"></head>
      <body><a href="b">b</a><a href="./b#x">b again</a><a href="HTTP://EXAMPLE.com/c">c</a>
      <map><area href="/d"></map><a>no href</a><a href="mailto:x@y.z">mail</a><a href="javascript:void(0)">js</a>
      <a href="  /e  ">spaces</a><a href="https://other.test/f">other</a></body></html>`;
    const page = parseHtmlPage(html, 'http://example.com/dir/page');
    expect(page.title).toBe('A title here');
    expect(page.links).toEqual([
      'http://example.com/dir/b',
      'http://example.com/c',
      'http://example.com/d',
      'http://example.com/e',
      'https://other.test/f',
      'http://example.com/canon',
    ]);
    expect(page.canonical).toBe('http://example.com/canon');
  });

  it('resolves against <base href>, itself relative to the page', () => {
    const page = parseHtmlPage(
      '<base href="/root/sub/"><a href="x">x</a><a href="../y">y</a>',
      'http://example.com/a/b',
    );
    expect(page.links).toEqual(['http://example.com/root/sub/x', 'http://example.com/root/y']);
  });

  it('ignores an unparsable base and keeps going on broken markup', () => {
    const page = parseHtmlPage(
      '<base href="http://[bad"><a href="ok">ok</a><div><a href="also">also',
      'http://example.com/',
    );
    expect(page.links).toEqual(['http://example.com/ok', 'http://example.com/also']);
    expect(page.title).toBeNull();
  });

  it('canonical rel can be one of several tokens, any case', () => {
    expect(parseHtmlPage('<link rel="alternate CANONICAL" href="/c">', 'http://e.com/').canonical).toBe(
      'http://e.com/c',
    );
  });
});

describe('content types and decoding', () => {
  it('recognizes HTML media types', () => {
    expect(isHtml('text/html; charset=utf-8')).toBe(true);
    expect(isHtml('application/xhtml+xml')).toBe(true);
    expect(isHtml('TEXT/HTML')).toBe(true);
    expect(isHtml('text/plain')).toBe(false);
    expect(isHtml(null)).toBe(false);
  });
  it('decodes with the declared charset, falling back to UTF-8', () => {
    expect(charsetOf('text/html; charset="ISO-8859-1"')).toBe('iso-8859-1');
    expect(decodeBody(new Uint8Array([0x63, 0x61, 0x66, 0xe9]), 'text/html; charset=iso-8859-1')).toBe('café');
    expect(decodeBody(new TextEncoder().encode('café'), 'text/html; charset=no-such-charset')).toBe('café');
  });
});

describe('parseSitemap', () => {
  it('reads urlsets and indexes, entities, CDATA, prefixes, and skips comments', async () => {
    const { parseSitemap, isGzip } = await import('../../src/domain/robots/sitemap');
    expect(
      parseSitemap(
        '<?xml version="1.0"?><urlset><url><loc> https://e.com/a?x=1&amp;y=2 </loc></url><!-- <url><loc>https://e.com/hidden</loc></url> --><url><loc><![CDATA[https://e.com/b]]></loc></url></urlset>',
      ),
    ).toEqual({
      kind: 'urlset',
      locs: ['https://e.com/a?x=1&y=2', 'https://e.com/b'],
    });
    expect(
      parseSitemap(
        '<sm:sitemapindex xmlns:sm="x"><sm:sitemap><sm:loc>https://e.com/s.xml</sm:loc></sm:sitemap></sm:sitemapindex>',
      ),
    ).toEqual({
      kind: 'index',
      locs: ['https://e.com/s.xml'],
    });
    expect(parseSitemap('<html>not a sitemap</html>')).toEqual({ kind: 'unknown', locs: [] });
    expect(parseSitemap(`<urlset>${'<url><loc>https://e.com/x</loc></url>'.repeat(10)}</urlset>`, 3).locs).toHaveLength(
      3,
    );
    expect(isGzip(new Uint8Array([0x1f, 0x8b, 8]))).toBe(true);
    expect(isGzip(new TextEncoder().encode('<?xml'))).toBe(false);
  });
});
