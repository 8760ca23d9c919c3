/** Runs at most `concurrency` of the given tasks at once, the rest in the order they were asked for. */
export type Limit = <T>(task: () => Promise<T>) => Promise<T>;

export function limiter(concurrency: number): Limit {
  let running = 0;
  const waiting: (() => void)[] = [];
  const next = () => {
    running--;
    waiting.shift()?.();
  };
  return async (task) => {
    if (running >= concurrency) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      return await task();
    } finally {
      next();
    }
  };
}
