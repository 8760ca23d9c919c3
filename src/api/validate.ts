import type { Context } from 'hono';
import type { z } from 'zod';
import { ApiError, badRequest } from './errors';

/** Turns zod issues into one readable sentence: "seeds.0: Invalid URL; maxPages: Too big". */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.length ? issue.path.join('.') : '(body)'}: ${issue.message}`)
    .join('; ');
}

export function parseWith<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw badRequest(`invalid ${what}: ${describeIssues(result.error)}`);
  return result.data;
}

/** Reads a JSON body and validates it; malformed JSON and schema violations are 400s. */
export async function jsonBody<S extends z.ZodType>(c: Context, schema: S): Promise<z.output<S>> {
  const type = c.req.header('content-type') ?? '';
  if (!/^application\/(.+\+)?json\b/i.test(type)) throw new ApiError(415, 'unsupported_media_type', 'Content-Type must be application/json');
  let raw: unknown;
  try {
    raw = JSON.parse(await c.req.text());
  } catch {
    throw badRequest('request body is not valid JSON', 'invalid_json');
  }
  return parseWith(schema, raw, 'request body');
}
