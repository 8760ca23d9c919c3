import { createApp } from './api/app';
import { consumeDeadLetters } from './consumers/dead-letters';
import { consumeFrontier } from './consumers/frontier';
import { consumeReextraction } from './consumers/reextract';
import { consumeWebhooks } from './consumers/webhooks';
import { runHousekeeping } from './jobs/purge';
import { runDueSchedules } from './jobs/schedules';

export { BrowserPool } from './objects/browser-pool';
export { CrawlCoordinator } from './objects/crawl-coordinator';
export { HostGate } from './objects/host-gate';

const app = createApp();

export default {
  fetch: app.fetch,
  async scheduled(controller, env, ctx) {
    ctx.waitUntil(runDueSchedules(env, controller.scheduledTime));
    ctx.waitUntil(runHousekeeping(env, controller.scheduledTime));
  },
  async queue(batch, env) {
    if (batch.queue.endsWith('-dlq')) await consumeDeadLetters(batch, env);
    else if (batch.queue.endsWith('-webhooks')) await consumeWebhooks(batch, env);
    else if (batch.queue.endsWith('-extract')) await consumeReextraction(batch, env);
    else await consumeFrontier(batch, env);
  },
} satisfies ExportedHandler<Env>;
