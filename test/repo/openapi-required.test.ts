/** Every property a schema of docs/openapi.json requires is one it defines: a generated client types it. */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** "path: name" for each name in `required` that `properties` lacks, anywhere in the document. */
function undefinedRequired(value: Json, path: string): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => undefinedRequired(v, `${path}/${i}`));
  if (value === null || typeof value !== 'object') return [];
  const own: string[] = [];
  const { required, properties } = value;
  if (Array.isArray(required) && properties && typeof properties === 'object' && !Array.isArray(properties))
    for (const name of required) if (typeof name === 'string' && !(name in properties)) own.push(`${path}: ${name}`);
  return [...own, ...Object.entries(value).flatMap(([k, v]) => undefinedRequired(v, `${path}/${k}`))];
}

describe('docs/openapi.json', () => {
  it('defines every property it requires', () => {
    const doc = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../docs/openapi.json'), 'utf8')) as Json;
    expect(undefinedRequired(doc, '')).toEqual([]);
  });
});
