import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { log } from '../log';

/** An API error with a stable machine-readable code; rendered once, in app.onError. */
export class ApiError extends HTTPException {
  constructor(
    status: ContentfulStatusCode,
    readonly code: string,
    message: string,
  ) {
    super(status, { message });
  }
}

export const badRequest = (message: string, code = 'invalid_request') => new ApiError(400, code, message);
export const notFound = (message: string) => new ApiError(404, 'not_found', message);

const CODE_BY_STATUS: Record<number, string> = {
  400: 'invalid_request',
  401: 'unauthorized',
  404: 'not_found',
  405: 'method_not_allowed',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
};

export function errorBody(code: string, message: string) {
  return { error: { code, message } };
}

/** app.onError: every error becomes `{ error: { code, message } }`; unexpected ones are a logged 500. */
export function renderError(err: Error, c: Context): Response {
  if (err instanceof HTTPException) {
    const code = err instanceof ApiError ? err.code : (CODE_BY_STATUS[err.status] ?? 'error');
    const headers = err.res?.headers.get('www-authenticate');
    const response = c.json(errorBody(code, err.message || code), err.status);
    if (headers) response.headers.set('www-authenticate', headers);
    return response;
  }
  log('error', 'unhandled error', { path: c.req.path, error: String(err), stack: err.stack });
  return c.json(errorBody('internal', 'internal error'), 500);
}
