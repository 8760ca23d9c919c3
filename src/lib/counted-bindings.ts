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
  return new Proxy(target, {
    get(object, key) {
      const value: unknown = Reflect.get(object, key);
      if (typeof value !== 'function') return value;
      const handle = makesHandle(object, key);
      return (...args: unknown[]): unknown => {
        if (LOCAL.has(key)) return Reflect.apply(value, object, args);
        if (!handle) spend();
        const result: unknown = Reflect.apply(value, object, args);
        return handle && typeof result === 'object' && result !== null ? counted(result, spend) : result;
      };
    },
  });
}

/** `env` with every binding (an object; vars are strings) counting its calls. */
export function countedBindings<T extends object>(env: T, spend: () => void): T {
  return new Proxy(env, {
    get(object, key) {
      const value: unknown = Reflect.get(object, key);
      return typeof value === 'object' && value !== null && !Array.isArray(value) ? counted(value, spend) : value;
    },
  });
}
