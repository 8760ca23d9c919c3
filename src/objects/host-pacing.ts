import { z } from 'zod';
import type { Run } from '../domain/politeness/timeline';
import { log } from '../log';

/**
 * What a host's gate keeps across restarts: when the last paced request began and ended, the back-off, the requests
 * granted, and its timeline (the runs of slots each crawl has booked, so that a crawl that ends after a restart still
 * gives its own back). One row, rewritten as a whole: a row written is billed whatever its size.
 */
export interface Pacing {
  lastBegin: number;
  lastDone: number;
  blockedUntil: number;
  requests: number;
  runs: Run[];
}

/** The step of the gate's schema (see migrateSchema) that makes its row. */
export const PACING_TABLE = 'CREATE TABLE IF NOT EXISTS gate (k INTEGER PRIMARY KEY CHECK (k = 1), v TEXT NOT NULL)';

const runSchema = z.tuple([z.string().nullable(), z.number(), z.number().positive(), z.number().int().positive()]);
const pacingSchema = z.object({
  lastBegin: z.number(),
  lastDone: z.number(),
  blockedUntil: z.number(),
  requests: z.number(),
  runs: z.array(runSchema),
});

/** An older gate's state, a row per value in `pacing` (next_free: the end of its timeline, whose owners it did not keep). */
function legacyPacing(sql: SqlStorage, now: number): Pacing {
  const value = (key: string) => sql.exec<{ v: number }>('SELECT v FROM pacing WHERE k = ?', key).toArray()[0]?.v ?? 0;
  const nextFree = value('next_free');
  return {
    lastBegin: value('last_begin'),
    lastDone: value('last_done'),
    blockedUntil: value('blocked_until'),
    requests: value('requests'),
    // Held for no crawl in particular: given back by none, over when its time has passed.
    runs: nextFree > now ? [{ owner: null, start: now, spacing: nextFree - now, count: 1 }] : [],
  };
}

/** The stored row as JSON, checked; null when it is not what savePacing writes. */
function parsePacing(text: string): z.infer<typeof pacingSchema> | null {
  try {
    const parsed = pacingSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function loadPacing(sql: SqlStorage, now: number): Pacing {
  const row = sql.exec<{ v: string }>('SELECT v FROM gate WHERE k = 1').toArray()[0];
  if (!row) return legacyPacing(sql, now);
  const stored = parsePacing(row.v);
  if (!stored) {
    log('error', "a host gate's stored pacing is unreadable: it starts afresh, its first request a whole interval on");
    return { lastBegin: 0, lastDone: now, blockedUntil: 0, requests: 1, runs: [] };
  }
  const { runs, ...rest } = stored;
  return { ...rest, runs: runs.map(([owner, start, spacing, count]) => ({ owner, start, spacing, count })) };
}

export function savePacing(sql: SqlStorage, pacing: Pacing): void {
  const runs = pacing.runs.map((run) => [run.owner, run.start, run.spacing, run.count]);
  sql.exec(
    'INSERT INTO gate (k, v) VALUES (1, ?) ON CONFLICT (k) DO UPDATE SET v = excluded.v',
    JSON.stringify({ ...pacing, runs }),
  );
}
