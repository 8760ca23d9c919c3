/**
 * A small documentation site for extraction tests, under /t/<ns>/docs/: an index, an article with a table and code
 * blocks, a product page for declared fields, a windows-1252 page declared only in <meta>, a page with nothing but
 * navigation, a page whose footer changes on every request (its content does not), a page whose content does, and
 * hostile pages (deep nesting, endless unclosed tags, 100k links, megabytes of inline script; the whole set of
 * hostile-pages.ts under hostile/). No page sends ETag or
 * Last-Modified: recrawls must tell unchanged pages by their content.
 */
import { HOSTILE_PAGES } from './hostile-pages.ts';

type Reply = { status: number; headers?: Record<string, string>; body?: string | Buffer };

const served = new Map<string, number>();
const count = (key: string) => {
  const n = (served.get(key) ?? 0) + 1;
  served.set(key, n);
  return n;
};

const NAV =
  '<nav class="site-nav"><a href="index.html">Docs home</a> <a href="article.html">Guide</a> <a href="product.html">Shop</a></nav>';
const page = (title: string, body: string, head = '') =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>${head}</head><body>${NAV}${body}<footer>Docs footer</footer></body></html>`;
const prose = (topic: string, n: number) =>
  Array.from(
    { length: n },
    (_, i) =>
      `<p>${topic} paragraph ${i + 1} walks through the crawler in enough plain words to read as the body of an article.</p>`,
  ).join('');

/**
 * A page for every tab of the dashboard's record view: a table, code, a footnote, nested lists, a quote, links in
 * and out of the site, JSON-LD, fields (one that fails), and markup that must never run (a script, an onerror).
 */
const RECORD = page(
  'Field notes | Docs',
  `<main><article><h1>Field notes</h1>
<p>Crawlers read pages<sup><a href="#fn1" id="r1">1</a></sup> and keep what matters, see <a href="https://example.org/guide"><strong>the guide</strong></a> and <a href="article.html">the article</a>.</p>
<p class="price">42.50</p><p class="qty">many</p>
<h2>Limits</h2><table><thead><tr><th>Setting</th><th>Value</th></tr></thead><tbody><tr><td>maxPages</td><td>1000</td></tr><tr><td>maxDepth</td><td>3</td></tr></tbody></table>
<h2>Example</h2><pre><code class="language-js">const notes = await crawl("field");
console.log(notes.length);</code></pre>
<ul><li>Fetch<ul><li>Robots first</li></ul></li><li>Extract</li></ul>
<blockquote><p>Politeness is a feature.</p></blockquote>
<p>Escaped markup: &lt;script&gt;alert("md")&lt;/script&gt; and &lt;img src=x onerror=alert(2)&gt;.</p>
<img src="x.png" alt="a chart" onerror="alert(3)">
<ol><li id="fn1">Footnote text about pages. <a href="#r1">back</a></li></ol>
<script>alert("raw")</script>
</article></main>`,
  `<meta name="description" content="Notes on crawling."><meta name="author" content="Grace">
<script type="application/ld+json">{"@context":"https://schema.org","@type":"Article","headline":"Field notes","author":{"@type":"Person","name":"Grace"}}</script>
<script type="application/ld+json">{"@context":"https://schema.org","@type":"BreadcrumbList","itemListElement":[]}</script>`,
);

const ARTICLE = page(
  'Getting started | Docs',
  `<div class="cookie-banner" id="cookie-consent">We use cookies <button>OK</button></div>
<main><article><h1>Getting started</h1>${prose('Intro', 4)}
<h2>Options</h2><table><thead><tr><th>Option</th><th>Default</th></tr></thead><tbody><tr><td><code>maxPages</code></td><td>none</td></tr></tbody></table>
<h2>Code</h2><pre><code class="language-ts">const crawl = await start();
console.log(crawl.id);</code></pre>
<p>See <a href="product.html">the shop</a> and <a href="/elsewhere/page.html">elsewhere</a>.</p></article></main>`,
  `<meta name="description" content="How to start crawling."><link rel="canonical" href="article.html">
<script type="application/ld+json">{"@context":"https://schema.org","@graph":[{"@type":"TechArticle","headline":"Getting started","author":{"@type":"Person","name":"Ada"}},{"@type":"WebSite","name":"Docs"}]}</script>
<script type="application/ld+json">{ broken json </script>`,
);

const PRODUCT = page(
  'Lamp',
  `<main><h1 class="product-title">Desk Lamp</h1><span class="price">$1,299.00</span><ul class="tags"><li>home</li><li>light</li></ul>
<img class="main" src="img/lamp.jpg" alt="Lamp"><table class="specs"><tr><th>Height</th><td>40 cm</td></tr><tr><th>Weight</th><td>1 kg</td></tr></table>
<span class="rating">five stars</span>${prose('Product', 2)}</main>`,
);

function latin1(): Buffer {
  const head = Buffer.from(
    '<html><head><meta http-equiv="Content-Type" content="text/html; charset=windows-1252"><title>Caf',
  );
  return Buffer.concat([
    head,
    Buffer.from([0xe9, 0x20, 0x93]),
    Buffer.from('menu'),
    Buffer.from([0x94]),
    Buffer.from('</title></head><body><p>Cr'),
    Buffer.from([0xe8]),
    Buffer.from('me br'),
    Buffer.from([0xfb]),
    Buffer.from('l'),
    Buffer.from([0xe9, 0x2e]),
    Buffer.from('</p></body></html>'),
  ]);
}

const HOSTILE: Record<string, () => string> = {
  'deep.html': () => `<html><body>${'<div>'.repeat(100_000)}deep text${'</div>'.repeat(100_000)}</body></html>`,
  'unclosed.html': () => `<html><body>${'<p><b><i><span>unclosed '.repeat(20_000)}`,
  'links.html': () =>
    `<html><body>${Array.from({ length: 100_000 }, (_, i) => `<a href="x/${i}.html">${i}</a>`).join('')}</body></html>`,
  'script.html': () =>
    `<html><body><p>Script page text.</p><script>var s = "${'x'.repeat(3_000_000)}";</script></body></html>`,
};

export function docsSite(ns: string, rest: string): Reply {
  const html = (body: string | Buffer, type = 'text/html; charset=utf-8'): Reply => ({
    status: 200,
    headers: { 'content-type': type },
    body,
  });
  const key = `${ns}/${rest}`;
  switch (rest) {
    case '':
    case 'index.html':
      return html(
        page(
          'Docs',
          `<main><h1>Docs</h1>${prose('Index', 2)}<ul>${['article.html', 'product.html', 'latin1.html', 'nav-only.html', 'footer-clock.html', 'news.html'].map((p) => `<li><a href="${p}">${p}</a></li>`).join('')}</ul></main>`,
        ),
      );
    case 'article.html':
      return html(ARTICLE);
    case 'record.html':
      return html(RECORD);
    case 'product.html':
      return html(PRODUCT);
    case 'latin1.html':
      return html(latin1(), 'text/html');
    case 'nav-only.html':
      return html(
        `<html><head><title>Nav</title></head><body><nav><ul><li><a href="index.html">Home</a></li><li><a href="article.html">Guide</a></li></ul></nav></body></html>`,
      );
    case 'footer-clock.html':
      return html(
        page(
          'Clock',
          `<main><h1>Stable</h1>${prose('Stable', 3)}</main><p class="served">Served ${count(key)} times</p>`,
        ).replace('<footer>Docs footer</footer>', `<footer>Request ${served.get(key)}</footer>`),
      );
    case 'news.html':
      return html(page('News', `<main><article><h1>News</h1>${prose(`Edition ${count(key)}`, 3)}</article></main>`));
    default: {
      const hostile = HOSTILE[rest];
      const set = HOSTILE_PAGES.find((p) => `hostile/${p.name}` === rest);
      if (set) return html(Buffer.from(set.body()));
      return hostile ? html(hostile()) : { status: 404, headers: { 'content-type': 'text/plain' }, body: 'not found' };
    }
  }
}
