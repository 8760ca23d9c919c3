import { describe, expect, it } from 'vitest';
import { Wakeups } from '../../src/lib/wakeups';

describe('Wakeups', () => {
  it('leaves no waiter behind when the time runs out (the host gate waits this way over and over)', async () => {
    const wakeups = new Wakeups();
    for (let i = 0; i < 20; i++) await wakeups.wait(1);
    expect(wakeups.size).toBe(0);
  });

  it('wakes every caller waiting, at once, and leaves none behind', async () => {
    const wakeups = new Wakeups();
    const started = Date.now();
    const waits = [wakeups.wait(60_000), wakeups.wait(60_000)];
    expect(wakeups.size).toBe(2);
    wakeups.wakeAll();
    await Promise.all(waits);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(wakeups.size).toBe(0);
  });
});
