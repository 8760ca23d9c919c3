import { z } from 'zod';

/** Runs a request through the Worker's own app, in this isolate (the `/v1` routes, their validation and errors). */
export type AppFetch = (request: Request) => Promise<Response>;

/** An API answer as a tool reads it: the body of a 2xx (and its headers), or the API's error message. */
export type ApiReply = { ok: true; text: string; headers: Headers } | { ok: false; message: string };

const apiErrorSchema = z.object({ error: z.object({ code: z.string(), message: z.string() }) });

/** A tool's way to the API: calls authenticated as the MCP request was (the caller's own bearer token). */
export interface ApiClient {
  get(path: string): Promise<ApiReply>;
  post(path: string, body: unknown): Promise<ApiReply>;
}

export function apiClient(appFetch: AppFetch, origin: string, authorization: string): ApiClient {
  const call = async (path: string, init: RequestInit): Promise<ApiReply> => {
    const headers = new Headers(init.headers);
    headers.set('authorization', authorization);
    const response = await appFetch(new Request(new URL(path, origin), { ...init, headers }));
    const text = await response.text();
    if (response.ok) return { ok: true, text, headers: response.headers };
    return { ok: false, message: errorMessage(response.status, text) };
  };
  return {
    get: (path) => call(path, { method: 'GET' }),
    post: (path, body) =>
      call(path, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  };
}

/** "invalid_request (400): invalid request body: url: ...": the API's own error, its code and status first. */
function errorMessage(status: number, text: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const error = apiErrorSchema.safeParse(parsed);
  if (error.success) return `${error.data.error.code} (${status}): ${error.data.error.message}`;
  return `HTTP ${status}: ${text.slice(0, 500)}`;
}

/** Reads a 2xx JSON body with `schema` (the parts a tool shows); a body of another shape is an internal error. */
export function readJson<S extends z.ZodType>(text: string, schema: S): z.output<S> {
  return schema.parse(JSON.parse(text));
}
