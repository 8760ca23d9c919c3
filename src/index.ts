import { createApp } from './api/app';
import { consumeDeadLetters } from './crawl/dead-letters';
import { consumeFrontier } from './crawl/consumer';
import { runDueSchedules } from './crawl/scheduler';
import { consumeWebhooks } from './webhooks/deliver';

export { CrawlCoordinator } from './crawl/coordinator';
export { HostGate } from './crawl/host-gate';

const app = createApp();

export default {
  fetch: app.fetch,
  async scheduled(_controller, env, ctx) {
    ctx.waitUntil(runDueSchedules(env));
  },
  async queue(batch, env) {
    if (batch.queue.endsWith('-dlq')) await consumeDeadLetters(batch, env);
    else if (batch.queue.endsWith('-webhooks')) await consumeWebhooks(batch, env);
    else await consumeFrontier(batch, env);
  },
} satisfies ExportedHandler<Env>;
