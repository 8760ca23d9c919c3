import { z } from 'zod';
import { addUsage, emptyModelUsage, emptyUsage, type Operations, type Usage } from '../../domain/crawl/usage';
import type { Counts } from '../../types';

type CounterName =
  | keyof Counts
  | 'pending'
  | 'modeling'
  | 'modelPages'
  | 'trapped'
  | 'overHostBudget'
  | 'sitemaps'
  | 'sitemapsStored';

const ledgerSchema = z.object({
  counters: z.object({
    discovered: z.number(),
    fetched: z.number(),
    stored: z.number(),
    failed: z.number(),
    skipped: z.number(),
    duplicates: z.number().default(0),
    pending: z.number(),
    /** Stored pages waiting for the model step (formats json and summary): the crawl completes when none waits. */
    modeling: z.number().default(0),
    /** Pages the model read for the crawl (cached answers and learned selectors not counted): maxModelPages. */
    modelPages: z.number().default(0),
    /** URLs ended skipped by a trap rule (among skipped): they do not count against maxPages. */
    trapped: z.number().default(0),
    /** Links refused because their host had its maxPagesPerHost (not in the seen-set, like those past maxPages). */
    overHostBudget: z.number().default(0),
    /** Sitemap files accepted (among discovered): they do not count against maxPages, nor as Firecrawl's pages. */
    sitemaps: z.number().default(0),
    /** Sitemap files read (among stored). */
    sitemapsStored: z.number().default(0),
  }),
  usage: z.object({
    operations: z.object({
      workerInvocations: z.number(),
      queueOperations: z.number(),
      durableObjectRequests: z.number(),
      durableObjectRowsRead: z.number(),
      durableObjectRowsWritten: z.number(),
      d1RowsRead: z.number(),
      d1RowsWritten: z.number(),
      r2ClassA: z.number(),
      r2ClassB: z.number(),
      browserSeconds: z.number().default(0),
    }) satisfies z.ZodType<Operations>,
    r2Bytes: z.number(),
    renders: z.number().default(0),
    model: z
      .object({
        calls: z.number(),
        cached: z.number(),
        selectorPages: z.number(),
        tokensIn: z.number(),
        tokensOut: z.number(),
        usd: z.number(),
      })
      .default(emptyModelUsage),
  }),
});
type LedgerState = z.infer<typeof ledgerSchema>;

const fresh = (): LedgerState => ({
  counters: {
    discovered: 0,
    fetched: 0,
    stored: 0,
    failed: 0,
    skipped: 0,
    duplicates: 0,
    pending: 0,
    modeling: 0,
    modelPages: 0,
    trapped: 0,
    overHostBudget: 0,
    sitemaps: 0,
    sitemapsStored: 0,
  },
  usage: emptyUsage(),
});

/** Usage alone (no count changed) is written at most this often: a claim or a usage report then writes no row. */
const USAGE_FLUSH_MS = 10_000;

/**
 * The crawl's counts and its counted usage: kept in memory and written as one row (meta 'counts'), since rows written
 * are what a crawl pays for: at the end of each call that changed a count, and otherwise (only usage was counted)
 * at most every USAGE_FLUSH_MS and by the alarm, so an instance that dies loses at most that much of the estimate.
 * Every statement the coordinator runs goes through `exec`, which counts the rows it read and wrote into the usage.
 */
export class Ledger {
  private state = fresh();
  private dirty = false;
  private usageDirty = false;
  private savedAt = 0;

  constructor(private readonly sql: SqlStorage) {}

  /** Reads the stored row (validated), if the crawl has one. */
  load(): void {
    const raw = this.exec<{ v: string }>("SELECT v FROM meta WHERE k = 'counts'")[0]?.v;
    this.state = raw === undefined ? fresh() : ledgerSchema.parse(JSON.parse(raw));
    this.dirty = false;
    this.usageDirty = false;
  }

  /** Forgets everything (the crawl's storage was deleted). */
  reset(): void {
    this.state = fresh();
    this.dirty = false;
    this.usageDirty = false;
  }

  /** Runs a statement and counts the rows it read and wrote. */
  exec<T extends Record<string, SqlStorageValue> = Record<string, SqlStorageValue>>(
    query: string,
    ...bindings: unknown[]
  ): T[] {
    const cursor = this.sql.exec<T>(query, ...bindings);
    const rows = cursor.toArray();
    this.state.usage.operations.durableObjectRowsRead += cursor.rowsRead;
    this.state.usage.operations.durableObjectRowsWritten += cursor.rowsWritten;
    if (cursor.rowsWritten > 0) this.usageDirty = true;
    return rows;
  }

  /**
   * Runs a statement and hands each row to `row` as it is read (no array of them all: a scan of the whole crawl), and
   * counts the rows it read and wrote.
   */
  each<T extends Record<string, SqlStorageValue>>(
    query: string,
    bindings: readonly unknown[],
    row: (r: T) => void,
  ): void {
    const cursor = this.sql.exec<T>(query, ...bindings);
    for (const r of cursor) row(r);
    this.state.usage.operations.durableObjectRowsRead += cursor.rowsRead;
    this.state.usage.operations.durableObjectRowsWritten += cursor.rowsWritten;
    if (cursor.rowsWritten > 0) this.usageDirty = true;
  }

  /** A call served for the crawl's work (API reads of its state are not counted). */
  request(): void {
    this.state.usage.operations.durableObjectRequests += 1;
    this.usageDirty = true;
  }

  bump(name: CounterName, by: number): void {
    if (by === 0) return;
    this.state.counters[name] += by;
    this.dirty = true;
  }

  /** Adds what a consumer (or this object's own sends) counted. */
  add(usage: Usage): void {
    addUsage(this.state.usage, usage);
    this.usageDirty = true;
  }

  get counters(): Readonly<LedgerState['counters']> {
    return this.state.counters;
  }

  get usage(): Usage {
    return this.state.usage;
  }

  /**
   * Writes the row when a count changed, or usage waited USAGE_FLUSH_MS (`flush`: any usage at all). Its own write is
   * counted in the next save.
   */
  save(flush = false): void {
    const now = Date.now();
    const usageDue = this.usageDirty && (flush || now - this.savedAt >= USAGE_FLUSH_MS);
    if (!this.dirty && !usageDue) return;
    this.exec(
      "INSERT INTO meta (k, v) VALUES ('counts', ?) ON CONFLICT (k) DO UPDATE SET v = excluded.v",
      JSON.stringify(this.state),
    );
    [this.dirty, this.usageDirty, this.savedAt] = [false, false, now];
  }
}
