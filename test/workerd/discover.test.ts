import { describe, expect, it } from 'vitest';
import { discoverLinks } from '../../src/domain/html/discover';
import { parseHtmlPage } from '../../src/domain/html/page';

const utf8 = (html: string) => new TextEncoder().encode(html);
const TYPE = 'text/html; charset=utf-8';

/** Documents on which the streaming parser must agree with the DOM one, field by field. */
const documents: [string, string][] = [
  [
    'links, canonical and title',
    `<html><head><title> A  title
      here </title><link rel="canonical" href="/canon"><link rel="stylesheet" href="/s.css"></head>
      <body><a href="b">b</a><a href="./b#x">b again</a><a href="HTTP://EXAMPLE.com/c">c</a>
      <map><area href="/d"></map><a>no href</a><a href="mailto:x@y.z">mail</a><a href="javascript:void(0)">js</a>
      <a href="  /e  ">spaces</a><a href="https://other.test/f">other</a></body></html>`,
  ],
  [
    'character references in attributes and title',
    `<title>Fish &amp; Chips &lt;3 &#x263A; &eacute;t&eacute;</title><a href="/q?a=1&amp;b=2&copy=3">q</a><a href='/r?x=&quot;y&quot;'>r</a><a href=/s?t=1&amp;u=2>s</a>`,
  ],
  [
    'base and relative links',
    '<base href="/root/sub/"><a href="x">x</a><a href="../y">y</a><base href="/ignored/"><a href="z">z</a>',
  ],
  ['unparsable base, broken markup', '<base href="http://[bad"><a href="ok">ok</a><div><a href="also">also'],
  [
    'an invalid canonical falls through to the next',
    '<link rel=canonical href="http://[bad"><link rel=canonical href="/good"><a href="/a">a</a>',
  ],
  ['two titles: the first counts', '<title>First</title><a href="/a">a</a><title>Second</title>'],
  [
    'no title, comments and scripts',
    '<!-- <a href="/hidden">x</a> --><script>var s = "<a href=\'/in-script\'>";</script><a href="/real">real</a>',
  ],
  ['empty title', '<title>   </title><a href="/a">a</a>'],
];

describe('discoverLinks (HTMLRewriter) agrees with parseHtmlPage (linkedom)', () => {
  for (const [name, html] of documents) {
    it(name, async () => {
      const url = 'http://example.com/dir/page';
      const expected = parseHtmlPage(html, url);
      expect(await discoverLinks(utf8(html), TYPE, url)).toEqual(expected);
    });
  }

  it('decodes references the way a browser does', async () => {
    const page = await discoverLinks(
      utf8('<title>Fish &amp; Chips</title><a href="/q?a=1&amp;b=2">q</a>'),
      TYPE,
      'http://e.com/',
    );
    expect(page).toEqual({ title: 'Fish & Chips', links: ['http://e.com/q?a=1&b=2'], canonical: null });
  });

  it('reads upper-case markup as browsers do (linkedom misses these links)', async () => {
    const html =
      '<HTML><HEAD><TITLE>Up</TITLE><LINK REL="Alternate Canonical" HREF=/c></HEAD><BODY><A HREF=/a>a</A><AREA HREF=/b></BODY></HTML>';
    expect(await discoverLinks(utf8(html), TYPE, 'http://e.com/')).toEqual({
      title: 'Up',
      links: ['http://e.com/a', 'http://e.com/b', 'http://e.com/c'],
      canonical: 'http://e.com/c',
    });
    expect(parseHtmlPage(html, 'http://e.com/').links).toEqual([]);
  });

  it('reads the declared charset', async () => {
    // "café" in ISO-8859-1, in a title and a path.
    const bytes = new Uint8Array([
      ...utf8('<title>caf'),
      0xe9,
      ...utf8('</title><a href="/caf'),
      0xe9,
      ...utf8('">x</a>'),
    ]);
    const page = await discoverLinks(bytes, 'text/html; charset=iso-8859-1', 'http://e.com/');
    expect(page.title).toBe('café');
    expect(page.links).toEqual(['http://e.com/caf%C3%A9']);
  });

  it('falls back to the DOM parser for UTF-16', async () => {
    const html = '<title>Wide</title><a href="/w">w</a>';
    const bytes = new Uint8Array(html.length * 2);
    for (let i = 0; i < html.length; i++) bytes[i * 2] = html.charCodeAt(i);
    expect(await discoverLinks(bytes, 'text/html; charset=utf-16le', 'http://e.com/')).toEqual({
      title: 'Wide',
      links: ['http://e.com/w'],
      canonical: null,
    });
  });

  it('handles a large page with many links', async () => {
    const anchors = Array.from({ length: 5000 }, (_, i) => `<li><a href="/p${i}?a=1&amp;b=${i}">${i}</a></li>`).join(
      '',
    );
    const html = `<title>Big</title><ul>${anchors}</ul>`;
    const page = await discoverLinks(utf8(html), TYPE, 'http://e.com/');
    expect(page.links).toHaveLength(5000);
    expect(page.links[4999]).toBe('http://e.com/p4999?a=1&b=4999');
    expect(page).toEqual(parseHtmlPage(html, 'http://e.com/'));
  });
});
