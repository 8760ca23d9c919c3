/**
 * The API's types from its OpenAPI document (docs/openapi.json), by openapi-typescript, as docs/api.md tells a user
 * to generate them (`--default-non-nullable false`: a request field with a default stays optional). The typed client
 * of the npm package (cli/package/index.ts) is typed by them; `npm run typecheck` and `npm run build:package` write
 * them to .types/openapi.d.ts.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import openapiTS, { astToString, COMMENT_HEADER, type OpenAPI3 } from 'openapi-typescript';

const root = new URL('../../', import.meta.url).pathname;

/** Where the declarations go: cli/package/index.ts imports them from there. */
const OPENAPI_TYPES = join(root, '.types/openapi.d.ts');

/** Writes .types/openapi.d.ts from docs/openapi.json; answers its path. */
export async function writeOpenapiTypes(): Promise<string> {
  const document = JSON.parse(readFileSync(join(root, 'docs/openapi.json'), 'utf8')) as OpenAPI3;
  const nodes = await openapiTS(document, { defaultNonNullable: false, silent: true });
  mkdirSync(dirname(OPENAPI_TYPES), { recursive: true });
  writeFileSync(OPENAPI_TYPES, `${COMMENT_HEADER}${astToString(nodes)}`);
  return OPENAPI_TYPES;
}
