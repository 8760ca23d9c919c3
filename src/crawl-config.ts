import { z } from 'zod';
import { type ExtractSpec, FIELD_TYPES, type FieldSpec, OUTPUT_FORMATS } from './domain/extract/spec';
import { RENDER_MODES } from './domain/render';
import { SCOPES } from './domain/scope';
import type { CrawlConfig } from './types';

/** Stored data that does not have the shape this version reads: a bug or a hand-edited row, never a user's input. */
class StoredDataError extends Error {}

const storedFieldSchema: z.ZodType<FieldSpec> = z.lazy(() =>
  z.object({
    selector: z.string(),
    attr: z.string().optional(),
    type: z.enum(FIELD_TYPES).optional(),
    list: z.boolean().optional(),
    fields: z.record(z.string(), storedFieldSchema).optional(),
  }),
);

/** An extraction spec as stored (validated in full when it was given: selectors ran then). */
const storedExtractSchema: z.ZodType<ExtractSpec> = z.object({
  formats: z.array(z.enum(OUTPUT_FORMATS)),
  mainContent: z.union([z.boolean(), z.object({ selector: z.string() })]),
  include: z.array(z.string()),
  exclude: z.array(z.string()),
  fields: z.record(z.string(), storedFieldSchema),
});

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
  extract: storedExtractSchema.nullable().optional(),
  retentionDays: z.number().int().nullable().optional(),
  render: z.enum(RENDER_MODES).optional(),
  waitFor: z.union([z.number(), z.string()]).nullable().optional(),
  maxRenders: z.number().int().nullable().optional(),
});

/** Parses a stored config's JSON text; `where` names the row for the error. */
export function parseStoredConfig(json: string, where: string): CrawlConfig {
  return parseStored(storedConfigSchema, json, `${where}: stored crawl config`);
}

/** Parses a stored extraction spec's JSON text (a re-extraction's); `where` names the row for the error. */
export function parseStoredExtract(json: string, where: string): ExtractSpec {
  return parseStored(storedExtractSchema, json, `${where}: stored extraction spec`);
}

function parseStored<T>(schema: z.ZodType<T>, json: string, what: string): T {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    throw new StoredDataError(`${what} is not JSON`);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new StoredDataError(`${what} is invalid: ${parsed.error.issues[0]?.message ?? 'unknown'}`);
  return parsed.data;
}
