import linkedomPackage from 'linkedom/package.json';
import { Event } from 'linkedom/worker';
import { describe, expect, it } from 'vitest';
import projectPackage from '../../package.json';
import { parseBounded } from '../../src/domain/extract/dom';
import { LINKEDOM_VERSION, LISTENERS_LAZY } from '../../src/domain/extract/listeners';

interface Target {
  addEventListener(type: string, listener: (event: { type: string }) => void): void;
  removeEventListener(type: string, listener: (event: { type: string }) => void): void;
  dispatchEvent(event: unknown): boolean;
}

/** What to do when the checks below fail: the speed-up rests on a private detail of linkedom. */
const ON_UPDATE =
  'src/domain/extract/listeners.ts overrides a private WeakMap of linkedom (its event listeners), written for ' +
  `linkedom ${LINKEDOM_VERSION}. After a linkedom update, read its DOMEventTarget: if it still keeps listeners in a ` +
  'module WeakMap set in its constructor and read by removeEventListener, set LINKEDOM_VERSION and the pin in ' +
  "package.json to the new version; if not, rewrite the override for it, or pin linkedom back (parsing's CPU grows by " +
  'a third without it).';

/** Listener maps made while `run` runs: each is a WeakMap.prototype.set of a Map, as linkedom's EventTarget does. */
function listenerMapsMade(run: () => void): number {
  const { set } = WeakMap.prototype;
  let made = 0;
  WeakMap.prototype.set = function (this: WeakMap<WeakKey, unknown>, key: WeakKey, value: unknown) {
    if (value instanceof Map) made++;
    return set.call(this, key, value);
  };
  try {
    run();
  } finally {
    WeakMap.prototype.set = set;
  }
  return made;
}

describe('parsing without a listener map per node (listeners.ts)', () => {
  it('the override takes hold: parsing a page makes no listener map', () => {
    expect(LISTENERS_LAZY, ON_UPDATE).toBe(true);
    const html = `<html><body>${'<div class="a"><p id="b">text <a href="/c">link</a></p></div>'.repeat(50)}</body></html>`;
    expect(
      listenerMapsMade(() => parseBounded(html, [])),
      ON_UPDATE,
    ).toBe(0);
  });

  it('linkedom is pinned to the version the override is written for', () => {
    expect(linkedomPackage.version, ON_UPDATE).toBe(LINKEDOM_VERSION);
    expect(projectPackage.dependencies.linkedom, ON_UPDATE).toBe(LINKEDOM_VERSION);
  });

  it('leaves linkedom events working: added listeners run, removed ones do not', () => {
    const { document } = parseBounded('<html><body><p id="a">x</p></body></html>', []);
    const p = document.querySelector('#a') as unknown as Target;
    const seen: string[] = [];
    const listener = (event: { type: string }) => seen.push(event.type);
    p.addEventListener('ping', listener);
    p.dispatchEvent(new Event('ping'));
    p.removeEventListener('ping', listener);
    p.dispatchEvent(new Event('ping'));
    expect(seen).toEqual(['ping']);
  });
});
