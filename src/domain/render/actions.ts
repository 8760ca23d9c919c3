import { z } from 'zod';
import { selectorSchema } from '../extract/spec-schema';
import { ACTION_KEYS, MAX_WAIT_FOR_MS } from './rules';

/** `actions` of a scrape: what is done in the rendered page, in order, before it is read. */
export const actionsSchema = z
  .array(
    z.discriminatedUnion('type', [
      z
        .object({
          type: z.literal('wait'),
          milliseconds: z.number().int().min(0).max(MAX_WAIT_FOR_MS).optional(),
          selector: selectorSchema.optional(),
        })
        .strict()
        .refine((a) => (a.milliseconds === undefined) !== (a.selector === undefined), {
          message: 'a wait action takes milliseconds or a selector',
        }),
      z.object({ type: z.literal('click'), selector: selectorSchema }).strict(),
      z.object({ type: z.literal('type'), selector: selectorSchema, text: z.string().max(10_000) }).strict(),
      z.object({ type: z.literal('write'), text: z.string().max(10_000) }).strict(),
      z.object({ type: z.literal('press'), key: z.enum(ACTION_KEYS) }).strict(),
      z
        .object({
          type: z.literal('scroll'),
          direction: z.enum(['up', 'down']).default('down'),
          amount: z.number().int().min(1).max(100_000).optional(),
        })
        .strict(),
    ]),
  )
  .max(20);
