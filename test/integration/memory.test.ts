import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { CrawlTask } from '../../src/types';
import { namespace, site, siteLog } from '../support/api';
import { insertCrawlRow, queueMessage, runQueue, testConfig } from '../support/fixtures';

const MiB = 1024 * 1024;

describe('bodies held in memory by one invocation', () => {
  it('are recorded in chunks of at most 16 MiB of bodies, so a batch of large pages does not pile up in an isolate', async () => {
    const ns = namespace();
    // One queue batch of 12 pages of ~3 MiB: ~37 MiB of bodies.
    const urls = Array.from({ length: 12 }, (_, i) => `${site()}/t/${ns}/bench-12-3000-1/p${i}.html`);
    const id = crypto.randomUUID();
    const config = testConfig({ seeds: urls, maxDepth: 0 });
    await insertCrawlRow(id, config);
    await env.CRAWL.getByName(id).start(id, config);
    const result = await runQueue(
      'edgecrawl-frontier',
      urls.map((url) => queueMessage({ crawlId: id, url, depth: 0, hops: 0 } satisfies CrawlTask)),
    );
    expect(result.explicitAcks).toHaveLength(12);
    expect(await siteLog(ns)).toHaveLength(12);
    const { objects } = await env.BODIES.list({ prefix: `crawls/${id}/segments/`, include: ['customMetadata'] });
    expect(objects.reduce((sum, o) => sum + Number(o.customMetadata?.pages ?? 0), 0)).toBe(12);
    // A chunk closes once its bodies reach 16 MiB: no segment holds more than that plus the page that passed it.
    expect(objects.length).toBeGreaterThanOrEqual(2);
    for (const o of objects) expect(o.size).toBeLessThan(16 * MiB + 3.5 * MiB);
  });

  it('follow MEMORY_BUDGET_BYTES: at 8 MiB, chunks of at most 4 MiB of bodies', async () => {
    const ns = namespace();
    // Six pages of ~3 MiB: at the default budget they would be one or two chunks of up to 16 MiB.
    const urls = Array.from({ length: 6 }, (_, i) => `${site()}/t/${ns}/bench-6-3000-1/p${i}.html`);
    const id = crypto.randomUUID();
    const config = testConfig({ seeds: urls, maxDepth: 0 });
    await insertCrawlRow(id, config);
    await env.CRAWL.getByName(id).start(id, config);
    const result = await runQueue(
      'edgecrawl-frontier',
      urls.map((url) => queueMessage({ crawlId: id, url, depth: 0, hops: 0 } satisfies CrawlTask)),
      { ...env, MEMORY_BUDGET_BYTES: String(8 * MiB) },
    );
    expect(result.explicitAcks).toHaveLength(6);
    const { objects } = await env.BODIES.list({ prefix: `crawls/${id}/segments/`, include: ['customMetadata'] });
    expect(objects.reduce((sum, o) => sum + Number(o.customMetadata?.pages ?? 0), 0)).toBe(6);
    expect(objects.length).toBeGreaterThanOrEqual(3);
    for (const o of objects) expect(o.size).toBeLessThan(4 * MiB + 3.5 * MiB);
  });
});
