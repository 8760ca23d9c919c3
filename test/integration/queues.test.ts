/** The Worker's queue handler gives each queue of wrangler.toml to its consumer, and no other queue to any. */
import { describe, expect, it } from 'vitest';
import { namespace, site, siteLog } from '../support/api';
import { insertCrawlRow, queueMessage, runQueue, testConfig } from '../support/fixtures';

describe('the queue handler', () => {
  it('refuses a batch from a queue it does not know instead of fetching its messages as frontier tasks', async () => {
    const ns = namespace();
    const url = `${site()}/t/${ns}/pure-1/`;
    const crawlId = crypto.randomUUID();
    await insertCrawlRow(crawlId, testConfig({ seeds: [url] }));
    const task = { crawlId, url, depth: 0 };
    await expect(runQueue('edgecrawl-frontier-typo', [queueMessage(task)])).rejects.toThrow(
      /edgecrawl does not consume queue "edgecrawl-frontier-typo"/,
    );
    expect(await siteLog(ns)).toEqual([]);
  });
});
