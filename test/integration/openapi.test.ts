import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/api/app';
import { isFirecrawlPath } from '../../src/api/firecrawl/errors';
import { responseProblem } from '../../src/api/openapi/check';
import { documentedRoutes } from '../../src/api/openapi/document';
import { api } from '../support/api';

interface Operation {
  summary: string;
  tags: string[];
  responses: Record<string, { content?: Record<string, unknown> }>;
  parameters: { name: string; in: string; required: boolean }[];
  requestBody?: { content: Record<string, { schema: unknown }> };
}
type Document = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> };
};

async function document(): Promise<Document> {
  const res = await api('/v1/openapi.json', { token: null });
  expect(res.status).toBe(200);
  return res.json();
}

describe('the OpenAPI document', () => {
  it('is public, OpenAPI 3.1, and lists every route of the app with a summary and its answers', async () => {
    const doc = await document();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    // Firecrawl's API (docs/firecrawl.md) is Firecrawl's, not in this document.
    const routes = createApp()
      .routes.filter((r) => r.method !== 'ALL' && !isFirecrawlPath(r.path))
      .map((r) => `${r.method} ${r.path.replace(/:(\w+)/g, '{$1}')}`);
    const listed = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(new Set(listed)).toEqual(new Set(routes));
    for (const [path, item] of Object.entries(doc.paths))
      for (const [method, op] of Object.entries(item)) {
        expect(op.summary, `${method} ${path}`).not.toBe('(undocumented)');
        expect(
          Object.keys(op.responses).some((s) => /^2/.test(s)),
          `${method} ${path} has a 2xx answer`,
        ).toBe(true);
      }
  });

  it('describes inputs from the schemas that validate them, and errors as one shape', async () => {
    const doc = await document();
    const start = doc.paths['/v1/crawls']?.post;
    const body = start?.requestBody?.content['application/json']?.schema;
    expect(body).toEqual({ $ref: '#/components/schemas/CrawlSettings' });
    const settings = doc.components.schemas.CrawlSettings as { required: string[]; properties: object };
    expect(settings.required).toEqual(['seeds']);
    expect(Object.keys(settings.properties)).toEqual(
      expect.arrayContaining(['seeds', 'maxPages', 'extract', 'render']),
    );
    expect(start?.responses['400']?.content?.['application/json']).toEqual({
      schema: { $ref: '#/components/schemas/Error' },
    });
    const pages = doc.paths['/v1/crawls/{id}/pages']?.get;
    expect(pages?.parameters.map((p) => `${p.in}:${p.name}`)).toEqual([
      'path:id',
      'query:limit',
      'query:cursor',
      'query:order',
      'query:q',
      'query:duplicates',
      'query:status',
      'query:contentType',
      'query:change',
      'query:rendered',
      'query:outcome',
      'query:text',
    ]);
    expect(pages?.responses['401']).toBeDefined();
    expect(pages?.responses['404']).toBeDefined();
    // No reference points at nothing.
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]);
    for (const ref of refs) expect(doc.components.schemas[ref ?? ''], ref).toBeDefined();
  });

  it('is the one in docs/openapi.json (regenerate with `npx vitest run --project workers test/integration/openapi.test.ts --update`)', async () => {
    await expect(`${JSON.stringify(await document(), null, 2)}\n`).toMatchFileSnapshot('../../docs/openapi.json');
  });
});

describe('the response check', () => {
  const route = documentedRoutes(createApp().routes).find((r) => r.method === 'GET' && r.path === '/v1/crawls/:id');
  const json = (body: unknown, status = 200) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

  it('finds an answer unlike its schema, an undocumented status, and an error of another shape', async () => {
    if (!route) throw new Error('no GET /v1/crawls/:id route');
    expect(await responseProblem(route, json({ id: 'x', status: 'running' }))).toMatch(/^id: /);
    expect(await responseProblem(route, json({}, 206))).toBe('status 206 is not documented');
    expect(await responseProblem(route, json({ message: 'no' }, 404))).toMatch(/not \{error/);
    expect(await responseProblem(route, json({ error: { code: 'not_found', message: 'no' } }, 404))).toBeNull();
  });
});
