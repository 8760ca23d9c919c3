#!/usr/bin/env node
// `node scripts/openapi-types.ts`: writes .types/openapi.d.ts, the API's types from docs/openapi.json, that the npm
// package's typed client (cli/package/index.ts) is checked against; `npm run typecheck` runs it first.
import { writeOpenapiTypes } from './lib/openapi-types.ts';

await writeOpenapiTypes();
