/**
 * A generated shop of a few page templates, for selectors written by the model (issue 33): 300 product pages of one
 * layout under /p/<n>.html (classes), 200 of another under /item/<slug> (microdata, a spec list), category pages
 * /c/<name>, /about and /. Deterministic: each product from a seeded generator. shopTruth(path) is what a perfect
 * extractor returns for PRODUCT_SCHEMA (null on pages that show no product).
 *
 * Some pages deviate from their template, as real shops do: every 37th product has no price block (its price only in
 * the description: learned selectors find none and the page goes to the model), every 41st is on sale (layout A: the
 * old and the new price both `.amount`, which a selector reads as ambiguous; layout B: the old price struck through
 * inside the itemprop="price" element, which a selector reads as the old price, wrongly), every 5th has no rating.
 */

export const SHOP_ORIGIN = 'https://shop.test';
const A_PRODUCTS = 300;
const B_PRODUCTS = 200;
const CATEGORIES = ['lamps', 'chairs', 'tables', 'rugs', 'vases', 'mirrors'];

export const PRODUCT_SCHEMA = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    price: { type: 'number' },
    currency: { type: 'string' },
    sku: { type: 'string' },
    inStock: { type: 'boolean' },
    colors: { type: 'array', items: { type: 'string' } },
    rating: { type: 'number' },
  },
  required: ['name', 'price', 'currency', 'sku', 'inStock', 'colors'],
  additionalProperties: false,
};

export interface Product {
  name: string;
  price: number;
  currency: string;
  sku: string;
  inStock: boolean;
  colors: string[];
  rating?: number;
}

interface Item {
  product: Product;
  layout: 'a' | 'b';
  n: number;
  category: string;
  noPrice: boolean;
  sale: number | null;
}

/** mulberry32: a small seeded generator, the same numbers on every run. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ADJECTIVES = ['Oak', 'Linen', 'Brass', 'Walnut', 'Velvet', 'Marble', 'Rattan', 'Copper', 'Ash', 'Wool'];
const NOUNS = ['Lamp', 'Chair', 'Table', 'Rug', 'Vase', 'Mirror', 'Stool', 'Shelf', 'Bench', 'Clock'];
const COLORS = ['Red', 'Blue', 'Green', 'Sand', 'Black', 'White', 'Ochre', 'Teal'];
const CURRENCIES = ['EUR', 'USD', 'GBP'];
const SYMBOLS: Record<string, string> = { EUR: '€', USD: '$', GBP: '£' };

function makeItem(layout: 'a' | 'b', n: number): Item {
  const next = random(n * 2 + (layout === 'a' ? 0 : 1) + 7);
  const pick = <T>(list: T[]): T => list[Math.floor(next() * list.length)] as T;
  const name = `${pick(ADJECTIVES)} ${pick(NOUNS)} ${layout === 'a' ? n : `No. ${n}`}`;
  const price = Math.round((5 + next() * 400) * 100) / 100;
  const colors = [...new Set(Array.from({ length: 1 + Math.floor(next() * 3) }, () => pick(COLORS)))];
  const rating = Math.round((1 + next() * 4) * 10) / 10;
  const product: Product = {
    name,
    price,
    currency: CURRENCIES[n % 3] as string,
    sku: layout === 'a' ? `SKU-${1000 + n}` : `B${String(n).padStart(5, '0')}`,
    inStock: next() < 0.8,
    colors,
    ...(n % 5 === 0 ? {} : { rating }),
  };
  const sale = n % 41 === 7 ? Math.round(price * 130) / 100 : null;
  return { product, layout, n, category: CATEGORIES[n % CATEGORIES.length] as string, noPrice: n % 37 === 5, sale };
}

const slug = (item: Item) => `${item.product.name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
const pathOf = (item: Item) => (item.layout === 'a' ? `/p/${item.n}.html` : `/item/${slug(item)}`);

const ITEMS: Item[] = [
  ...Array.from({ length: A_PRODUCTS }, (_, i) => makeItem('a', i + 1)),
  ...Array.from({ length: B_PRODUCTS }, (_, i) => makeItem('b', i + 1)),
];
const BY_PATH = new Map(ITEMS.map((item) => [pathOf(item), item]));

/** Every page of the shop: products of both layouts, then categories, /about and /. */
export function shopPaths(): string[] {
  return [...BY_PATH.keys(), ...CATEGORIES.map((c) => `/c/${c}`), '/about', '/'];
}

/** What a perfect extractor returns for PRODUCT_SCHEMA on this page; null when the page shows no product. */
export function shopTruth(path: string): Product | null {
  const item = BY_PATH.get(path);
  return item ? structuredClone(item.product) : null;
}

const money = (value: number) => value.toFixed(2);

const frame = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title} — Template Shop</title>
<meta name="viewport" content="width=device-width"><link rel="stylesheet" href="/shop.css">
<style>.price{font-weight:bold}.swatches li{display:inline}</style>
<script>window.dataLayer=[];function track(e){window.dataLayer.push(e)}</script></head>
<body><header class="site-header"><a class="logo" href="/">Template Shop</a><nav class="menu">${CATEGORIES.map(
    (c) => `<a href="/c/${c}">${c}</a>`,
  ).join(' ')} <a href="/about">About</a></nav></header>
${body}
<footer class="site-footer"><p>© Template Shop. Prices include VAT.</p><!-- build 42 --></footer></body></html>`;

function description(item: Item): string {
  const { product } = item;
  const words = `The ${product.name} is made by hand in small batches, finished with care and shipped flat.`;
  const price = item.noPrice ? ` Today only: ${money(product.price)} ${product.currency}.` : '';
  return `<div class="description"><h2>Details</h2><p>${words}${price}</p><p>Care: wipe with a dry cloth.</p></div>`;
}

function related(item: Item): string {
  const others = [1, 2, 3].map((k) => ITEMS[(ITEMS.indexOf(item) + k * 17) % ITEMS.length] as Item);
  const li = (o: Item) =>
    `<li><a href="${pathOf(o)}">${o.product.name}</a> <span class="amount">${money(o.product.price)}</span></li>`;
  return `<aside class="related"><h2>You may also like</h2><ul>${others.map(li).join('')}</ul></aside>`;
}

function layoutA(item: Item): string {
  const { product: p } = item;
  const amount = item.sale
    ? `<del><span class="amount">${money(item.sale)}</span></del> <ins><span class="amount">${money(p.price)}</span></ins>`
    : `<span class="amount">${money(p.price)}</span>`;
  const price = item.noPrice ? '' : `<p class="price">${amount} <span class="currency">${p.currency}</span></p>`;
  const rating = p.rating === undefined ? '' : `<div class="rating">Rated <b>${p.rating}</b> of 5</div>`;
  return frame(
    p.name,
    `<main><div class="product-page" data-product="${item.n}">
<h1 class="product-title">${p.name}</h1>
<div class="sku">SKU: <span class="sku-code">${p.sku}</span></div>
${price}
<p class="stock">${p.inStock ? 'In stock' : 'Out of stock'}</p>
<ul class="swatches">${p.colors.map((c) => `<li>${c}</li>`).join('')}</ul>
${rating}
${description(item)}
</div></main>
${related(item)}`,
  );
}

function layoutB(item: Item): string {
  const { product: p } = item;
  const symbol = SYMBOLS[p.currency] ?? '';
  const shown = item.sale
    ? `<s>${symbol}${money(item.sale)}</s> ${symbol}${money(p.price)}`
    : `${symbol}${money(p.price)}`;
  const offer = item.noPrice
    ? ''
    : `<div itemprop="offers" itemscope itemtype="https://schema.org/Offer"><span itemprop="price" content="${money(p.price)}">${shown}</span><meta itemprop="priceCurrency" content="${p.currency}"></div>`;
  const rating = p.rating === undefined ? '' : `<dt>Reviews</dt><dd>${p.rating} / 5</dd>`;
  return frame(
    p.name,
    `<div id="app"><div class="crumbs"><a href="/">Home</a> › <a href="/c/${item.category}">${item.category}</a></div>
<article itemscope itemtype="https://schema.org/Product">
<div class="media"><img src="/img/${slug(item)}.jpg" alt="${p.name}" width="600" height="600"></div>
<section class="buy-box"><h1 itemprop="name">${p.name}</h1>
${offer}
<span class="availability">${p.inStock ? 'Available' : 'Sold out'}</span>
<div class="options">Colours: ${p.colors.map((c) => `<span class="color">${c}</span>`).join(' ')}</div>
</section>
<dl class="specs"><dt>Item number</dt><dd>${p.sku}</dd><dt>Currency</dt><dd>${p.currency}</dd>${rating}</dl>
${description(item)}
</article>
${related(item)}</div>`,
  );
}

function category(name: string): string {
  const items = ITEMS.filter((item) => item.category === name);
  const li = (o: Item) =>
    `<li class="card"><a href="${pathOf(o)}">${o.product.name}</a> <span class="amount">${money(o.product.price)}</span></li>`;
  return frame(name, `<main><h1>${name}</h1><ul class="grid">${items.map(li).join('')}</ul></main>`);
}

/** The page's HTML, or null when the shop has no such page. */
export function shopPage(path: string): string | null {
  const item = BY_PATH.get(path);
  if (item) return item.layout === 'a' ? layoutA(item) : layoutB(item);
  const c = /^\/c\/([a-z]+)$/.exec(path)?.[1];
  if (c && CATEGORIES.includes(c)) return category(c);
  if (path === '/about') return frame('About', '<main><h1>About us</h1><p>A shop of generated pages.</p></main>');
  if (path === '/')
    return frame(
      'Home',
      `<main><h1>Template Shop</h1>${CATEGORIES.map((x) => `<a href="/c/${x}">${x}</a>`).join(' ')}</main>`,
    );
  return null;
}
