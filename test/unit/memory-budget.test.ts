import { describe, expect, it } from 'vitest';
import { MemoryBudget } from '../../src/lib/memory-budget';

describe('MemoryBudget', () => {
  it('lets tasks start below the ceiling; above it they wait, say so once each, and start as bytes are released', async () => {
    const held = new MemoryBudget(100);
    let pressed = 0;
    const press = () => void pressed++;
    await held.room(press); // nothing held
    held.hold(60);
    await held.room(press); // 60 < 100
    held.hold(60);
    const started: number[] = [];
    const waiting = [1, 2].map((n) => held.room(press).then(() => started.push(n)));
    await Promise.resolve();
    expect(started).toEqual([]);
    expect(pressed).toBe(2);
    held.release(10); // 110: still over
    await Promise.resolve();
    expect(started).toEqual([]);
    held.release(60); // 50: both go, in order
    await Promise.all(waiting);
    expect(started).toEqual([1, 2]);
    expect(pressed).toBe(2);
  });
});
