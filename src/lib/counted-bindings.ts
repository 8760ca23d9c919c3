/**
 * An env whose bindings count their calls (`spend` before each), for one invocation's subrequest budget
 * (lib/subrequests.ts). A binding's method that only makes a handle (a Durable Object stub, a D1 statement) is not a
 * subrequest: the handle it returns is counted the same way. Any other method call is one (a Durable Object's RPC
 * method, an R2 get or put, a D1 run or batch, a queue's send): what it resolves to is not wrapped.
 */
const HANDLE_MAKERS: ReadonlySet<string | symbol> = new Set([
  'getByName',
  'jurisdiction',
  'prepare',
  'bind',
  'withSession',
  'resumeMultipartUpload',
]);
/** Methods that neither call out nor make a handle to be counted (Durable Object ids are passed back to `get` as is). */
const LOCAL: ReadonlySet<string | symbol> = new Set(['idFromName', 'idFromString', 'newUniqueId', 'toString']);

/** A Durable Object namespace's `get` makes a stub; an R2 bucket's `get` reads an object (a subrequest). */
const makesHandle = (object: object, key: string | symbol) =>
  HANDLE_MAKERS.has(key) || (key === 'get' && 'idFromName' in object);

function counted<T extends object>(target: T, spend: () => void): T {
  // One wrapper per method of the handle, made when first asked for.
  const methods = new Map<string | symbol, (...args: unknown[]) => unknown>();
  return new Proxy(target, {
    get(object, key) {
      const value: unknown = Reflect.get(object, key);
      if (typeof value !== 'function') return value;
      let method = methods.get(key);
      if (method === undefined) {
        method = wrap(object, key, value, spend);
        methods.set(key, method);
      }
      return method;
    },
  });
}

/** A method of a handle, as `Reflect.apply` takes it. */
type Method = Parameters<typeof Reflect.apply>[0];

function wrap(object: object, key: string | symbol, value: Method, spend: () => void) {
  if (LOCAL.has(key)) return (...args: unknown[]): unknown => Reflect.apply(value, object, args);
  if (!makesHandle(object, key))
    return (...args: unknown[]): unknown => {
      spend();
      return Reflect.apply(value, object, args);
    };
  return (...args: unknown[]): unknown => {
    const result: unknown = Reflect.apply(value, object, args);
    return typeof result === 'object' && result !== null ? counted(result, spend) : result;
  };
}

/** `env` with every binding (an object; vars are strings) counting its calls, each binding wrapped once. */
export function countedBindings<T extends object>(env: T, spend: () => void): T {
  const bindings = new Map<string | symbol, unknown>();
  return new Proxy(env, {
    get(object, key) {
      if (bindings.has(key)) return bindings.get(key);
      const value: unknown = Reflect.get(object, key);
      const binding =
        typeof value === 'object' && value !== null && !Array.isArray(value) ? counted(value, spend) : value;
      bindings.set(key, binding);
      return binding;
    },
  });
}
