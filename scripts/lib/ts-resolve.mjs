// A module resolve hook for Node: lets scripts import src/ modules written for a bundler (`import ... from './dom'`)
// by trying `.ts` and `/index.ts` when a relative specifier without an extension is not found.
// A JSON module imported without `with { type: 'json' }` (the bundler needs none) is given that attribute.
// Registered by scripts that run src/ code in Node (module.register).
export async function resolve(specifier, context, next) {
  if (specifier.startsWith('.') && specifier.endsWith('.json')) {
    const importAttributes = { ...context.importAttributes, type: 'json' };
    return { ...(await next(specifier, { ...context, importAttributes })), importAttributes };
  }
  try {
    return await next(specifier, context);
  } catch (error) {
    if (!specifier.startsWith('.') || /\.[cm]?[jt]s$/.test(specifier)) throw error;
    for (const suffix of ['.ts', '/index.ts']) {
      try {
        return await next(specifier + suffix, context);
      } catch {
        // try the next
      }
    }
    throw error;
  }
}
