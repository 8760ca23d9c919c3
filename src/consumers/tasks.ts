import { UsageMeter } from '../domain/usage';
import { log } from '../log';
import { packSchema, taskSchema } from '../queues/frontier';
import type { CrawlTask } from '../types';

/** A frontier message (or a dead letter of one) with its task read. Tasks of one packed message share it. */
export type TaskMessage = { message: Message; task: CrawlTask };

/** The tasks of a message: itself, or the URLs it packs (see packSchema); none when it is malformed. */
function tasksOf(body: unknown): CrawlTask[] | null {
  const task = taskSchema.safeParse(body);
  if (task.success) return [task.data];
  const pack = packSchema.safeParse(body);
  if (!pack.success) return null;
  const { crawlId, tasks } = pack.data;
  return tasks.map((entry) => ({ crawlId, ...entry }));
}

/** Reads the tasks of a batch, grouped by crawl; a malformed message is logged and acked (retrying cannot mend it). */
export function tasksByCrawl(batch: MessageBatch, what: string): Map<string, TaskMessage[]> {
  const groups = new Map<string, TaskMessage[]>();
  for (const message of batch.messages) {
    const tasks = tasksOf(message.body);
    if (!tasks) {
      log('warn', `dropping malformed ${what}`, { id: message.id });
      message.ack();
      continue;
    }
    for (const task of tasks) groups.set(task.crawlId, [...(groups.get(task.crawlId) ?? []), { message, task }]);
  }
  return groups;
}

/**
 * A crawl's tasks of a batch with their messages metered (see meteredMessage), and the meter, which has counted
 * the invocation and each message delivered. A message packing several tasks is delivered once and answered once,
 * when all of its tasks have been (see sharedMessage).
 */
export function meteredGroup(items: readonly TaskMessage[]): { meter: UsageMeter; group: TaskMessage[] } {
  const parts = new Map<Message, number>();
  for (const { message } of items) parts.set(message, (parts.get(message) ?? 0) + 1);
  const meter = UsageMeter.delivered(parts.size);
  const handles = new Map<Message, Message[]>();
  for (const [message, count] of parts) {
    const metered = meteredMessage(message, meter);
    handles.set(message, count === 1 ? [metered] : sharedMessage(metered, count));
  }
  const group = items.map(({ message, task }) => ({ message: handles.get(message)?.shift() ?? message, task }));
  return { meter, group };
}

/**
 * One handle per task of a packed message. The message is answered once every handle has been: acked when all
 * were, else retried (with the longest delay asked). Tasks it retries that were done are not claimed again.
 */
function sharedMessage(message: Message, parts: number): Message[] {
  let answered = 0;
  let retry: QueueRetryOptions | null = null;
  const answer = () => {
    answered += 1;
    if (answered < parts) return;
    if (retry) message.retry(retry);
    else message.ack();
  };
  return Array.from({ length: parts }, (): Message => {
    let done = false;
    return {
      id: message.id,
      timestamp: message.timestamp,
      body: message.body,
      attempts: message.attempts,
      ack() {
        if (!done) answer();
        done = true;
      },
      retry(options) {
        if (done) return;
        done = true;
        retry = { delaySeconds: Math.max(retry?.delaySeconds ?? 0, options?.delaySeconds ?? 0) };
        answer();
      },
    };
  });
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
