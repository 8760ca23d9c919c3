/**
 * What a crawl costs on Cloudflare: the billed operations, counted where they happen, and the published prices
 * (Workers Paid, no free allowances; https://developers.cloudflare.com/workers/platform/pricing/,
 * .../queues/platform/pricing/, .../durable-objects/platform/pricing/, .../d1/platform/pricing/, .../r2/pricing/).
 */
const OPERATIONS = [
  'workerInvocations',
  'queueOperations',
  'durableObjectRequests',
  'durableObjectRowsRead',
  'durableObjectRowsWritten',
  'd1RowsRead',
  'd1RowsWritten',
  'r2ClassA',
  'r2ClassB',
  'browserSeconds',
] as const;

export type Operation = (typeof OPERATIONS)[number];
export type Operations = Record<Operation, number>;

export interface Usage {
  operations: Operations;
  /** Bytes written to R2 (bodies, records, links, exports). */
  r2Bytes: number;
  /** Pages sent to a browser (each render of maxRenders, faults included). */
  renders: number;
  /** The language model's work (formats json and summary; docs/models.md). */
  model: ModelUsage;
}

/** What the model step counted: calls made, pages answered without one, tokens, and their price at the time. */
export interface ModelUsage {
  /** Requests to the model (an answer asked again counts twice; selector writing counts). */
  calls: number;
  /** Pages whose answer was the cache's (the same content, schema, prompt and model read before). */
  cached: number;
  /** Pages read by selectors the model wrote (learnSelectors), with no call. */
  selectorPages: number;
  tokensIn: number;
  tokensOut: number;
  /** What the calls cost, US dollars, priced per model when they were made (domain/model/prices.ts). */
  usd: number;
}

const MODEL_KEYS = ['calls', 'cached', 'selectorPages', 'tokensIn', 'tokensOut', 'usd'] as const;

export const emptyModelUsage = (): ModelUsage => ({
  calls: 0,
  cached: 0,
  selectorPages: 0,
  tokensIn: 0,
  tokensOut: 0,
  usd: 0,
});

/** US dollars per operation, from the published per-million prices. */
const PRICES = {
  /** Each Worker invocation (a queue consumer batch, an HTTP request): $0.30 per million. */
  workerInvocations: 0.3 / 1e6,
  /** Each message written, read (each delivery, retries included) or deleted (acked), per 64 KB: $0.40 per million. */
  queueOperations: 0.4 / 1e6,
  /** Each call to a Durable Object, and each alarm: $0.15 per million. */
  durableObjectRequests: 0.15 / 1e6,
  /** Durable Object SQLite rows read: $0.001 per million; rows written: $1.00 per million. */
  durableObjectRowsRead: 0.001 / 1e6,
  durableObjectRowsWritten: 1 / 1e6,
  /** D1 rows read: $0.001 per million; rows written (index entries included): $1.00 per million. */
  d1RowsRead: 0.001 / 1e6,
  d1RowsWritten: 1 / 1e6,
  /** R2 Class A (put, list, multipart): $4.50 per million; Class B (get, head): $0.36 per million. */
  r2ClassA: 4.5 / 1e6,
  r2ClassB: 0.36 / 1e6,
  /**
   * Browser Rendering (Workers binding): $0.09 per browser hour, so $25 per million browser seconds. The binding also
   * bills concurrency ($2.00 per browser of the month's average daily peak, beyond 10 included): an account's, not a
   * crawl's, so not in the estimate (docs/rendering.md).
   */
  browserSeconds: 0.09 / 3600,
} as const satisfies Record<Operation, number>;

/** Worker CPU time: $0.02 per million CPU milliseconds. */
const CPU_MS_PRICE = 0.02 / 1e6;
/**
 * CPU time cannot be read inside a Worker (its clocks stand still during CPU work), so the estimate assumes this
 * many CPU ms per page: `npm run bench` measured 3.5-8 ms per page with every feature on (docs/scale.md).
 */
const ASSUMED_CPU_MS_PER_PAGE = 8;
/** Storage, per GB-month (not in the estimate, which is for the crawl's operations): R2 $0.015, D1 $0.75, DO $0.20. */
const STORAGE_PRICES = { r2GbMonth: 0.015, d1GbMonth: 0.75, durableObjectGbMonth: 0.2 } as const;

/** A record of one value per operation. */
const perOperation = <T>(f: (op: Operation) => T): Record<Operation, T> => ({
  workerInvocations: f('workerInvocations'),
  queueOperations: f('queueOperations'),
  durableObjectRequests: f('durableObjectRequests'),
  durableObjectRowsRead: f('durableObjectRowsRead'),
  durableObjectRowsWritten: f('durableObjectRowsWritten'),
  d1RowsRead: f('d1RowsRead'),
  d1RowsWritten: f('d1RowsWritten'),
  r2ClassA: f('r2ClassA'),
  r2ClassB: f('r2ClassB'),
  browserSeconds: f('browserSeconds'),
});

export const emptyUsage = (): Usage => ({
  operations: perOperation(() => 0),
  r2Bytes: 0,
  renders: 0,
  model: emptyModelUsage(),
});

/** `into` plus `more`, in place. */
export function addUsage(into: Usage, more: Usage): Usage {
  for (const op of OPERATIONS) into.operations[op] += more.operations[op];
  into.r2Bytes += more.r2Bytes;
  into.renders += more.renders;
  for (const key of MODEL_KEYS) into.model[key] += more.model[key];
  return into;
}

interface Estimate {
  usd: number;
  usdPerMillionPages: number | null;
  /** What each part costs, US dollars (model: the language model's calls, at the model's price). */
  breakdown: Record<Operation | 'cpu' | 'model', number>;
  /** R2 storage of what the crawl wrote, per month (not in usd). */
  r2StorageUsdPerMonth: number;
  prices: {
    perMillion: Record<Operation | 'cpuMs', number>;
    assumedCpuMsPerPage: number;
    storagePerGbMonth: typeof STORAGE_PRICES;
  };
}

/** To a billionth of a dollar: a small crawl costs fractions of a cent. */
const round = (usd: number) => Math.round(usd * 1e9) / 1e9;

/** What `usage` costs for `pages` pages fetched, at the published prices. */
export function estimateCost(usage: Usage, pages: number): Estimate {
  const breakdown = {
    ...perOperation((op) => round(usage.operations[op] * PRICES[op])),
    cpu: round(pages * ASSUMED_CPU_MS_PER_PAGE * CPU_MS_PRICE),
    model: round(usage.model.usd),
  };
  const usd = round(Object.values(breakdown).reduce((sum, part) => sum + part, 0));
  const perMillion = { ...perOperation((op) => Math.round(PRICES[op] * 1e12) / 1e6), cpuMs: CPU_MS_PRICE * 1e6 };
  return {
    usd,
    usdPerMillionPages: pages > 0 ? Math.round((usd / pages) * 1e6 * 100) / 100 : null,
    breakdown,
    r2StorageUsdPerMonth: round((usage.r2Bytes / 1e9) * STORAGE_PRICES.r2GbMonth),
    prices: { perMillion, assumedCpuMsPerPage: ASSUMED_CPU_MS_PER_PAGE, storagePerGbMonth: STORAGE_PRICES },
  };
}

/** What a D1 result reports it cost (its meta). */
interface D1Meta {
  rows_read?: number;
  rows_written?: number;
}

/** Counts a crawl's operations as they happen (one meter per consumer invocation and crawl), to be reported with the crawl. */
export class UsageMeter {
  readonly usage: Usage = emptyUsage();

  /** The meter of a consumer invocation's work for one crawl: the invocation, and `messages` deliveries (reads). */
  static delivered(messages: number): UsageMeter {
    const meter = new UsageMeter();
    meter.count('workerInvocations');
    meter.count('queueOperations', messages);
    return meter;
  }

  count(op: Operation, n = 1): void {
    this.usage.operations[op] += n;
  }

  /** D1 results (of a statement or a batch): their rows read and written. */
  d1(results: readonly { meta: D1Meta }[]): void {
    for (const { meta } of results) {
      this.usage.operations.d1RowsRead += meta.rows_read ?? 0;
      this.usage.operations.d1RowsWritten += meta.rows_written ?? 0;
    }
  }

  /** One R2 put of `bytes` (Class A). */
  r2Put(bytes: number): void {
    this.usage.operations.r2ClassA += 1;
    this.usage.r2Bytes += bytes;
  }

  /** What the model step did for a page: its calls and tokens (with their price), or an answer had without a call. */
  modelWork(work: Partial<ModelUsage>): void {
    for (const key of MODEL_KEYS) this.usage.model[key] += work[key] ?? 0;
  }

  /** Messages written to a queue: one operation per 64 KB of each. */
  queueWrites(messageBytes: readonly number[]): void {
    for (const bytes of messageBytes) this.usage.operations.queueOperations += Math.max(1, Math.ceil(bytes / 65_536));
  }
}
