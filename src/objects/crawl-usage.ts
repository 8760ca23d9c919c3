import type { UsageMeter } from '../domain/crawl/usage';
import { log } from '../log';

/**
 * Adds what a meter counted to its crawl's usage (the crawl's Durable Object keeps it). A failure only loses the
 * count: it is logged, never thrown, so it cannot fail the work that was counted.
 */
export async function reportUsage(crawls: Env['CRAWL'], crawlId: string, meter: UsageMeter): Promise<void> {
  await crawls
    .getByName(crawlId)
    .recordUsage(meter.usage)
    .catch((error: unknown) => log('warn', 'usage not recorded', { crawlId, error: String(error) }));
}
