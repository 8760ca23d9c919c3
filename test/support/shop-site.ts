/**
 * A shop with duplicates, for test/integration/duplicates.test.ts, under /t/<ns>/shop/: a listing (also served as
 * index.html) linking 40 product pages p/<n>.html, each declaring `<link rel="canonical" href="p/<n>.html?ref=canonical">`
 * (the query is ignored: the canonical URL serves the same page); about.html and company/about.html, byte for byte
 * the same page and no canonical; a.html and b.html naming each other canonical; away.html, whose canonical is on
 * another host; gone.html, whose canonical is missing.html (a 404). Under /t/<ns>/copies/: a listing of 30 pages
 * copy/<n>.html, all the same bytes (many consumers race over them). Under /t/<ns>/lookalikes/: pages whose main
 * content is the same text, for the edges of the content rule (see lookalikes).
 */

type Reply = { status: number; headers?: Record<string, string>; body?: string };

export const SHOP_PRODUCTS = 40;
export const COPIES = 30;

const html = (body: string): Reply => ({ status: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, body });

const page = (title: string, body: string, head = '') =>
  html(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>${head}</head><body>${body}</body></html>`,
  );

const canonical = (href: string) => `<link rel="canonical" href="${href}">`;

function listing(ns: string): Reply {
  const base = `/t/${ns}/shop/`;
  const products = Array.from(
    { length: SHOP_PRODUCTS },
    (_, i) => `<li><a href="${base}p/${i + 1}.html">Product ${i + 1}</a></li>`,
  ).join('');
  const more = ['index.html', 'about.html', 'company/about.html', 'a.html', 'b.html', 'away.html', 'gone.html']
    .map((p) => `<a href="${base}${p}">${p}</a>`)
    .join(' ');
  return page('Shop', `<h1>Shop</h1><ul>${products}</ul><p>${more}</p>`);
}

function product(ns: string, n: number): Reply {
  const base = `/t/${ns}/shop/`;
  return page(
    `Product ${n}`,
    `<main><h1>Product ${n}</h1><p>Product ${n} is a fine thing, made of ${n} parts, sold at ${n * 3} euros.</p>
<p><a href="${base}">Back to the shop</a></p></main>`,
    canonical(`${base}p/${n}.html?ref=canonical`),
  );
}

/** The shop's pages, by path after /t/<ns>/shop/. */
function shop(ns: string, rest: string): Reply {
  const base = `/t/${ns}/shop/`;
  if (rest === '' || rest === 'index.html') return listing(ns);
  const p = /^p\/(\d+)\.html$/.exec(rest);
  if (p && Number(p[1]) >= 1 && Number(p[1]) <= SHOP_PRODUCTS) return product(ns, Number(p[1]));
  if (rest === 'about.html' || rest === 'company/about.html')
    return page('About', `<main><h1>About</h1><p>A shop of things. <a href="${base}">Shop</a></p></main>`);
  if (rest === 'a.html') return page('A', '<main><h1>A</h1><p>Page a.</p></main>', canonical(`${base}b.html`));
  if (rest === 'b.html') return page('B', '<main><h1>B</h1><p>Page b.</p></main>', canonical(`${base}a.html`));
  if (rest === 'away.html')
    return page('Away', '<main><h1>Away</h1></main>', canonical('http://elsewhere.invalid/away.html'));
  if (rest === 'gone.html') return page('Gone', '<main><h1>Gone</h1></main>', canonical(`${base}missing.html`));
  return { status: 404, headers: { 'content-type': 'text/plain' }, body: 'not found' };
}

/** The copies: a listing and COPIES pages of the same bytes. */
function copies(ns: string, rest: string): Reply {
  const base = `/t/${ns}/copies/`;
  if (rest === '') {
    const links = Array.from({ length: COPIES }, (_, i) => `<a href="${base}copy/${i + 1}.html">${i + 1}</a>`);
    return page('Copies', links.join(' '));
  }
  const m = /^copy\/(\d+)\.html$/.exec(rest);
  if (m && Number(m[1]) >= 1 && Number(m[1]) <= COPIES)
    return page('Copy', '<main><h1>The same page</h1><p>Every copy of it says exactly this.</p></main>');
  return { status: 404, headers: { 'content-type': 'text/plain' }, body: 'not found' };
}

/**
 * The lookalikes, by path after /t/<ns>/lookalikes/ (a listing links them all): same-1 and same-2, byte for byte one
 * page; titled-1 and titled-2, one heading and main text under their own titles; headed-1 and headed-2, one title and
 * main text (with a heading of its own) under their own first headings (in the page's header, outside its main
 * content); stock-1 to stock-3, a shop's "out of stock" template (the same main text) for three products, each with
 * its own title and heading.
 */
export const LOOKALIKES = {
  same: ['same-1', 'same-2'],
  titled: ['titled-1', 'titled-2'],
  headed: ['headed-1', 'headed-2'],
  stock: ['stock-1', 'stock-2', 'stock-3'],
} as const;

/** Main text long enough (140 characters and more) for extraction to take the main element alone. */
const SHARED =
  '<p>This paragraph is the whole main content of two pages, long enough for extraction to keep it alone: what ' +
  'else the pages hold (their header, its heading) is outside of it.</p>';
const NOTICE =
  '<main><h1>Out of stock</h1><p>This product is out of stock. Leave your address and we will write to you when ' +
  'it is back, with its price and the day it ships; nothing else is sent, and the address is forgotten then.</p></main>';

function lookalike(name: string): Reply | null {
  const n = name.slice(-1);
  if (name === 'same-1' || name === 'same-2')
    return page('Same', '<main><h1>Same</h1><p>One page served under two addresses.</p></main>');
  if (name === 'titled-1' || name === 'titled-2') return page(`Titled ${n}`, `<main><h1>Titled</h1>${SHARED}</main>`);
  if (name === 'headed-1' || name === 'headed-2')
    return page('Headed', `<header><h1>Heading ${n}</h1></header><main><h1>Shared</h1>${SHARED}</main>`);
  if (/^stock-[123]$/.test(name)) return page(`Mug ${n} | Shop`, `<header><h1>Mug ${n}</h1></header>${NOTICE}`);
  return null;
}

function lookalikes(ns: string, rest: string): Reply {
  const base = `/t/${ns}/lookalikes/`;
  const names = Object.values(LOOKALIKES).flat();
  if (rest === '') return page('Lookalikes', names.map((p) => `<a href="${base}${p}.html">${p}</a>`).join(' '));
  const found = /^([a-z]+-\d)\.html$/.exec(rest);
  return (
    (found && lookalike(found[1] ?? '')) || {
      status: 404,
      headers: { 'content-type': 'text/plain' },
      body: 'not found',
    }
  );
}

export function shopSite(ns: string, variant: string, rest: string): Reply {
  if (variant === 'lookalikes') return lookalikes(ns, rest);
  return variant === 'copies' ? copies(ns, rest) : shop(ns, rest);
}
