import type { MiddlewareHandler } from 'hono';
import { ApiError } from './errors';

async function sha256(text: string): Promise<ArrayBuffer> {
  return crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
}

/** Compares two secrets in constant time (hashing first makes the lengths equal). */
export async function safeEqual(a: string, b: string): Promise<boolean> {
  const [ha, hb] = await Promise.all([sha256(a), sha256(b)]);
  return crypto.subtle.timingSafeEqual(ha, hb);
}

/**
 * Bearer-token auth. Without a configured token the API refuses to work (503) instead of being open.
 */
export function bearerAuth(getToken: (env: Env) => string | undefined): MiddlewareHandler<{ Bindings: Env }> {
  return async (c, next) => {
    const expected = getToken(c.env);
    if (!expected)
      throw new ApiError(
        503,
        'not_configured',
        'API_TOKEN is not set on this Worker; set it with `wrangler secret put API_TOKEN`',
      );
    const header = c.req.header('authorization') ?? '';
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match || !(await safeEqual(match[1] as string, expected))) {
      const err = new ApiError(401, 'unauthorized', 'missing or invalid bearer token');
      throw err;
    }
    await next();
  };
}
