/** Answers for paths that exist under other methods: 405 with `Allow`, not 404 (RFC 9110 §15.5.6). */

interface Route {
  method: string;
  path: string;
}

/** A Hono route path as a regular expression: `:name` is one segment, `*` anything. */
function pattern(path: string): RegExp {
  const source = path
    .split('/')
    .map((part) => (part.startsWith(':') ? '[^/]+' : part === '*' ? '.*' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}/?$`);
}

/** The methods the routes answer at `path` (middleware, registered for ALL, left out); HEAD wherever GET is. */
export function allowedMethods(routes: readonly Route[], path: string): string[] {
  const methods = new Set<string>();
  for (const route of routes) if (route.method !== 'ALL' && pattern(route.path).test(path)) methods.add(route.method);
  if (methods.has('GET')) methods.add('HEAD');
  return [...methods].sort();
}
