import { describe, expect, it } from 'vitest';
import { checkJsonSchema, validateAgainst } from '../../../src/domain/model/json-schema';

const product = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    price: { type: 'number' },
    tags: { type: 'array', items: { type: 'string' } },
  },
  required: ['name'],
};

describe('checkJsonSchema', () => {
  it('takes a schema of an object, with local references', () => {
    expect(checkJsonSchema(product)).toBeNull();
    expect(checkJsonSchema({})).toBeNull();
    const withRef = {
      type: 'object',
      properties: { a: { $ref: '#/$defs/n' } },
      $defs: { n: { type: ['number', 'null'] } },
    };
    expect(checkJsonSchema(withRef)).toBeNull();
    // A property named `type` is a name, not the keyword.
    expect(checkJsonSchema({ type: 'object', properties: { type: { type: 'string' } } })).toBeNull();
  });

  it('names what is wrong', () => {
    expect(checkJsonSchema(null)).toBe('the schema must be a JSON object');
    expect(checkJsonSchema([product])).toBe('the schema must be a JSON object');
    expect(checkJsonSchema('{}')).toBe('the schema must be a JSON object');
    expect(checkJsonSchema({ type: 'object', properties: { a: { type: 'strin' } } })).toMatch(
      /^\/properties\/a: "type" "strin" is not a JSON Schema type/,
    );
    expect(checkJsonSchema({ type: ['object', 7] })).toMatch(/^\/: "type" 7 is not a JSON Schema type/);
    expect(checkJsonSchema({ type: 'array' })).toMatch(/must describe a JSON object/);
    expect(checkJsonSchema({ properties: { a: { $ref: 'https://example.com/s.json' } } })).toMatch(
      /^\/properties\/a: "\$ref" "https:\/\/example.com\/s.json" is not local/,
    );
    expect(checkJsonSchema({ properties: { a: { $ref: '#/$defs/missing' } } })).toMatch(/points at nothing/);
    expect(checkJsonSchema({ properties: { a: { pattern: '(' } } })).toMatch(/"\(" is not a regular expression/);
    expect(checkJsonSchema({ properties: { a: 5 } })).toMatch(/a schema must be an object or a boolean/);
  });

  it('refuses a schema too big or too deep', () => {
    const big = { type: 'object', description: 'x'.repeat(16 * 1024) };
    expect(checkJsonSchema(big)).toMatch(/^the schema is 16\d{3} bytes as JSON, more than the 16384 allowed$/);
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 40; i++) deep = { type: 'object', properties: { a: deep } };
    expect(checkJsonSchema(deep)).toMatch(/^the schema nests deeper than 32 levels \(at \/properties\/a/);
    let fits: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 15; i++) fits = { type: 'object', properties: { a: fits } };
    expect(checkJsonSchema(fits)).toBeNull();
  });
});

describe('validateAgainst', () => {
  it('is null for a valid value', () => {
    expect(validateAgainst(product, { name: 'Lamp', price: 12.5, tags: ['a'] })).toBeNull();
  });

  it('tells the first errors on one line', () => {
    expect(validateAgainst(product, { name: 'Lamp', price: '12' })).toBe('/price: expected number, got string');
    expect(validateAgainst(product, { price: 3 })).toBe('/name: missing (required)');
    expect(validateAgainst(product, { name: 1, price: null, tags: ['a', 2] })).toBe(
      '/name: expected string, got integer; /price: expected number, got null; /tags/1: expected string, got integer',
    );
    expect(validateAgainst({ properties: { n: { type: ['number', 'null'] } } }, { n: 'x' })).toBe(
      '/n: expected number or null, got string',
    );
  });
});
