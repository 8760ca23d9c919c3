/**
 * linkedom's EventTarget constructor gives every node it makes (each element, text node and attribute) a Map of
 * event listeners, kept in a module-private WeakMap: on real pages that was a third of parsing's CPU, and a large
 * share of garbage collection (a WeakMap of a million entries is costly to rehash and to trace). Extraction adds
 * no listeners. This module, imported for its effect, finds that WeakMap (the one WeakMap.prototype.get is called
 * on when a node's removeEventListener runs) and overrides its own `set` and `get`: the constructor's set does
 * nothing, and a node's listener map is made when something first asks for it. Events still work; only the empty
 * maps no one reads are not made. Should linkedom change so that the WeakMap is not found, nothing is changed.
 *
 * The dependence is explicit: linkedom is pinned in package.json to LINKEDOM_VERSION, the version this was written
 * for and checked against, and test/unit/extract-speed.test.ts fails when the override does not take hold (parsing
 * makes a listener map per node again) or when the installed linkedom is not that version.
 */
import { parseHTML } from 'linkedom/worker';

interface Listening {
  removeEventListener(type: string, listener: () => void): void;
}

type Listeners = WeakMap<object, Map<unknown, unknown>>;

/** The linkedom version the override is written for (package.json pins it): check it again before moving the pin. */
export const LINKEDOM_VERSION = '0.18.15';

/** The WeakMap linkedom reads a node's listeners from, or null. */
function listenerMap(): Listeners | null {
  const node = parseHTML('<p></p>').document as unknown as Listening;
  const { get } = WeakMap.prototype;
  let found: Listeners | null = null;
  WeakMap.prototype.get = function (this: Listeners, key: object) {
    found ??= this;
    return get.call(this, key);
  };
  try {
    node.removeEventListener('edgecrawl-probe', () => undefined);
  } catch {
    found = null;
  } finally {
    WeakMap.prototype.get = get;
  }
  return found;
}

/** Whether linkedom's listener maps are made lazily (the WeakMap was found and its `set` and `get` overridden). */
function makeListenerMapsLazy(): boolean {
  const map = listenerMap();
  if (!map) return false;
  if (Object.hasOwn(map, 'get') || Object.hasOwn(map, 'set')) return true;
  const { get, set } = WeakMap.prototype;
  Object.defineProperties(map, {
    // Only the constructor sets: the listener maps below are made by `get`.
    set: { value: () => map },
    get: {
      value: (key: object) => {
        let listeners = get.call(map, key);
        if (!listeners) {
          listeners = new Map();
          set.call(map, key, listeners);
        }
        return listeners;
      },
    },
  });
  return true;
}

/** Whether the override took hold: false when this linkedom keeps its listeners some other way (parsing is slower). */
export const LISTENERS_LAZY = makeListenerMapsLazy();
