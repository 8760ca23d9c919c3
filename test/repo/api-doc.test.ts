/**
 * The figures docs/api.md gives of the OpenAPI document hold for the document served: GET /v1/openapi.json answers
 * docs/openapi.json (test/integration/openapi.test.ts keeps the two equal) as `c.json` writes it, without indentation.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

describe('docs/api.md', () => {
  it('gives the size of the OpenAPI document as served, within 10%', () => {
    const served = new TextEncoder().encode(JSON.stringify(JSON.parse(read('docs/openapi.json')))).byteLength;
    const said = /The document \((\d+) KB of JSON/.exec(read('docs/api.md'))?.[1];
    expect(said, 'docs/api.md: "The document (… KB of JSON …)"').toBeDefined();
    expect(Number(said) * 1000).toBeGreaterThanOrEqual(served * 0.9);
    expect(Number(said) * 1000).toBeLessThanOrEqual(served * 1.1);
  });
});
