/** Bytes held (bodies not yet written, say), and tasks waiting for them to go below a ceiling before they start. */
export class HeldBytes {
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

  /** Resolves once the bodies held are below the ceiling; `pressed` is called when it has to wait. */
  room(pressed: () => void): Promise<void> {
    if (this.held < this.max) return Promise.resolve();
    pressed();
    return new Promise((resolve) => this.waiting.push(resolve));
  }
}
