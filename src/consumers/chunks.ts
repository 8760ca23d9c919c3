import type { MemoryBudget } from '../lib/memory-budget';
import type { Finished } from './finished';

const heldBytes = (f: Finished) => (f.processed.body?.byteLength ?? 0) + (f.processed.record?.byteLength ?? 0);

/**
 * A group's finished attempts, gathered into chunks and recorded one chunk at a time in the order they filled: a
 * chunk is `size.pages` attempts or `size.bytes` of bodies, however few pages that is. Their bodies count against the
 * invocation's memory budget until their chunk is recorded.
 */
export class ChunkWriter {
  private buffer: Finished[] = [];
  private bytes = 0;
  private recording = Promise.resolve();
  /** The first chunk that failed to record, if one did: later chunks are recorded all the same. */
  private failure: { error: unknown } | null = null;

  constructor(
    private readonly size: { pages: number; bytes: number },
    private readonly budget: MemoryBudget,
    private readonly record: (chunk: Finished[]) => Promise<void>,
  ) {}

  add(finished: Finished): void {
    const bytes = heldBytes(finished);
    this.buffer.push(finished);
    this.bytes += bytes;
    this.budget.hold(bytes);
    if (this.buffer.length >= this.size.pages || this.bytes >= this.size.bytes) this.flush();
  }

  /** Waits for room in the memory budget before a fetch; if it must wait, records what is gathered (which frees it). */
  room(): Promise<void> {
    return this.budget.room(() => this.flush());
  }

  /** Records what is gathered, waits for every chunk to be recorded, then throws the first failure, if any. */
  async close(): Promise<void> {
    this.flush();
    await this.recording;
    if (this.failure) throw this.failure.error;
  }

  /** Queues the gathered chunk behind those before it; one that fails does not stop the ones after it. */
  private flush(): void {
    if (this.buffer.length === 0) return;
    const [chunk, bytes] = [this.buffer, this.bytes];
    [this.buffer, this.bytes] = [[], 0];
    this.recording = this.recording
      .then(() => this.record(chunk))
      .catch((error: unknown) => {
        this.failure ??= { error };
      })
      .finally(() => this.budget.release(bytes));
  }
}
