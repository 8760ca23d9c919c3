import type { z } from 'zod';
import { type CrawlConfig, crawlConfigSchema } from './domain/crawl/settings';
import { type ExtractSpec, extractSpecSchema } from './domain/extract/spec-schema';

/** Stored data that does not have the shape this version reads: a bug or a hand-edited row, never a user's input. */
class StoredDataError extends Error {}

/**
 * Configs read in this isolate, by their JSON text: a config never changes, and its full check (each seed
 * normalized, patterns and selectors compiled) costs 0.3 ms for one seed, 1.9 ms for 1,000 (Node), which a list of
 * crawls would pay per crawl at each poll. The oldest is dropped past MAX_PARSED.
 */
const parsedConfigs = new Map<string, CrawlConfig>();
const MAX_PARSED = 256;

/**
 * Parses a stored config's JSON text (D1's crawls and schedules rows, the crawl's Durable Object) with the schema the
 * API validated it with: a row written before a setting existed gets its default, and a corrupt row fails loudly
 * where it is read. `where` names the row for the error.
 */
export function parseStoredConfig(json: string, where: string): CrawlConfig {
  const known = parsedConfigs.get(json);
  if (known) return known;
  const config = parseStored(crawlConfigSchema, json, `${where}: stored crawl config`);
  if (parsedConfigs.size >= MAX_PARSED) parsedConfigs.delete(parsedConfigs.keys().next().value ?? '');
  parsedConfigs.set(json, config);
  return config;
}

/** Parses a stored extraction spec's JSON text (a re-extraction's); `where` names the row for the error. */
export function parseStoredExtract(json: string, where: string): ExtractSpec {
  return parseStored(extractSpecSchema, json, `${where}: stored extraction spec`);
}

function parseStored<S extends z.ZodType>(schema: S, json: string, what: string): z.output<S> {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    throw new StoredDataError(`${what} is not JSON`);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new StoredDataError(`${what} is invalid: ${issue ? `${issue.path.join('.')}: ${issue.message}` : 'unknown'}`);
  }
  return parsed.data;
}
