import { describe, expect, it } from 'vitest';
import { ChunkWriter } from '../../src/consumers/chunks';
import type { Finished } from '../../src/consumers/finished';
import { MemoryBudget } from '../../src/lib/memory-budget';

/** A finished attempt holding `bytes` of body (only what the writer reads of it). */
function finished(url: string, bytes = 10): Finished {
  const task = { crawlId: 'c', url, depth: 0 };
  const processed = { outcome: { kind: 'stored', url, fetched: true }, attempts: 1, body: new Uint8Array(bytes) };
  return { message: {}, task, processed } as unknown as Finished;
}

describe('ChunkWriter', () => {
  it('records every chunk after one that failed, and reports the failure once all are recorded', async () => {
    const budget = new MemoryBudget(1_000_000);
    const recorded: string[][] = [];
    const writer = new ChunkWriter({ pages: 2, bytes: 16 * 1024 * 1024 }, budget, async (chunk) => {
      const urls = chunk.map((f) => f.task.url);
      if (urls.includes('a')) throw new Error('storage down');
      recorded.push(urls);
    });
    for (const url of ['a', 'b', 'c', 'd', 'e']) writer.add(finished(url));
    await expect(writer.close()).rejects.toThrow('storage down');
    expect(recorded).toEqual([['c', 'd'], ['e']]);
    // Every chunk's bytes went back to the budget, the failed one's too.
    let waited = false;
    await budget.room(() => {
      waited = true;
    });
    expect(waited).toBe(false);
  });

  it('records chunks one at a time, in the order they filled', async () => {
    const order: string[] = [];
    let inFlight = 0;
    const writer = new ChunkWriter(
      { pages: 1, bytes: 16 * 1024 * 1024 },
      new MemoryBudget(1_000_000),
      async (chunk) => {
        inFlight += 1;
        expect(inFlight).toBe(1);
        await new Promise((r) => setTimeout(r, 5));
        order.push(chunk[0]?.task.url ?? '');
        inFlight -= 1;
      },
    );
    for (const url of ['x', 'y', 'z']) writer.add(finished(url));
    await writer.close();
    expect(order).toEqual(['x', 'y', 'z']);
  });
});
