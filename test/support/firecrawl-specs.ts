/**
 * Firecrawl's own OpenAPI documents (v1, v2 and its webhook events), read in Node from `<repo>/../shared/specs/firecrawl/`
 * (../shared/specs/README.md). They are third-party data, present on developer machines and in CI, absent from a
 * user's clone: a check that needs them says it skipped without them. The global setup hands them to the workers tests
 * (inject('firecrawlSpecs')), which cannot read files themselves.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { FirecrawlSpecs } from './firecrawl-conformance.ts';

/** Where the documents are: the folder beside the repository's root. */
const FIRECRAWL_SPECS_DIR = new URL('../../../shared/specs/firecrawl/', import.meta.url).pathname;

/** The three documents, or null when ../shared is not there. */
export function readFirecrawlSpecs(dir = FIRECRAWL_SPECS_DIR): FirecrawlSpecs | null {
  const files = { v1: 'v1-openapi.json', v2: 'v2-openapi.json', webhooks: 'webhooks-openapi.json' };
  if (!Object.values(files).every((file) => existsSync(`${dir}${file}`))) return null;
  const read = (file: string): unknown => JSON.parse(readFileSync(`${dir}${file}`, 'utf8'));
  return { v1: read(files.v1), v2: read(files.v2), webhooks: read(files.webhooks) };
}
