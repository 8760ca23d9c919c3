import { z } from 'zod';
import { SCOPES } from './domain/scope';
import type { CrawlConfig } from './types';

/** Stored data that does not have the shape this version reads: a bug or a hand-edited row, never a user's input. */
class StoredDataError extends Error {}

/**
 * A crawl config as stored (D1's crawls and schedules rows, the crawl's Durable Object). Read back through this,
 * not cast: rows written before a field existed get its default, and a corrupt row fails loudly where it is read.
 */
const storedConfigSchema: z.ZodType<CrawlConfig> = z.object({
  seeds: z.array(z.string()).min(1),
  scope: z.enum(SCOPES),
  include: z.array(z.string()).default([]),
  exclude: z.array(z.string()).default([]),
  maxDepth: z.number().int().nullable().default(null),
  maxPages: z.number().int().nullable().default(null),
  hostIntervalMs: z.number().int().nullable().default(null),
  hostConcurrency: z.number().int().nullable().default(null),
  sitemaps: z.boolean().default(false),
  recrawlOf: z.union([z.string(), z.literal(true)]).optional(),
  priority: z.enum(['high', 'normal']).optional(),
  boost: z.array(z.string()).optional(),
  webhook: z.object({ url: z.string(), secret: z.string() }).nullable().optional(),
});

/** Parses a stored config's JSON text; `where` names the row for the error. */
export function parseStoredConfig(json: string, where: string): CrawlConfig {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    throw new StoredDataError(`${where}: stored crawl config is not JSON`);
  }
  const parsed = storedConfigSchema.safeParse(raw);
  if (!parsed.success) throw new StoredDataError(`${where}: stored crawl config is invalid: ${parsed.error.issues[0]?.message ?? 'unknown'}`);
  return parsed.data;
}
