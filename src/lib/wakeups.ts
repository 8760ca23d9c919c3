/**
 * Callers waiting for something to happen, each for at most a while: wait(ms) resolves when wakeAll() is called or
 * ms have passed, whichever comes first, and either way leaves nothing behind (its timer cleared, itself dropped
 * from the waiters), so a wait that times out over and over does not pile up waiters.
 */
export class Wakeups {
  private readonly waiting = new Set<() => void>();

  wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiting.delete(done);
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, ms));
      this.waiting.add(done);
    });
  }

  /** Wakes every caller waiting now. */
  wakeAll(): void {
    for (const done of [...this.waiting]) done();
  }

  /** Callers waiting now. */
  get size(): number {
    return this.waiting.size;
  }
}
