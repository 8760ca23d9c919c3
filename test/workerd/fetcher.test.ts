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
  describe('a byte stream (a fetch body), read into one buffer', () => {
    /** A byte stream of `chunks`, each of its size and filled with its index, like a body arriving in pieces. */
    const bytes = (chunks: number[]) =>
      new ReadableStream({
        type: 'bytes',
        start(controller) {
          chunks.forEach((size, i) => controller.enqueue(new Uint8Array(size).fill(i + 1)));
          controller.close();
        },
      });
    it('keeps every byte in order, across buffer growth', async () => {
      const sizes = [1, 70_000, 3, 200_000, 5];
      const out = await readCapped(bytes(sizes), 1_000_000);
      expect(out.byteLength).toBe(sizes.reduce((a, b) => a + b, 0));
      let at = 0;
      sizes.forEach((size, i) => {
        expect(out.subarray(at, at + size).every((b) => b === i + 1)).toBe(true);
        at += size;
      });
    });
    it('takes a body of exactly the cap, and fails one byte over it', async () => {
      expect((await readCapped(bytes([100_000, 31_072]), 131_072)).byteLength).toBe(131_072);
      await expect(readCapped(bytes([100_000, 31_073]), 131_072)).rejects.toBeInstanceOf(BodyTooLargeError);
      await expect(readCapped(new Response(new Uint8Array(5000)).body, 4999)).rejects.toBeInstanceOf(BodyTooLargeError);
    });
    it('reads an empty body and a Response body', async () => {
      expect((await readCapped(bytes([]), 10)).byteLength).toBe(0);
      const text = 'x'.repeat(100_000);
      expect(new TextDecoder().decode(await readCapped(new Response(text).body, 200_000))).toBe(text);
    });
  });
  it('an absent body is empty', async () => {
    expect((await readCapped(null, 10)).byteLength).toBe(0);
  });
});
