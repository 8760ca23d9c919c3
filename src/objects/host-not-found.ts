import { z } from 'zod';
import type { NotFoundAnswer } from '../domain/traps/soft-404';

/** How long a host's answer to a made-up path is trusted (as robots.txt's: a day). */
const NOT_FOUND_TTL_MS = 24 * 60 * 60_000;
/** A made-up path that could not be asked (a network failure) is asked again after this long. */
const NOT_FOUND_RETRY_MS = 30_000;

const rowSchema = z.object({
  status: z.number(),
  reads_not_found: z.number(),
  sketch: z.string().nullable(),
  expires_at: z.number(),
});

/** How the made-up path is fetched: the gate's way (a request to the host like any other, paced). */
export type NotFoundFetcher = (url: string, minIntervalMs: number) => Promise<NotFoundAnswer | null>;

/**
 * What each origin and section of a host answers for a path it surely does not have (domain/traps/soft-404.ts), as its
 * gate knows it: in SQLite (table `not_found`) and memory, fresh for a day, fetched once however many ask at once.
 */
export class NotFoundCache {
  private readonly failed = new Map<string, number>();
  private readonly fetches = new Map<string, Promise<NotFoundAnswer | null>>();

  constructor(
    private readonly sql: SqlStorage,
    private readonly fetcher: NotFoundFetcher,
  ) {}

  /** The answer kept for `key` (origin and section), or fetched from `url` now; null when it could not be asked. */
  async answer(key: string, url: string, minIntervalMs: number): Promise<NotFoundAnswer | null> {
    const now = Date.now();
    const row = this.sql.exec('SELECT status, reads_not_found, sketch, expires_at FROM not_found WHERE key = ?', key);
    const kept = row.toArray()[0];
    if (kept !== undefined) {
      const parsed = rowSchema.parse(kept);
      if (parsed.expires_at > now)
        return { status: parsed.status, readsAsNotFound: parsed.reads_not_found === 1, sketch: parsed.sketch };
    }
    if ((this.failed.get(key) ?? 0) > now) return null;
    let pending = this.fetches.get(key);
    if (!pending) {
      pending = this.fetcher(url, minIntervalMs)
        .then((answer) => this.store(key, answer))
        .finally(() => this.fetches.delete(key));
      this.fetches.set(key, pending);
    }
    return pending;
  }

  private store(key: string, answer: NotFoundAnswer | null): NotFoundAnswer | null {
    const now = Date.now();
    if (answer === null) {
      this.failed.set(key, now + NOT_FOUND_RETRY_MS);
      return null;
    }
    this.sql.exec(
      `INSERT INTO not_found (key, status, reads_not_found, sketch, expires_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (key) DO UPDATE SET status = excluded.status, reads_not_found = excluded.reads_not_found,
       sketch = excluded.sketch, expires_at = excluded.expires_at`,
      key,
      answer.status,
      answer.readsAsNotFound ? 1 : 0,
      answer.sketch,
      now + NOT_FOUND_TTL_MS,
    );
    return answer;
  }
}
