import { describe, expect, it } from 'vitest';
import { allowedMethods } from '../../src/api/allowed-methods';
import { createApp } from '../../src/api/app';

const ROUTES = [
  { method: 'ALL', path: '/v1/*' },
  { method: 'GET', path: '/v1/crawls' },
  { method: 'POST', path: '/v1/crawls' },
  { method: 'GET', path: '/v1/crawls/:id' },
  { method: 'DELETE', path: '/v1/crawls/:id' },
];

describe('allowedMethods', () => {
  it('lists the methods of the routes matching a path, HEAD with GET, middleware left out', () => {
    expect(allowedMethods(ROUTES, '/v1/crawls')).toEqual(['GET', 'HEAD', 'POST']);
    expect(allowedMethods(ROUTES, '/v1/crawls/abc')).toEqual(['DELETE', 'GET', 'HEAD']);
    expect(allowedMethods(ROUTES, '/v1/crawls/abc/pages')).toEqual([]);
    expect(allowedMethods(ROUTES, '/v1/nothing')).toEqual([]);
  });
});

describe('the API on a wrong method', () => {
  const app = createApp();
  const env = { API_TOKEN: 'secret' } as Env;
  const headers = { authorization: 'Bearer secret' };

  it('answers 405 with Allow where the path exists, 404 where it does not', async () => {
    const put = await app.request('/v1/crawls', { method: 'PUT', headers }, env);
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, HEAD, POST');
    expect(await put.json()).toEqual({
      error: { code: 'method_not_allowed', message: 'PUT is not allowed on /v1/crawls; allowed: GET, HEAD, POST' },
    });
    const missing = await app.request('/v1/nope', { method: 'GET', headers }, env);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('allow')).toBeNull();
  });
});
