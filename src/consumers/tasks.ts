import type { UsageMeter } from '../domain/crawl/usage';
import { log } from '../log';
import { taskSchema } from '../queues/frontier';
import type { CrawlTask } from '../types';

/** A frontier message (or a dead letter of one) with its task read. */
export type TaskMessage = { message: Message; task: CrawlTask };

/** Reads the tasks of a batch, grouped by crawl; a malformed message is logged and acked (retrying cannot mend it). */
export function tasksByCrawl(batch: MessageBatch, what: string): Map<string, TaskMessage[]> {
  const groups = new Map<string, TaskMessage[]>();
  for (const message of batch.messages) {
    const parsed = taskSchema.safeParse(message.body);
    if (!parsed.success) {
      log('warn', `dropping malformed ${what}`, { id: message.id });
      message.ack();
      continue;
    }
    const task = parsed.data;
    groups.set(task.crawlId, [...(groups.get(task.crawlId) ?? []), { message, task }]);
  }
  return groups;
}

/**
 * The message, its acks counted as the queue bills them: each delivery is one read (counted by the caller), an ack
 * one delete; a retry costs nothing until the message is delivered again.
 */
export function meteredMessage(message: Message, meter: UsageMeter): Message {
  let acked = false;
  return {
    id: message.id,
    timestamp: message.timestamp,
    body: message.body,
    attempts: message.attempts,
    ack() {
      message.ack();
      if (!acked) meter.count('queueOperations');
      acked = true;
    },
    retry(options) {
      message.retry(options);
    },
  };
}
