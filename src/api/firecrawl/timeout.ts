import { timedOut } from './errors';

/** The work, or a 408 once `timeoutMs` has passed (Firecrawl's timeout; a scraped page may still be stored). */
export async function withTimeout<T>(work: Promise<T>, timeoutMs: number | null): Promise<T> {
  if (timeoutMs === null) return work;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(timedOut(timeoutMs)), timeoutMs);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
