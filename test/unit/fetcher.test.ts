import { describe, expect, it } from 'vitest';
import { BodyTooLargeError, readCapped } from '../../src/page/fetcher';

describe('readCapped', () => {
  const stream = (chunks: number[]) =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (const size of chunks) controller.enqueue(new Uint8Array(size).fill(7));
        controller.close();
      },
    });
  it('joins chunks up to the cap', async () => {
    const out = await readCapped(stream([3, 4, 5]), 12);
    expect(out.byteLength).toBe(12);
    expect(out.every((b) => b === 7)).toBe(true);
  });
  it('fails as soon as the stream grows past the cap', async () => {
    await expect(readCapped(stream([8, 8]), 12)).rejects.toBeInstanceOf(BodyTooLargeError);
  });
  it('an absent body is empty', async () => {
    expect((await readCapped(null, 10)).byteLength).toBe(0);
  });
});
