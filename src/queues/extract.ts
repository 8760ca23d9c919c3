import { z } from 'zod';

/** A step of a crawl's re-extraction: the pages after `after` (in URL order), for spec version `version`. */
export const reextractTaskSchema = z.object({
  crawlId: z.string().min(1).max(64),
  version: z.number().int().min(1),
  after: z.string().max(8192),
});

export type ReextractTask = z.output<typeof reextractTaskSchema>;

export async function sendReextractStep(queue: Queue, task: ReextractTask): Promise<void> {
  await queue.send(task, { contentType: 'json' });
}
