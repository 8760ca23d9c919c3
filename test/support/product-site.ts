/**
 * Product pages for the model step (formats json and summary, test/integration/model.test.ts), under
 * /t/<ns>/products/: a listing linking PRODUCTS pages p/<n>.html, each with its name (the heading), price, SKU and
 * stock as "Label: value" items of a list, and a description. The fake model (fake-llm.ts) answers from what it reads of them,
 * as a model would. Page 2 carries MALFORMED-FIRST-ANSWER (the first answer for it is not JSON), page 3
 * RATE-LIMIT-FIRST (the first request for it is answered 429).
 */

type Reply = { status: number; headers?: Record<string, string>; body?: string };

export const PRODUCTS = 6;

/** What a product page says of itself: what its JSON must hold. */
export const productFacts = (n: number) => ({
  name: `Lamp ${n}`,
  price: n * 10 + 0.5,
  sku: `SKU-${String(n).padStart(4, '0')}`,
  inStock: n % 2 === 1,
});

/** The JSON Schema the tests ask for. */
export const PRODUCT_SCHEMA = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    price: { type: 'number' },
    sku: { type: 'string' },
    inStock: { type: 'boolean' },
  },
  required: ['name', 'price', 'sku'],
};

const html = (title: string, body: string): Reply => ({
  status: 200,
  headers: { 'content-type': 'text/html; charset=utf-8' },
  body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`,
});

const trigger = (n: number) => (n === 2 ? 'MALFORMED-FIRST-ANSWER' : n === 3 ? 'RATE-LIMIT-FIRST' : '');

function product(ns: string, n: number): Reply {
  const f = productFacts(n);
  return html(
    f.name,
    `<main><h1>${f.name}</h1>
<ul class="facts"><li>Price: ${f.price.toFixed(2)}</li><li>SKU: ${f.sku}</li><li>In stock: ${f.inStock ? 'yes' : 'no'}</li></ul>
<p>The ${f.name} is a desk lamp with a brass arm and a linen shade. It lights a desk evenly. ${trigger(n)}</p>
<p><a href="/t/${ns}/products/">All products</a></p></main>`,
  );
}

/** The products site's pages, by path after /t/<ns>/products/. */
export function productSite(ns: string, rest: string): Reply {
  if (rest === '') {
    const links = Array.from({ length: PRODUCTS }, (_, i) => `<li><a href="p/${i + 1}.html">Lamp ${i + 1}</a></li>`);
    return html('Lamps', `<main><h1>Lamps</h1><p>Our lamps, all of them.</p><ul>${links.join('')}</ul></main>`);
  }
  const p = /^p\/(\d+)\.html$/.exec(rest);
  if (p && Number(p[1]) >= 1 && Number(p[1]) <= PRODUCTS) return product(ns, Number(p[1]));
  return { status: 404, headers: { 'content-type': 'text/plain' }, body: 'not found' };
}
