import type { RouterRoute } from 'hono/types';
import { errorSchema } from '../responses';
import { type JsonObject, SchemaSet } from './json-schema';
import { type ResponseDoc, type RouteDoc, type RoutePart, routePartOf } from './route-doc';

/** One route: its method and path (Hono's `:param` form) and what its handlers tell the document. */
export interface DocumentedRoute extends RoutePart {
  method: string;
  path: string;
}

/** The routes of an app with what their handlers declare, one entry per method and path (middleware for all left out). */
export function documentedRoutes(routes: readonly RouterRoute[]): DocumentedRoute[] {
  const byKey = new Map<string, DocumentedRoute>();
  for (const { method, path, handler } of routes) {
    if (method === 'ALL') continue;
    const key = `${method} ${path}`;
    const route = byKey.get(key) ?? { method, path };
    byKey.set(key, { ...route, ...routePartOf(handler) });
  }
  return [...byKey.values()];
}

const ERRORS: Record<number, string> = {
  400: 'Invalid input: the message says which field and why.',
  401: 'Missing or invalid bearer token.',
  404: 'No such crawl, schedule, page or file.',
  413: 'Request body too large.',
  415: 'The body is not JSON (Content-Type must be application/json).',
  503: 'API_TOKEN is not set on this Worker.',
};

/** The error answers a route has by its shape: input it validates, auth, an id in its path, a JSON body. */
function errorStatuses(route: DocumentedRoute, doc: RouteDoc): number[] {
  const statuses: number[] = [];
  if (route.query || route.json || route.path.includes('?')) statuses.push(400);
  if (!doc.public) statuses.push(401);
  if (/\/:\w+/.test(route.path)) statuses.push(404);
  if (route.json) statuses.push(413, 415);
  if (!doc.public) statuses.push(503);
  return statuses;
}

/** What bytes of a media type are: any JSON value for JSON (this document, a JSON-RPC answer), else bytes. */
const bytesSchema = (type: string): JsonObject =>
  /^application\/json\b/.test(type) ? {} : { type: 'string', format: 'binary' };

function response(schemas: SchemaSet, doc: ResponseDoc): JsonObject {
  if ('type' in doc) {
    const headers = Object.entries(doc.headers ?? {}).map(([name, description]) => [
      name,
      { description, schema: { type: 'string' } },
    ]);
    return {
      description: doc.description,
      ...(headers.length > 0 ? { headers: Object.fromEntries(headers) } : {}),
      content: { [doc.type]: { schema: bytesSchema(doc.type) } },
    };
  }
  return {
    description: doc.description,
    content: { 'application/json': { schema: schemas.convert(doc.schema, 'output') } },
  };
}

function parameters(schemas: SchemaSet, route: DocumentedRoute): JsonObject[] {
  const params: JsonObject[] = [...route.path.matchAll(/:(\w+)/g)].map((m) => ({
    name: m[1] ?? '',
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  if (!route.query) return params;
  const query = schemas.convert(route.query, 'input');
  const required = Array.isArray(query.required) ? query.required : [];
  const properties = query.properties;
  if (typeof properties !== 'object' || properties === null || Array.isArray(properties)) return params;
  for (const [name, schema] of Object.entries(properties)) {
    const description =
      typeof schema === 'object' && schema !== null && !Array.isArray(schema) ? schema.description : undefined;
    params.push({
      name,
      in: 'query',
      required: required.includes(name),
      schema,
      ...(description ? { description } : {}),
    });
  }
  return params;
}

function operation(schemas: SchemaSet, route: DocumentedRoute, doc: RouteDoc): JsonObject {
  const responses: JsonObject = {};
  for (const [status, answer] of Object.entries(doc.responses)) responses[status] = response(schemas, answer);
  for (const status of errorStatuses(route, doc))
    responses[status] ??= response(schemas, { description: ERRORS[status] ?? 'Error', schema: errorSchema });
  const body: JsonObject = {};
  if (route.json)
    body.requestBody = {
      required: !route.jsonOptional,
      content: { 'application/json': { schema: schemas.convert(route.json, 'input') } },
    };
  return {
    operationId: operationId(route),
    summary: doc.summary,
    ...(doc.description ? { description: doc.description } : {}),
    tags: [doc.tag],
    ...(doc.deprecated ? { deprecated: true } : {}),
    ...(doc.public ? { security: [] } : {}),
    parameters: parameters(schemas, route),
    ...body,
    responses,
  };
}

/** `GET /v1/crawls/:id/pages` → `getCrawlsIdPages`: stable, readable, unique per method and path. */
function operationId(route: DocumentedRoute): string {
  const words = route.path
    .replace(/^\/v1\//, '')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
  return [route.method.toLowerCase(), ...words.map((w) => w[0]?.toUpperCase() + w.slice(1))].join('');
}

const path = (route: DocumentedRoute) => route.path.replace(/:(\w+)/g, '{$1}');

/** The OpenAPI 3.1 document of `routes`; a route with no doc is listed as such (a test keeps there being none). */
export function openApiDocument(routes: readonly DocumentedRoute[], info: JsonObject, tags: JsonObject[]): JsonObject {
  const schemas = new SchemaSet();
  // Answers first: where a request's named schema differs from an answer's, the request's is the one renamed.
  for (const route of routes)
    for (const answer of Object.values(route.doc?.responses ?? {}))
      if ('schema' in answer) schemas.convert(answer.schema, 'output');
  const paths: Record<string, JsonObject> = {};
  for (const route of routes) {
    const doc = route.doc ?? { summary: '(undocumented)', tag: 'undocumented', responses: {} };
    const item = paths[path(route)] ?? {};
    item[route.method.toLowerCase()] = operation(schemas, route, doc);
    paths[path(route)] = item;
  }
  return {
    openapi: '3.1.0',
    info,
    servers: [{ url: '/' }],
    tags,
    security: [{ bearerAuth: [] }],
    paths,
    components: {
      schemas: schemas.components,
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'The API_TOKEN secret of the Worker.' },
      },
    },
  };
}
