/**
 * docs/openapi.json (the document GET /v1/openapi.json serves; test/integration/openapi.test.ts keeps the two equal)
 * is a valid OpenAPI 3.1 document, checked against the specification's own JSON Schema.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';

const path = resolve(import.meta.dirname, '../../docs/openapi.json');

describe('docs/openapi.json', () => {
  it('validates as OpenAPI 3.1', async () => {
    const validator = new Validator();
    const result = await validator.validate(JSON.parse(readFileSync(path, 'utf8')));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });
});
