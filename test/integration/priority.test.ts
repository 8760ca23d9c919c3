import { env } from 'cloudflare:workers';
import { describe, expect, inject, it } from 'vitest';
import { highPriority } from '../../src/queues/frontier';
import { api, createCrawl, getCrawl, namespace, site, waitForCrawl } from '../support/api';

describe('priorities', () => {
  it('routes high-priority crawls, sitemaps and boosted hubs to the high queue', () => {
    const normal = highPriority({ priority: 'normal', boost: ['**/category/**'] });
    expect(normal({ url: 'https://e.com/category/shoes', depth: 1, hops: 0 })).toBe(true);
    expect(normal({ url: 'https://e.com/item/1', depth: 1, hops: 0 })).toBe(false);
    expect(normal({ url: 'https://e.com/sitemap.xml', depth: 0, hops: 0, kind: 'sitemap' })).toBe(true);
    expect(highPriority({ priority: 'high', boost: [] })({ url: 'https://e.com/item/1', depth: 1, hops: 0 })).toBe(
      true,
    );
    expect(highPriority({ priority: 'normal', boost: [] })({ url: 'https://e.com/x', depth: 0, hops: 0 })).toBe(false);
  });

  it('a high-priority crawl started during a large crawl finishes about as fast as alone', async () => {
    const base = inject('hosts')[10] as string;
    const timed = async () => {
      const started = Date.now();
      const id = await createCrawl({ seeds: [`${base}/t/${namespace()}/pure-30/`], priority: 'high' });
      const crawl = await waitForCrawl(id);
      expect(crawl.counts.stored).toBe(31);
      return Date.now() - started;
    };
    const alone = await timed();

    // A large normal crawl with a deep backlog in the normal queue.
    const big = await createCrawl({ seeds: [`${site()}/t/${namespace()}/flat-3000-d50/`] });
    for (let i = 0; i < 200 && (await getCrawl(big)).counts.stored < 100; i++)
      await new Promise((r) => setTimeout(r, 100));
    const backlog = (await getCrawl(big)).pending;
    expect(backlog).toBeGreaterThan(500);

    const during = await timed();
    const stillRunning = (await getCrawl(big)).status;
    await api(`/v1/crawls/${big}`, { method: 'DELETE' });
    console.log(`priority: high crawl alone ${alone} ms, during a crawl with ${backlog} URLs pending ${during} ms`);
    expect(stillRunning).toBe('running');
    expect(during).toBeLessThan(alone * 2 + 3000);
    const row = await env.DB.prepare('SELECT config FROM crawls WHERE id = ?').bind(big).first<{ config: string }>();
    expect(JSON.parse(row?.config ?? '{}').priority).toBe('normal');
  });
});
