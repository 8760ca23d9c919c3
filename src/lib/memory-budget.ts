/**
 * A ceiling on bytes held in memory (bodies fetched and not yet written, say): holders add and release bytes, and
 * work that would add more waits for room below the ceiling.
 */
export class MemoryBudget {
  private held = 0;
  private waiting: (() => void)[] = [];

  constructor(private readonly max: number) {}

  hold(bytes: number): void {
    this.held += bytes;
  }

  release(bytes: number): void {
    this.held -= bytes;
    while (this.held < this.max && this.waiting.length > 0) this.waiting.shift()?.();
  }

  /** Resolves once the bytes held are below the ceiling; `pressed` is called when it has to wait (to free some). */
  room(pressed: () => void): Promise<void> {
    if (this.held < this.max) return Promise.resolve();
    pressed();
    return new Promise((resolve) => this.waiting.push(resolve));
  }
}
