/** Starting a crawl when its seeds cannot be sent at once: the crawl exists, so the start does not fail. */
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { crawlConfigSchema } from '../../src/domain/crawl/settings';
import { startCrawl } from '../../src/jobs/start';
import { api, getCrawl, namespace, site, waitForCrawl } from '../support/api';

/** The Worker's env with a frontier queue whose first `failures` sends fail, counting every send. */
function flakyQueue(failures: number): { env: Env; sends: () => number } {
  let sends = 0;
  const fail = async () => {
    sends += 1;
    if (sends <= failures) throw new Error('queue unavailable');
  };
  const queue = {
    send: async (...args: Parameters<Queue['send']>) => {
      await fail();
      return env.FRONTIER.send(...args);
    },
    sendBatch: async (...args: Parameters<Queue['sendBatch']>) => {
      await fail();
      return env.FRONTIER.sendBatch(...args);
    },
  };
  return { env: { ...env, FRONTIER: queue as Queue }, sends: () => sends };
}

describe('starting a crawl', () => {
  it('tries a failed seed send again, and the crawl runs', async () => {
    const ns = namespace();
    const flaky = flakyQueue(1);
    const config = crawlConfigSchema.parse({ seeds: [`${site()}/t/${ns}/pure-1/`] });
    const id = await startCrawl(flaky.env, config);
    expect(flaky.sends()).toBe(2);
    expect((await waitForCrawl(id)).status).toBe('completed');
  });

  it('answers the crawl it made even when no send succeeds (its seeds wait for the sweeper), never an error', async () => {
    const ns = namespace();
    const flaky = flakyQueue(Number.POSITIVE_INFINITY);
    const config = crawlConfigSchema.parse({ seeds: [`${site()}/t/${ns}/pure-1/`] });
    const id = await startCrawl(flaky.env, config);
    expect(flaky.sends()).toBe(3);
    const crawl = await getCrawl(id);
    expect(crawl).toMatchObject({ status: 'running', pending: 1 });
    expect((await api(`/v1/crawls/${id}`, { method: 'DELETE' })).status).toBe(200);
  });
});
