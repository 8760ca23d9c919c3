/**
 * `import { createClient } from 'edgecrawl'`: the npm package's typed client of the edgecrawl API. openapi-fetch over
 * the API's types generated from its OpenAPI document (docs/openapi.json; .types/openapi.d.ts, written by
 * scripts/openapi-types.ts), so its paths, parameters, request bodies and answers are the document's. Runs wherever
 * fetch does (Node 20+, browsers, Workers); scripts/build-package.ts bundles it with openapi-fetch and ships its
 * declarations with the API's (docs/cli.md, "The package").
 */
import createFetchClient, { type Client, type ClientOptions, mergeHeaders } from 'openapi-fetch';
import type { components, operations, paths } from '../../.types/openapi.d.ts';

export type { Middleware } from 'openapi-fetch';
export type { components, operations, paths };

/** A schema the API names (`Schema<'Crawl'>`, `Schema<'PageRecord'>`, `Schema<'ScrapeResult'>`, …). */
export type Schema<Name extends keyof components['schemas']> = components['schemas'][Name];

/** The client: `GET`, `POST`, `PUT`, `PATCH`, `DELETE` of the API's paths, each typed by the document. */
export type EdgecrawlClient = Client<paths>;

export interface EdgecrawlOptions extends Omit<ClientOptions, 'baseUrl'> {
  /** The edgecrawl to talk to: default EDGECRAWL_URL from the environment, else http://localhost:8787. */
  url?: string;
  /** Its API token, sent as `Authorization: Bearer <token>`: default EDGECRAWL_TOKEN, else dev-token. */
  token?: string;
}

/** The environment, where there is one (Node); elsewhere nothing. */
function environment(): Record<string, string | undefined> {
  const { process } = globalThis as { process?: { env?: Record<string, string | undefined> } };
  return process?.env ?? {};
}

/**
 * A client of the edgecrawl at `url` (as the CLI finds it: EDGECRAWL_URL and EDGECRAWL_TOKEN, else the local one
 * `npm start` runs). Each call answers `{ data, error, response }`: `data` when the status is 2xx, else `error`, the
 * API's `{ error: { code, message } }`.
 */
export function createClient(options: EdgecrawlOptions = {}): EdgecrawlClient {
  const { url, token, headers, ...rest } = options;
  const env = environment();
  const baseUrl = (url || env.EDGECRAWL_URL || 'http://localhost:8787').replace(/\/+$/, '');
  const bearer = token || env.EDGECRAWL_TOKEN || 'dev-token';
  return createFetchClient<paths>({
    ...rest,
    baseUrl,
    headers: mergeHeaders({ authorization: `Bearer ${bearer}` }, headers),
  });
}
