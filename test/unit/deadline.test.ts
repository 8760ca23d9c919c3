import { describe, expect, it } from 'vitest';
import { deadline } from '../../src/page/deadline';

const busy = (ms: number) => {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // the thread is busy, as when a page is being extracted
  }
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('fetch deadlines', () => {
  it('expire after their length of idle time', async () => {
    let expired = false;
    deadline(150, () => {
      expired = true;
    });
    await sleep(100);
    expect(expired).toBe(false);
    await sleep(150);
    expect(expired).toBe(true);
  });

  it('do not count time the thread spent busy', async () => {
    let expired = false;
    const d = deadline(200, () => {
      expired = true;
    });
    busy(400);
    await sleep(60);
    expect(expired).toBe(false);
    // Its timer fired 200 ms late, so it was re-armed for 200 ms: it expires about 140 ms from here on a quiet machine
    // (when the re-armed timer fires on time); on a loaded one timers run late and it waits longer, never up to the
    // hard stop.
    const idleSince = Date.now();
    await expect.poll(() => expired, { timeout: 5000, interval: 10 }).toBe(true);
    expect(Date.now() - idleSince).toBeGreaterThanOrEqual(100);
    d.clear();
  });

  it('never fire once cleared', async () => {
    let cleared = false;
    deadline(50, () => {
      cleared = true;
    }).clear();
    await sleep(100);
    expect(cleared).toBe(false);
  });
});
