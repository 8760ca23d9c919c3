import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { z } from 'zod';
import { canSeal, NO_KEY } from '../credentials';
import { MAX_SEEDS, MORE_SEEDS } from '../domain/crawl/settings';
import type { ShownCredentials } from '../domain/credentials/access';
import { type CredentialRequest, givenCredentials } from '../domain/credentials/fields';
import { asksModel } from '../domain/extract/spec';
import { decodeCursor } from '../domain/output/cursor';
import { isRefusedUrl } from '../domain/url/address';
import { modelClientOf } from '../page/model/client';
import { readSettings } from '../settings';
import type { CrawlConfig, Webhook } from '../types';
import { ApiError, badRequest } from './errors';
import { withRoutePart } from './openapi/route-doc';
import { MAX_BODY_BYTES } from './schemas';

/** Turns zod issues into one readable sentence: "seeds.0: Invalid URL; maxPages: Too big". */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.length ? issue.path.join('.') : '(body)'}: ${issue.message}`)
    .join('; ');
}

function parseWith<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw badRequest(`invalid ${what}: ${describeIssues(result.error)}`);
  return result.data;
}

/** A query as it is sent: the schema's keys (optional where they have a default), each a string. */
type QueryIn<T> = { [K in keyof T]: T[K] extends string | undefined ? T[K] : string };
type QueryInput<S extends z.ZodType<object>> = { in: { query: QueryIn<z.input<S>> }; out: { query: z.output<S> } };

/** Validates the query string; the typed result is `c.req.valid('query')`. A bad query is a 400. */
export function queryInput<S extends z.ZodType<object>>(
  schema: S,
): MiddlewareHandler<{ Bindings: Env }, string, QueryInput<S>> {
  const handler: MiddlewareHandler<{ Bindings: Env }, string, QueryInput<S>> = async (c, next) => {
    // As Hono's validator reads a query: a key given once is a string, a repeated one an array.
    const entries = Object.entries(c.req.queries()).map(([k, v]) => [k, v.length === 1 ? v[0] : v]);
    c.req.addValidatedData('query', parseWith(schema, Object.fromEntries(entries), 'query'));
    await next();
  };
  return withRoutePart(handler, { query: schema });
}

type JsonInput<S extends z.ZodType<object>> = { in: { json: z.input<S> }; out: { json: z.output<S> } };

/**
 * Validates a JSON body; the typed result is `c.req.valid('json')`. Another content type is a 415, malformed JSON
 * and schema violations are 400s. With `emptyBody`, an empty body counts as that value (whatever its type).
 */
export function jsonInput<S extends z.ZodType<object>>(
  schema: S,
  options: { emptyBody?: unknown } = {},
): MiddlewareHandler<{ Bindings: Env }, string, JsonInput<S>> {
  const handler: MiddlewareHandler<{ Bindings: Env }, string, JsonInput<S>> = async (c, next) => {
    const text = await c.req.text();
    let raw: unknown = options.emptyBody;
    if (options.emptyBody === undefined || text.trim() !== '') {
      const type = c.req.header('content-type') ?? '';
      if (!/^application\/(.+\+)?json\b/i.test(type))
        throw new ApiError(415, 'unsupported_media_type', 'Content-Type must be application/json');
      try {
        raw = JSON.parse(text);
      } catch {
        throw badRequest('request body is not valid JSON', 'invalid_json');
      }
    }
    c.req.addValidatedData('json', parseWith(schema, raw, 'request body'));
    await next();
  };
  return withRoutePart(handler, { json: schema, jsonOptional: options.emptyBody !== undefined });
}

/** Rejects request bodies over `maxSize` bytes with a 413 JSON error, and what to do instead (`hint`), if said. */
export function limitBody(maxSize: number, hint?: string): MiddlewareHandler {
  return bodyLimit({
    maxSize,
    onError: () => {
      throw new ApiError(
        413,
        'payload_too_large',
        `request body larger than ${maxSize} bytes${hint ? `: ${hint}` : ''}`,
      );
    },
  });
}

/** A crawl's body is mostly its seeds: one too large says how many a crawl takes and what to do with more. */
export const limitCrawlBody = (): MiddlewareHandler =>
  limitBody(MAX_BODY_BYTES, `a crawl takes at most ${MAX_SEEDS} seeds; ${MORE_SEEDS}`);

/** Decodes a pagination cursor into what `schema` expects; a cursor this API did not make is a 400. */
export function parseCursor<T>(cursor: string | undefined, schema: z.ZodType<T>): T | null {
  if (cursor === undefined || cursor === '') return null;
  const parsed = schema.safeParse(decodeCursor(cursor));
  if (!parsed.success) throw badRequest('invalid cursor', 'invalid_cursor');
  return parsed.data;
}

/** What a request asks for that this deployment refuses, with the path of its field. */
export interface Refusal {
  path: (string | number)[];
  message: string;
  code: string;
}

/**
 * A crawl's own gap between requests to a host can only slow it down: one below the deployment's floor
 * (HOST_MIN_INTERVAL_MS) would be ignored, so it is refused, saying what the floor is.
 */
function intervalRefusal(env: Env, hostIntervalMs: number | null | undefined): Refusal | null {
  const floor = readSettings(env).hostMinIntervalMs;
  if (hostIntervalMs === null || hostIntervalMs === undefined || hostIntervalMs >= floor) return null;
  return {
    path: ['hostIntervalMs'],
    code: 'invalid_request',
    message: `hostIntervalMs ${hostIntervalMs} is below this deployment's floor of ${floor} ms between requests to a host (HOST_MIN_INTERVAL_MS): a crawl may only slow down; give at least ${floor}, or null for the floor`,
  };
}

/**
 * Seeds, webhooks and login pages on private addresses are refused up front unless ALLOW_PRIVATE_NETWORKS allows
 * them (a webhook is a request the Worker makes, and a login one its browser makes, as much as a seed is), and a host
 * interval below the deployment's floor: what is refused, with the path of its field.
 */
export function requestRefusal(env: Env, config: RefusableRequest): Refusal | null {
  const allowance = readSettings(env).allowPrivateNetworks;
  const blocked = config.seeds.findIndex((seed) => isRefusedUrl(seed, allowance));
  if (blocked >= 0)
    return {
      path: ['seeds', blocked],
      code: 'private_address',
      message: `seed ${config.seeds[blocked]} is a private network address; allow it with ALLOW_PRIVATE_NETWORKS to crawl it`,
    };
  if (config.webhook && isRefusedUrl(config.webhook.url, allowance))
    return {
      path: ['webhook', 'url'],
      code: 'private_address',
      message: `webhook.url ${config.webhook.url} is a private network address; allow it with ALLOW_PRIVATE_NETWORKS to use it`,
    };
  if (config.login && isRefusedUrl(config.login.url, allowance))
    return {
      path: ['login', 'url'],
      code: 'private_address',
      message: `login.url ${config.login.url} is a private network address; allow it with ALLOW_PRIVATE_NETWORKS to log in there`,
    };
  return (
    intervalRefusal(env, config.hostIntervalMs) ?? modelRefusal(env, config.extract) ?? credentialsRefusal(env, config)
  );
}

/** What requestRefusal reads of a request. */
type RefusableRequest = Pick<CrawlConfig, 'seeds' | 'webhook'> &
  CredentialRequest & {
    hostIntervalMs?: number | null;
    extract?: { formats: readonly string[] } | null;
  };

/** A crawl or a schedule keeps its credentials sealed: given some where no key is set, it is refused up front. */
function credentialsRefusal(env: Env, request: CredentialRequest): Refusal | null {
  // The issue goes to the first field given, where a form shows it.
  const [field] = givenCredentials(request);
  if (field === undefined || canSeal(env)) return null;
  return { path: [field], code: 'credentials_unavailable', message: NO_KEY };
}

/** Formats json and summary need a language model: asked where none is configured, the request is refused up front. */
function modelRefusal(env: Env, extract: { formats: readonly string[] } | null | undefined): Refusal | null {
  if (!extract || !asksModel(extract.formats)) return null;
  try {
    if (modelClientOf(env) !== null) return null;
  } catch (error) {
    const message = `formats "json" and "summary" need a language model, and this deployment's is misconfigured: ${error instanceof Error ? error.message : String(error)}`;
    return { path: ['extract', 'formats'], code: 'model_not_configured', message };
  }
  return {
    path: ['extract', 'formats'],
    code: 'model_not_configured',
    message:
      'formats "json" and "summary" need a language model, and this deployment has none: set LLM_BASE_URL and LLM_MODEL (an OpenAI-compatible endpoint, e.g. a local Ollama) or bind Workers AI ([ai] binding = "AI" in wrangler.toml); see docs/models.md',
  };
}

/** The same refusal as a 400 (`private_address`, or `invalid_request`). */
export function assertRequestAllowed(env: Env, config: RefusableRequest): void {
  const refusal = requestRefusal(env, config);
  if (refusal) throw badRequest(refusal.message, refusal.code);
}

/** Why a URL to read now (a scrape's, a map's) is refused as a private address, named as what it is; null: it is not. */
function privateUrlRefusal(env: Env, url: string, use: 'scrape' | 'map'): string | null {
  if (!isRefusedUrl(url, readSettings(env).allowPrivateNetworks)) return null;
  return `${url} is a private network address; allow it with ALLOW_PRIVATE_NETWORKS to ${use} it`;
}

/**
 * A scrape's URL and spec, refused as a crawl's would be. A private address is a 422 (`private_address`), as when the
 * scrape's fetch refuses one a redirect leads to (jobs/scrape.ts), and is named as the scrape's URL: it has no seed.
 */
export function assertScrapeAllowed(env: Env, url: string, extract: { formats: readonly string[] }): void {
  const refused = privateUrlRefusal(env, url, 'scrape');
  if (refused !== null) throw new ApiError(422, 'private_address', refused);
  assertRequestAllowed(env, { seeds: [], webhook: null, extract });
}

/** A map's URL, refused as a private address (400 `private_address`, as a crawl's seed), named as its URL. */
export function assertMapAllowed(env: Env, url: string): void {
  const refused = privateUrlRefusal(env, url, 'map');
  if (refused !== null) throw badRequest(refused, 'private_address');
}

/** A webhook as the API shows it: its secret and its headers' values are never shown, only the headers' names. */
type ShownWebhook = Omit<Webhook, 'secret' | 'headers'> & { headerNames?: string[] };

/**
 * A crawl request as the API shows it: the webhook's secret and headers are write-only, and so are its credentials
 * (shown by name: domain/credentials/access.ts; their sealed values never leave storage).
 */
export function presentConfig<C extends Pick<CrawlConfig, 'webhook'> & { credentials: ShownCredentials | null }>(
  config: C,
): Omit<C, 'webhook' | 'credentials'> & { webhook?: ShownWebhook | null; credentials: ShownCredentials | null } {
  const credentials = config.credentials ? shownOf(config.credentials) : null;
  if (!config.webhook) return { ...config, credentials };
  const { secret: _secret, headers, ...shown } = config.webhook;
  return { ...config, credentials, webhook: { ...shown, ...(headers ? { headerNames: Object.keys(headers) } : {}) } };
}

/** The shown part of credentials (stored ones are sealed too: never shown). */
const shownOf = ({ hosts, headers, cookies, authenticate, login }: ShownCredentials): ShownCredentials => ({
  hosts,
  headers,
  cookies,
  authenticate,
  login,
});
