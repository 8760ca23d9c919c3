import { createApp } from './api/app';
import { consumeDeadLetters } from './consumers/dead-letters';
import { consumeFrontier } from './consumers/frontier';
import { consumeModel } from './consumers/model';
import { consumeReextraction } from './consumers/reextract';
import { consumeWebhooks } from './consumers/webhooks';
import { runHousekeeping } from './jobs/purge';
import { runDueSchedules } from './jobs/schedules';
import { log } from './log';

export { BrowserPool } from './objects/browser-pool';
export { CrawlCoordinator } from './objects/crawl-coordinator';
export { HostGate } from './objects/host-gate';
export { ModelGate } from './objects/model-gate';

const app = createApp();

type Consumer = (batch: MessageBatch, env: Env) => Promise<void>;

/** The consumer of a queue, by the end of its name (wrangler.toml's names, or a deployment's own prefix): or none. */
function consumerOf(queue: string): Consumer | null {
  if (/-frontier(-high|-paced)?$/.test(queue)) return consumeFrontier;
  if (queue.endsWith('-dlq')) return consumeDeadLetters;
  if (queue.endsWith('-webhooks')) return consumeWebhooks;
  if (queue.endsWith('-extract')) return consumeReextraction;
  if (queue.endsWith('-model')) return consumeModel;
  return null;
}

export default {
  fetch: app.fetch,
  async scheduled(controller, env, ctx) {
    ctx.waitUntil(runDueSchedules(env, controller.scheduledTime));
    ctx.waitUntil(runHousekeeping(env, controller.scheduledTime));
  },
  async queue(batch, env) {
    const consume = consumerOf(batch.queue);
    if (!consume) {
      // Not a queue of wrangler.toml's: no consumer guesses at its messages; they come back, and go to its dead-letter
      // queue if it has one.
      log('error', 'a batch from a queue edgecrawl does not consume', {
        queue: batch.queue,
        messages: batch.messages.length,
      });
      throw new Error(`edgecrawl does not consume queue ${JSON.stringify(batch.queue)} (see [[queues.consumers]])`);
    }
    await consume(batch, env);
  },
} satisfies ExportedHandler<Env>;
