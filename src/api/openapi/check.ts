import type { MiddlewareHandler } from 'hono';
import { log } from '../../log';
import { errorBody } from '../errors';
import { errorSchema } from '../responses';
import type { DocumentedRoute } from './document';

const pattern = (path: string) => new RegExp(`^${path.replace(/:\w+/g, '[^/]+')}$`);

/** The documented route a request went to (literal segments before parameters), or undefined. */
function routeFor(routes: readonly DocumentedRoute[], method: string, path: string): DocumentedRoute | undefined {
  const matching = routes.filter((r) => r.method === method && pattern(r.path).test(path));
  return matching.sort((a, b) => (a.path.match(/:/g)?.length ?? 0) - (b.path.match(/:/g)?.length ?? 0))[0];
}

/** Why an answer does not match what its route documents, or null. Errors are checked against the error shape. */
export async function responseProblem(route: DocumentedRoute, res: Response): Promise<string | null> {
  const answer = route.doc?.responses[res.status];
  const isJson = /^application\/json\b/i.test(res.headers.get('content-type') ?? '');
  if (answer === undefined) {
    if (res.status < 400) return `status ${res.status} is not documented`;
    if (!isJson) return `error ${res.status} is not JSON`;
    const parsed = errorSchema.safeParse(await res.clone().json());
    return parsed.success ? null : `error ${res.status} is not {error:{code,message}}`;
  }
  if ('type' in answer) return null;
  if (!isJson) return `status ${res.status} should be JSON`;
  const parsed = answer.schema.safeParse(await res.clone().json());
  if (parsed.success) return null;
  return parsed.error.issues
    .slice(0, 3)
    .map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`)
    .join('; ');
}

/**
 * With CHECK_RESPONSES=true (the tests), every answer of a documented route is checked against its schema; one that
 * does not match becomes a 500 `response_mismatch`, so that any test that reaches it fails and says why.
 */
export function checkResponses(routes: () => readonly DocumentedRoute[]): MiddlewareHandler<{ Bindings: Env }> {
  return async (c, next) => {
    await next();
    // Firecrawl's answers (POST /v1/scrape and /v1/map with Firecrawl's body) are not edgecrawl's documented ones.
    if (c.env.CHECK_RESPONSES !== 'true' || c.res.status >= 500 || c.get('firecrawl')) return;
    const route = routeFor(routes(), c.req.method, c.req.path);
    if (!route) return;
    const problem = await responseProblem(route, c.res);
    if (problem === null) return;
    const message = `${c.req.method} ${route.path} answered ${c.res.status} unlike its documented schema: ${problem}`;
    log('error', 'response mismatch', { message });
    c.res = c.json(errorBody('response_mismatch', message), 500);
  };
}
