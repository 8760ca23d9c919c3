import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SchemaSet } from '../../src/api/openapi/json-schema';

describe('the JSON Schemas of the OpenAPI document', () => {
  it('keeps a property named id (only the id keyword of a named schema is dropped)', () => {
    const set = new SchemaSet();
    const item = z.object({ id: z.string(), status: z.string() }).meta({ id: 'Thing' });
    const converted = set.convert(z.object({ id: z.uuid(), items: z.array(item) }), 'output');
    expect(converted.properties).toMatchObject({ id: { type: 'string', format: 'uuid' } });
    expect(set.components.Thing).toMatchObject({
      properties: { id: { type: 'string' }, status: { type: 'string' } },
      required: ['id', 'status'],
    });
    expect(JSON.stringify(set.components)).not.toMatch(/"id":"Thing"/);
  });
});
