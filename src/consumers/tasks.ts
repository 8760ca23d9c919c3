import type { UsageMeter } from '../domain/crawl/usage';
import { log } from '../log';
import { type CarriedTask, type Outgoing, tasksOfBody } from '../queues/frontier';
import type { CrawlTask } from '../types';

/** A frontier task (or a dead letter of one) with the message it is answered through (see Envelope). */
export type TaskMessage = { message: Message; task: CrawlTask };

/** Sends URLs of a message back to the queue, each with its deliveries, delayed `delaySeconds`. */
export type Resend = (items: Outgoing[], delaySeconds: number) => Promise<void>;

type Answer = { do: 'ack' } | { do: 'retry'; delaySeconds: number };

/**
 * A frontier message and its URLs (queues/frontier.ts: up to TASKS_PER_MESSAGE of one crawl), each answered on its
 * own through a message of its own (`tasks`: ack, retry, and its deliveries, counting those it had in earlier
 * messages), the message itself once when all have answered (settle). A URL's lease is held by its own message id.
 */
export class Envelope {
  readonly tasks: TaskMessage[];
  private readonly answers: (Answer | null)[];

  constructor(
    private readonly message: Message,
    carried: readonly CarriedTask[],
  ) {
    this.answers = carried.map(() => null);
    this.tasks = carried.map(({ task, priorDeliveries }, i) => ({
      task,
      message: this.messageOf(i, task, priorDeliveries, carried.length === 1),
    }));
  }

  /** The message of the `i`th URL: its first answer is the one kept. */
  private messageOf(i: number, task: CrawlTask, prior: number, alone: boolean): Message {
    const { message, answers } = this;
    return {
      id: alone ? message.id : `${message.id}#${i}`,
      timestamp: message.timestamp,
      body: task,
      attempts: prior + message.attempts,
      ack() {
        answers[i] ??= { do: 'ack' };
      },
      retry(options) {
        answers[i] ??= { do: 'retry', delaySeconds: options?.delaySeconds ?? 0 };
      },
    };
  }

  /**
   * Answers the message from its URLs' answers (one not answered is acked, as the queue acks a message its handler
   * left): all acked, acked; all retried, retried (delayed as the latest asked), so a message whose consumer keeps
   * failing still reaches the dead-letter queue; some retried, those sent back as new messages (`resend`, each keeping
   * its deliveries, grouped by delay) and the message acked, or retried whole when that fails or cannot be done (a
   * URL acked before then comes back, and its crawl answers it unclaimed).
   */
  async settle(resend: Resend | null): Promise<void> {
    const retried = this.answers.flatMap((a, i) => (a?.do === 'retry' ? [{ i, delay: a.delaySeconds }] : []));
    if (retried.length === 0) return this.message.ack();
    const latest = Math.max(...retried.map((r) => r.delay));
    if (retried.length === this.answers.length || !resend) return this.message.retry({ delaySeconds: latest });
    const delays = [...new Set(retried.map((r) => r.delay))];
    try {
      for (const delay of delays)
        await resend(
          retried.filter((r) => r.delay === delay).map(({ i }) => this.outgoing(i)),
          delay,
        );
    } catch (error) {
      log('warn', 'sending URLs of a message back failed; the message is retried whole', { error: String(error) });
      return this.message.retry({ delaySeconds: latest });
    }
    this.message.ack();
  }

  private outgoing(i: number): Outgoing {
    const { task, message } = this.tasks[i] as TaskMessage;
    const { crawlId: _c, ...entry } = task;
    return { entry, priorDeliveries: message.attempts };
  }
}

/** A frontier message (or a dead letter of one) and the tasks its body carries. */
export interface Carrier {
  message: Message;
  carried: CarriedTask[];
}

/**
 * Reads the messages of a batch, grouped by crawl (a message carries one crawl's URLs); a malformed message is logged
 * and acked (retrying cannot mend it).
 */
export function messagesByCrawl(batch: MessageBatch, what: string): Map<string, Carrier[]> {
  const groups = new Map<string, Carrier[]>();
  for (const message of batch.messages) {
    const carried = tasksOfBody(message.body);
    const crawlId = carried?.[0]?.task.crawlId;
    if (!carried || crawlId === undefined) {
      log('warn', `dropping malformed ${what}`, { id: message.id });
      message.ack();
      continue;
    }
    groups.set(crawlId, [...(groups.get(crawlId) ?? []), { message, carried }]);
  }
  return groups;
}

/** One crawl's messages of a batch as envelopes, their acks counted by `meter` (its deliveries are the caller's). */
export function envelopesOf(carriers: readonly Carrier[], meter: UsageMeter): Envelope[] {
  return carriers.map(({ message, carried }) => new Envelope(meteredMessage(message, meter), carried));
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
