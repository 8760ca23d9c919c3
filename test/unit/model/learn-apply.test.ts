import { describe, expect, it } from 'vitest';
import { applyLearned, checkLearned, expectedOf } from '../../../src/domain/model/learned';

const SCHEMA = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    price: { type: 'number' },
    stock: { type: 'integer' },
    inStock: { type: 'boolean' },
    colors: { type: 'array', items: { type: 'string' } },
    seller: { type: 'object', properties: { name: { type: 'string' }, rating: { type: ['number', 'null'] } } },
    rating: { type: 'number' },
  },
  required: ['name', 'price'],
};

const FIELDS = {
  name: { selector: 'h1' },
  price: { selector: '.price' },
  stock: { selector: '.stock' },
  inStock: { selector: '.availability' },
  colors: { selector: '.colors li', list: true },
  seller: { selector: '.seller', fields: { name: { selector: 'b' }, rating: { selector: 'i' } } },
  rating: { selector: '.rating' },
};

const page = (price: string, extra = '') => `<html><body><h1> Red
  shoe </h1><p class="price">€1.299,50</p>${price}<span class="stock">12 left</span>
<span class="availability">In stock</span><ul class="colors"><li>red</li><li> blue </li></ul>
<div class="seller"><b>Acme</b><i>4.5</i></div>${extra}</body></html>`;

describe('applyLearned', () => {
  it('reads the page and coerces to the schema: numbers, integers, booleans, lists, nested objects', () => {
    expect(applyLearned(FIELDS, page(''), 'https://s.test/p/1.html', SCHEMA)).toEqual({
      ok: true,
      json: {
        name: 'Red shoe',
        price: 1299.5,
        stock: 12,
        inStock: true,
        colors: ['red', 'blue'],
        seller: { name: 'Acme', rating: 4.5 },
      },
    });
  });

  it('falls back when a required property has no value', () => {
    const html = page('').replace('<p class="price">€1.299,50</p>', '<p class="cost">€3</p>');
    expect(applyLearned(FIELDS, html, 'https://s.test/p/2.html', SCHEMA)).toEqual({
      ok: false,
      why: 'no value for price',
    });
  });

  it('falls back when the reading is not valid against the schema', () => {
    const html = page('').replace('12 left', '1.5 left');
    const applied = applyLearned(FIELDS, html, 'https://s.test/p/3.html', SCHEMA);
    expect(applied.ok).toBe(false);
    expect(applied.ok ? '' : applied.why).toMatch(/^not valid against the schema: #\/stock/);
  });

  it('expects what the schema requires, or else what the samples always had', () => {
    expect(expectedOf(SCHEMA, [])).toEqual(['name', 'price']);
    const loose = { ...SCHEMA, required: [] };
    const samples = [{ json: { name: 'A', price: 1, rating: null } }, { json: { name: 'B', price: 2, rating: 4 } }];
    expect(expectedOf(loose, samples)).toEqual(['name', 'price']);
    const html = page('').replace('<h1>', '<h2>').replace('</h1>', '</h2>');
    expect(applyLearned(FIELDS, html, 'https://s.test/p/4.html', loose, expectedOf(loose, samples)).ok).toBe(false);
  });
});

describe('checkLearned', () => {
  const answer = {
    name: 'red shoe',
    price: 1299.5,
    stock: 12,
    inStock: true,
    colors: ['Red', 'blue'],
    seller: { name: 'ACME', rating: 4.5 },
  };
  const samples = [1, 2].map((n) => ({ url: `https://s.test/p/${n}.html`, html: page(''), json: answer }));

  it('agrees after normalising whitespace, case and number formats', () => {
    expect(checkLearned(FIELDS, samples, SCHEMA)).toEqual({ agreement: 1, mismatches: [], accepted: true });
  });

  it('counts the fields that differ and names them', () => {
    const wrong = [...samples, { url: 'https://s.test/p/3.html', html: page(''), json: { ...answer, price: 1300 } }];
    const check = checkLearned(FIELDS, wrong, SCHEMA);
    expect(check.agreement).toBeCloseTo(17 / 18);
    expect(check.mismatches).toEqual(['https://s.test/p/3.html: price read 1299.5, the answer has 1300']);
    expect(check.accepted).toBe(true);
  });

  it('refuses selectors that miss a required property on a sample, however well the rest agrees', () => {
    const many = Array.from({ length: 12 }, (_, n) => ({
      url: `https://s.test/p/${n}.html`,
      html: page(''),
      json: answer,
    }));
    const html = page('').replace('<p class="price">€1.299,50</p>', '<p>€1.299,50</p>');
    const check = checkLearned(FIELDS, [...many, { url: 'https://s.test/p/99.html', html, json: answer }], SCHEMA);
    expect(check.agreement).toBeCloseTo(77 / 78);
    expect(check.accepted).toBe(false);
    expect(check.mismatches).toEqual(['https://s.test/p/99.html: price read nothing, the answer has 1299.5']);
  });
});
