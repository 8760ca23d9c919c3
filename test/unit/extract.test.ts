import { describe, expect, it } from 'vitest';
import { extractPage } from '../../src/domain/extract';
import { parseNumber } from '../../src/domain/extract/number';
import type { ExtractSpec } from '../../src/domain/extract/spec-schema';
import { prescanMeta, sniffEncoding } from '../../src/domain/html/charset';

const URL_ = 'https://docs.example.com/guide/start.html';
const utf8 = (html: string) => new TextEncoder().encode(html);
const spec = (overrides: Partial<ExtractSpec> = {}): ExtractSpec => ({
  formats: ['markdown', 'text', 'html', 'metadata', 'jsonLd', 'links', 'images'],
  mainContent: true,
  include: [],
  exclude: [],
  fields: {},
  ...overrides,
});
const extract = (html: string, s: Partial<ExtractSpec> = {}, contentType: string | null = 'text/html; charset=utf-8') =>
  extractPage(utf8(html), contentType, URL_, spec(s));

const prose = (n: number) =>
  Array.from(
    { length: n },
    (_, i) =>
      `<p>Paragraph ${i + 1} explains the crawler in enough words to read as an article body, not as navigation.</p>`,
  ).join('\n');

const ARTICLE = `<!doctype html><html lang="en-GB"><head>
<title>Getting started | Example Docs</title>
<meta name="description" content="How to start.">
<meta property="og:title" content="Getting started"><meta property="og:image" content="/img/cover.png"><meta property="og:site_name" content="Example Docs">
<meta name="twitter:card" content="summary"><meta name="author" content="Ada Lovelace"><meta name="keywords" content="crawl, docs">
<meta property="article:published_time" content="2026-01-02T03:04:05Z">
<link rel="canonical" href="/guide/start">
</head><body>
<nav class="menu"><a href="/">Home</a> <a href="/guide/">Guide</a></nav>
<div id="cookie-banner" class="cookie-consent">We use cookies. <button>Accept</button></div>
<main><article>
<h1>Getting started</h1>
${prose(4)}
<h2>Install</h2>
<p>Run <code>npm ci</code>, then read <a href="../api/index.html">the API</a> and <a href="javascript:alert(1)">this</a>.</p>
<div class="highlight highlight-source-js"><pre><span class="ln">1</span><span class="k">const</span> x = <span class="s">\`a\`</span>;
<span class="ln">2</span>console.log(x);</pre></div>
<pre><code class="language-python">def f():

    return 1</code></pre>
<table><thead><tr><th>Name</th><th>Value</th></tr></thead><tbody><tr><td>a|b</td><td><a href="/v">v</a></td></tr><tr><td colspan="2">wide</td></tr></tbody></table>
<ul><li>one<ul><li>nested</li></ul></li><li>two</li></ul>
<img src="data:image/png;base64,AAAA" alt="inline"><img src="/img/diagram.png" alt="Diagram">
<h3>Next</h3><p>More text here.</p>
</article></main>
<aside class="share-buttons">Share on X</aside>
<footer>© Example</footer>
<script>window.evil = 1</script>
</body></html>`;

describe('extraction: markdown', () => {
  it('keeps the main content, not navigation, cookie banners, share widgets or footers', async () => {
    const { outputs, source } = await extract(ARTICLE);
    expect(source).toBe('detected');
    const md = outputs.markdown ?? '';
    expect(md).toContain('Paragraph 1 explains');
    for (const clutter of ['Home', 'cookies', 'Share on X', '© Example', 'evil'])
      expect(md, clutter).not.toContain(clutter);
  });

  it('writes headings in order, GFM tables, fenced code with its language, absolute links, no javascript: or data:', async () => {
    const md = (await extract(ARTICLE)).outputs.markdown ?? '';
    const headings = md.split('\n').filter((l) => /^#+ /.test(l));
    expect(headings.map((h) => h.replace(/^#+ /, ''))).toEqual(['Getting started', 'Install', 'Next']);
    expect(md).toContain('| Name | Value |\n| --- | --- |\n| a\\|b | [v](https://docs.example.com/v) |\n| wide |  |');
    expect(md).toContain('```js\nconst x = `a`;\nconsole.log(x);\n```');
    expect(md).toContain('```python\ndef f():\n\n    return 1\n```');
    expect(md).toContain('[the API](https://docs.example.com/api/index.html)');
    expect(md).toContain('Run `npm ci`');
    expect(md).not.toContain('javascript:');
    expect(md).toContain('this');
    expect(md).toContain('![Diagram](https://docs.example.com/img/diagram.png)');
    expect(md).not.toContain('data:');
    expect(md).toContain('- one\n  - nested\n- two');
  });

  it('is deterministic', async () => {
    const [a, b] = await Promise.all([extract(ARTICLE), extract(ARTICLE)]);
    expect(a.outputs).toEqual(b.outputs);
    expect(a.record.contentHash).toBe(b.record.contentHash);
  });

  it('hashes the content and the declared fields: a field that changes outside the content changes the hash', async () => {
    const page = (price: string, clock: string) =>
      `<html><body><header>${clock}</header><main><h1>Lamp</h1><p>${'A lamp for reading. '.repeat(12)}</p></main>` +
      `<aside><span class="price">${price}</span></aside></body></html>`;
    const fields = { price: { selector: '.price', type: 'number' as const } };
    const hash = async (price: string, clock: string, spec: Partial<ExtractSpec> = { fields }) =>
      (await extract(page(price, clock), spec)).record.contentHash;
    expect(await hash('10', '09:00')).toBe(await hash('10', '09:01'));
    expect(await hash('10', '09:00')).not.toBe(await hash('12', '09:00'));
    // Without fields the hash is the text's alone, as before fields counted.
    expect(await hash('10', '09:00', {})).toBe(await hash('12', '09:00', {}));
  });

  it('gives text and html of the same content', async () => {
    const { outputs, record } = await extract(ARTICLE);
    expect(outputs.text).toContain('Paragraph 4 explains');
    expect(outputs.text).not.toMatch(/^#|```|\]\(/m);
    expect(outputs.html).toContain('href="https://docs.example.com/api/index.html"');
    expect(outputs.html).not.toContain('<script');
    expect(record.wordCount).toBeGreaterThan(60);
    expect(record.contentHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('falls back to the whole body for a page with nothing but navigation', async () => {
    const { outputs, source } = await extract(
      '<html><body><nav><ul><li><a href="/a">Alpha</a></li><li><a href="/b">Beta</a></li></ul></nav></body></html>',
    );
    expect(source).toBe('body');
    expect(outputs.markdown).toBe('- [Alpha](https://docs.example.com/a)\n- [Beta](https://docs.example.com/b)');
  });

  it('pins the content with a selector, and applies include and exclude', async () => {
    const pinned = await extract(ARTICLE, { mainContent: { selector: 'table' } });
    expect(pinned.source).toBe('selector');
    expect(pinned.outputs.text).toBe('Name\tValue\na|b\tv\nwide');
    const included = await extract(ARTICLE, { include: ['h2', 'h3'], exclude: ['h3'] });
    expect(included.outputs.markdown).toBe('## Install');
    const body = await extract(ARTICLE, { mainContent: false });
    expect(body.outputs.markdown).toContain('Home');
  });
});

describe('extraction: metadata and JSON-LD', () => {
  it('reads the head, with absolute URLs and og/twitter objects', async () => {
    const { record } = await extract(ARTICLE);
    expect(record.metadata).toEqual({
      title: 'Getting started | Example Docs',
      headline: 'Getting started',
      description: 'How to start.',
      language: 'en-GB',
      canonical: 'https://docs.example.com/guide/start',
      author: 'Ada Lovelace',
      publishedTime: '2026-01-02T03:04:05Z',
      modifiedTime: null,
      siteName: 'Example Docs',
      image: 'https://docs.example.com/img/cover.png',
      keywords: ['crawl', 'docs'],
      og: { title: 'Getting started', image: '/img/cover.png', site_name: 'Example Docs' },
      twitter: { card: 'summary' },
    });
  });

  it('parses every block, flattens @graph, and skips a broken block with a warning', async () => {
    const html = `<html><head>
<script type="application/ld+json">{"@context":"https://schema.org","@graph":[{"@type":"WebSite","name":"S"},{"@type":"Article","headline":"H","author":{"@type":"Person","name":"Grace"},"datePublished":"2025-05-05"}]}</script>
<script type="application/ld+json">{"@type": "Product", "name": "broken",}</script>
<script type="application/ld+json">[{"@type":"BreadcrumbList"}]</script>
</head><body><p>x</p></body></html>`;
    const { record } = await extract(html);
    expect(record.jsonLd).toEqual([
      { '@context': 'https://schema.org', '@type': 'WebSite', name: 'S' },
      {
        '@context': 'https://schema.org',
        '@type': 'Article',
        headline: 'H',
        author: { '@type': 'Person', name: 'Grace' },
        datePublished: '2025-05-05',
      },
      { '@type': 'BreadcrumbList' },
    ]);
    expect(record.warnings.some((w) => /jsonLd: block 2 is not valid JSON/.test(w))).toBe(true);
    expect(record.metadata?.author).toBe('Grace');
    expect(record.metadata?.publishedTime).toBe('2025-05-05');
  });

  it('cuts absurdly nested JSON-LD', async () => {
    const deep = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;
    const { record } = await extract(`<script type="application/ld+json">${deep}</script><p>x</p>`);
    expect(JSON.stringify(record.jsonLd).length).toBeLessThan(400);
  });
});

describe('extraction: fields', () => {
  const PRODUCT = `<html><body><h1 class="product-title"> Big   Lamp </h1><span class="price">$1,299.00</span><span class="stock">soon</span>
<ul class="tags"><li>home</li><li>light</li></ul><img class="main" src="/lamp.jpg">
<table class="specs"><tr><th>Height</th><td>1.2 m</td></tr><tr><th>Weight</th><td>3 kg</td></tr></table></body></html>`;

  it('reads text, numbers, urls, lists and nested fields; a failing field is null with its error', async () => {
    const { record } = await extract(PRODUCT, {
      fields: {
        name: { selector: 'h1.product-title' },
        price: { selector: '.price', type: 'number' },
        stock: { selector: '.stock', type: 'number' },
        tags: { selector: '.tags li', list: true },
        image: { selector: 'img.main', attr: 'src', type: 'url' },
        specs: {
          selector: 'table.specs tr',
          list: true,
          fields: { key: { selector: 'th' }, value: { selector: 'td' } },
        },
        missing: { selector: '.nope' },
        none: { selector: '.nope', list: true },
        noAttr: { selector: 'h1', attr: 'data-x' },
      },
    });
    expect(record.fields).toEqual({
      name: 'Big Lamp',
      price: 1299,
      stock: null,
      tags: ['home', 'light'],
      image: 'https://docs.example.com/lamp.jpg',
      specs: [
        { key: 'Height', value: '1.2 m' },
        { key: 'Weight', value: '3 kg' },
      ],
      missing: null,
      none: [],
      noAttr: null,
    });
    expect(record.fieldErrors).toEqual({ stock: 'not a number: "soon"', noAttr: 'no attribute data-x' });
  });

  it('parses numbers as pages write them', () => {
    const cases: [string, number | null][] = [
      ['$1,299.00', 1299],
      ['1.299,00 €', 1299],
      ['1,234,567', 1234567],
      ['12 345', 12345],
      ['-3.5%', -3.5],
      ['EUR 9,99', 9.99],
      ['n/a', null],
    ];
    for (const [text, value] of cases) expect(parseNumber(text), text).toBe(value);
  });
});

describe('character sets', () => {
  it('follows BOM, then Content-Type, then <meta>, then detection', () => {
    expect(sniffEncoding(new Uint8Array([0xef, 0xbb, 0xbf, 0x41]), 'text/html; charset=windows-1252').encoding).toBe(
      'utf-8',
    );
    expect(sniffEncoding(utf8('<meta charset="shift_jis">'), 'text/html; charset=euc-kr').encoding).toBe('euc-kr');
    expect(
      prescanMeta(
        utf8('<!-- <meta charset="gbk"> --><meta http-equiv="Content-Type" content="text/html; charset=windows-1251">'),
      ),
    ).toBe('windows-1251');
    expect(sniffEncoding(utf8('<p>héllo</p>'), 'text/html').encoding).toBe('utf-8');
    expect(sniffEncoding(new Uint8Array([0x3c, 0x70, 0x3e, 0xe9, 0x3c]), 'text/html').encoding).toBe('windows-1252');
  });

  it('decodes a windows-1252 page declared only in <meta>, and Shift_JIS, GBK and EUC-KR pages', async () => {
    const latin = new Uint8Array([
      ...utf8('<html><head><meta charset="windows-1252"><title>Caf'),
      0xe9,
      ...utf8(' '),
      0x93,
      ...utf8('quoted'),
      0x94,
      ...utf8('</title></head><body><p>x</p></body></html>'),
    ]);
    expect((await extractPage(latin, 'text/html', URL_, spec())).summary.title).toBe('Café “quoted”');
    const pages: [string, number[], string][] = [
      ['shift_jis', [0x93, 0xfa, 0x96, 0x7b], '日本'],
      ['gbk', [0xd6, 0xd0, 0xce, 0xc4], '中文'],
      ['euc-kr', [0xc7, 0xd1, 0xb1, 0xdb], '한글'],
    ];
    for (const [charset, bytes, text] of pages) {
      const body = new Uint8Array([
        ...utf8('<html><head><title>'),
        ...bytes,
        ...utf8('</title></head><body></body></html>'),
      ]);
      expect((await extractPage(body, `text/html; charset=${charset}`, URL_, spec())).summary.title, charset).toBe(
        text,
      );
    }
  });
});

describe('hostile pages', () => {
  it('deep nesting, huge tables and megabytes of inline script end with a record, within the limits', async () => {
    const deep = `<html><body>${'<div>'.repeat(100_000)}deep text${'</div>'.repeat(100_000)}</body></html>`;
    const deepResult = await extract(deep);
    expect(deepResult.outputs.text).toContain('deep text');
    const table = `<table>${'<tr><td>a</td><td>b</td></tr>'.repeat(20_000)}</table>`;
    // 60,000 elements: parsed up to PAGE_LIMITS.parseElements (20,000), the rows past them cut with a warning.
    const tableResult = await extract(table, { mainContent: false });
    expect(tableResult.outputs.markdown?.split('\n').length).toBe(6668);
    expect(tableResult.record.warnings[0]).toMatch(/^page: parsed up to 20000 elements, \d+ of \d+ characters/);
    const script = `<html><body><p>kept</p><script>${'x'.repeat(3_000_000)}</script></body></html>`;
    expect((await extract(script, { mainContent: false })).outputs.markdown).toBe('kept');
  });

  it('unclosed tags and invalid UTF-8 still give a record', async () => {
    const unclosed = `<html><body>${'<p><b><i>text '.repeat(5000)}`;
    expect((await extract(unclosed, { mainContent: false })).record.wordCount).toBe(5000);
    const invalid = new Uint8Array([
      ...utf8('<html><body><p>ok '),
      0xff,
      0xfe,
      0xc3,
      ...utf8(' end</p></body></html>'),
    ]);
    expect(
      (await extractPage(invalid, 'text/html; charset=utf-8', URL_, spec({ mainContent: false }))).outputs.text,
    ).toBe('ok \ufffd\ufffd\ufffd end');
  });

  it('a page past the DOM limit is not parsed: its record says so', async () => {
    const big = `<html><body>${'<p>word</p>'.repeat(500_000)}</body></html>`;
    const result = await extract(big);
    expect(result.links).toBeNull();
    expect(result.record.warnings[0]).toMatch(/not parsed/);
  });
});
