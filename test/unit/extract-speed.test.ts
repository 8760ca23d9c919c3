import { Event } from 'linkedom/worker';
import { describe, expect, it } from 'vitest';
import { parseBounded } from '../../src/domain/extract/dom';

interface Target {
  addEventListener(type: string, listener: (event: { type: string }) => void): void;
  removeEventListener(type: string, listener: (event: { type: string }) => void): void;
  dispatchEvent(event: unknown): boolean;
}

describe('parsing without a listener map per node (listeners.ts)', () => {
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
