import type { MiddlewareHandler } from 'hono';
import type { z } from 'zod';

/**
 * An answer of a route: a JSON schema, or a media type for bytes (bodies, screenshots, exports), with the headers it
 * may carry (name → what it says).
 */
export type ResponseDoc =
  | { description: string; schema: z.ZodType }
  | { description: string; type: string; headers?: Record<string, string> };

/** What the OpenAPI document says of a route beyond its inputs (which the validators declare themselves). */
export interface RouteDoc {
  summary: string;
  description?: string;
  tag: string;
  /** Its answers but errors: each route's error answers are derived (400 with input, 401, 404 on an :id, ...). */
  responses: Record<number, ResponseDoc>;
  deprecated?: boolean;
  /** Answers without a token. */
  public?: boolean;
}

/** What one handler of a route tells the document: its doc, or the input it validates. */
export interface RoutePart {
  doc?: RouteDoc;
  query?: z.ZodType;
  json?: z.ZodType;
  /** An empty body is accepted (it stands for a default). */
  jsonOptional?: boolean;
}

const parts = new WeakMap<object, RoutePart>();

/** Marks a handler with what it tells the document (the handler itself is unchanged). */
export function withRoutePart<H extends object>(handler: H, part: RoutePart): H {
  parts.set(handler, part);
  return handler;
}

/** The route's documentation, as a middleware that does nothing but carry it: `.get('/x', routeDoc({...}), ...)`. */
export function routeDoc(doc: RouteDoc): MiddlewareHandler {
  return withRoutePart<MiddlewareHandler>(
    async (_c, next) => {
      await next();
    },
    { doc },
  );
}

export const routePartOf = (handler: object): RoutePart | undefined => parts.get(handler);

/** A JSON answer: `json('the crawl', crawlSchema)`. */
export const json = (description: string, schema: z.ZodType): ResponseDoc => ({ description, schema });
/** Bytes of a media type, and the headers they may come with. */
export const bytes = (description: string, type: string, headers?: Record<string, string>): ResponseDoc => ({
  description,
  type,
  ...(headers ? { headers } : {}),
});
