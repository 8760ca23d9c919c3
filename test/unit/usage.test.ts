import { describe, expect, it } from 'vitest';
import { addUsage, emptyUsage, estimateCost, UsageMeter } from '../../src/domain/crawl/usage';

describe('usage and its cost', () => {
  it('counts D1 results, R2 puts and queue messages as Cloudflare bills them', () => {
    const meter = new UsageMeter();
    meter.d1([{ meta: { rows_read: 4, rows_written: 2 } }, { meta: { rows_written: 1 } }, { meta: {} }]);
    meter.r2Put(1000);
    meter.r2Put(24);
    // A message is one operation per 64 KB.
    meter.queueWrites([10, 65_536, 65_537, 200_000]);
    meter.count('workerInvocations');
    expect(meter.usage.operations).toMatchObject({
      d1RowsRead: 4,
      d1RowsWritten: 3,
      r2ClassA: 2,
      queueOperations: 1 + 1 + 2 + 4,
      workerInvocations: 1,
    });
    expect(meter.usage.r2Bytes).toBe(1024);
  });

  it('prices a million pages at the published per-million prices', () => {
    const usage = emptyUsage();
    const perPage = { queueOperations: 3, d1RowsWritten: 1, durableObjectRowsWritten: 2 };
    addUsage(usage, { ...emptyUsage(), operations: { ...emptyUsage().operations, ...perPage } });
    for (const op of Object.keys(perPage) as (keyof typeof perPage)[]) usage.operations[op] *= 1e6;
    usage.operations.r2ClassA = 20_000; // one segment per 50 pages
    const estimate = estimateCost(usage, 1e6);
    expect(estimate.breakdown).toMatchObject({
      queueOperations: 1.2,
      d1RowsWritten: 1,
      durableObjectRowsWritten: 2,
      r2ClassA: 0.09,
    });
    // CPU is not measurable inside a Worker: an assumed figure per page, priced at $0.02 per million ms.
    expect(estimate.breakdown.cpu).toBeCloseTo(1e6 * estimate.prices.assumedCpuMsPerPage * 0.02e-6, 9);
    expect(estimate.usd).toBeCloseTo(1.2 + 1 + 2 + 0.09 + estimate.breakdown.cpu, 6);
    expect(estimate.usdPerMillionPages).toBeCloseTo(estimate.usd, 2);
    expect(estimateCost(emptyUsage(), 0).usdPerMillionPages).toBeNull();
  });

  it('prices browser time at $0.09 per browser hour, and adds renders up', () => {
    const usage = emptyUsage();
    addUsage(usage, { ...emptyUsage(), operations: { ...emptyUsage().operations, browserSeconds: 3600 }, renders: 2 });
    addUsage(usage, { ...emptyUsage(), renders: 1 });
    expect(usage.renders).toBe(3);
    expect(estimateCost(usage, 3).breakdown.browserSeconds).toBeCloseTo(0.09, 9);
    expect(estimateCost(usage, 3).prices.perMillion.browserSeconds).toBeCloseTo(25, 6);
  });
});
