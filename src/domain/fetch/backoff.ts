/**
 * Exponential backoff with full jitter for retries: attempt 1 waits up to `baseSeconds`,
 * each further attempt doubles the ceiling, capped at `maxSeconds`. Queues take whole seconds.
 */
export function backoffSeconds(
  attempt: number,
  baseSeconds = 2,
  maxSeconds = 300,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(maxSeconds, baseSeconds * 2 ** Math.max(0, attempt - 1));
  return Math.max(1, Math.round(ceiling / 2 + (random() * ceiling) / 2));
}
