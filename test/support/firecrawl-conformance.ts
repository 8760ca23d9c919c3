/**
 * Firecrawl's answers as Firecrawl documents them: an answer of a Firecrawl route (`/v1/...`, `/v2/...`) is checked
 * against the response schema Firecrawl's own OpenAPI document gives its operation (by method, path and status), and a
 * webhook delivery in Firecrawl's format against the request body of its event in Firecrawl's webhooks document. The
 * documents are ../shared/specs/firecrawl (test/support/firecrawl-specs.ts reads them in Node); the edgecrawl routes
 * are checked the same way against edgecrawl's own document (test/support/published-schema.ts).
 *
 * Firecrawl's v1 and v2 documents are OpenAPI 3.0: `nullable: true` becomes a `null` type here, and `#/components/schemas`
 * references point into `$defs`, so that a JSON Schema 2020-12 validator reads them. Where a document and Firecrawl's
 * official clients disagree, the clients win (docs/firecrawl.md): DIFFERENCES lists those places, each with its reason.
 */
import { type Schema, Validator } from '@cfworker/json-schema';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/** The three documents as read from ../shared/specs/firecrawl (parsed JSON). */
export interface FirecrawlSpecs {
  v1: unknown;
  v2: unknown;
  webhooks: unknown;
}

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Parsed JSON as Json: it came from JSON.parse, so only its outer shape needs checking. */
const asJson = (value: unknown): JsonObject => (isObject(value) ? value : {});

interface Operation {
  name: string;
  pattern: RegExp;
  params: number;
  responses: JsonObject;
}

interface Document {
  version: 'v1' | 'v2';
  operations: Map<string, Operation[]>;
  defs: JsonObject;
}

export interface FirecrawlConformance {
  v1: Document;
  v2: Document;
  /** Each webhook event's body schema, by its `type` (crawl.page, batch_scrape.started …). */
  events: Map<string, JsonObject>;
  eventDefs: JsonObject;
  validators: WeakMap<JsonObject, Validator>;
}

/** A schema of OpenAPI 3.0 as JSON Schema 2020-12: `nullable` as a null type, component references as `$defs`. */
function toJsonSchema(value: Json): Json {
  if (Array.isArray(value)) return value.map(toJsonSchema);
  if (!isObject(value)) return value;
  const out: JsonObject = {};
  for (const [key, v] of Object.entries(value)) {
    if (key === 'nullable') continue;
    out[key] =
      key === '$ref' && typeof v === 'string' ? v.replace('#/components/schemas/', '#/$defs/') : toJsonSchema(v);
  }
  if (value.nullable !== true) return out;
  if (typeof out.type === 'string') {
    out.type = [out.type, 'null'];
    if (Array.isArray(out.enum)) out.enum = [...out.enum, null];
    return out;
  }
  return { anyOf: [out, { type: 'null' }] };
}

function readDocument(version: 'v1' | 'v2', raw: unknown): Document {
  const doc = asJson(raw);
  const operations = new Map<string, Operation[]>();
  for (const [path, item] of Object.entries(asJson(doc.paths))) {
    if (!isObject(item)) continue;
    const pattern = new RegExp(`^/${version}${path.replace(/\{\w+\}/g, '[^/]+')}$`);
    const params = (path.match(/\{/g) ?? []).length;
    for (const [method, op] of Object.entries(item)) {
      if (!isObject(op) || !isObject(op.responses)) continue;
      const list = operations.get(method.toUpperCase()) ?? [];
      list.push({ name: `${version} ${method.toUpperCase()} ${path}`, pattern, params, responses: op.responses });
      operations.set(method.toUpperCase(), list);
    }
  }
  const components = isObject(doc.components) ? asJson(doc.components.schemas) : {};
  return { version, operations, defs: asJson(toJsonSchema(components)) };
}

/** The webhooks document's events: each body schema under the `type` its `const` names. */
function readEvents(raw: unknown): Map<string, JsonObject> {
  const events = new Map<string, JsonObject>();
  for (const hook of Object.values(asJson(asJson(raw).webhooks))) {
    const body = asJson(asJson(asJson(asJson(hook).post).requestBody).content);
    const schema = asJson(asJson(body['application/json']).schema);
    const type = asJson(asJson(schema.properties).type).const;
    if (typeof type === 'string') events.set(type, asJson(toJsonSchema(schema)));
  }
  return events;
}

export function firecrawlConformance(specs: FirecrawlSpecs): FirecrawlConformance {
  const webhooks = asJson(specs.webhooks);
  const eventDefs = isObject(webhooks.components) ? asJson(toJsonSchema(asJson(webhooks.components.schemas))) : {};
  return {
    v1: readDocument('v1', specs.v1),
    v2: readDocument('v2', specs.v2),
    events: readEvents(specs.webhooks),
    eventDefs,
    validators: new WeakMap(),
  };
}

/**
 * Known differences from Firecrawl's documents, each with its reason: where the documents and Firecrawl's official
 * clients (firecrawl-py, @mendable/firecrawl-js) disagree and edgecrawl answers as the clients read it (`clients`), or
 * where edgecrawl answers otherwise on purpose (`edgecrawl`). `operation` matches the verdict's operation (`v2 GET
 * /crawl/active 200`), `problem` the validator's line (`<JSON pointer>: <error>`). docs/firecrawl.md lists them.
 */
export const DIFFERENCES: readonly {
  operation: RegExp;
  problem: RegExp;
  side: 'clients' | 'edgecrawl';
  why: string;
}[] = [
  {
    operation: /^v[12] GET \/crawl\/active 200$/,
    problem: /^#: Instance does not have required property "data"/,
    side: 'clients',
    why: 'the document requires `data` but describes `crawls`; both SDKs read `crawls` (firecrawl-py v2 get_active_crawls, firecrawl-js getActiveCrawls), as Firecrawl answers',
  },
  {
    operation: /^v[12] GET \/crawl\/active 200$/,
    problem: /^#\/crawls\/\d+: Instance does not have required property "status"/,
    side: 'clients',
    why: "the document requires each crawl's `status`; Firecrawl's server gives none and neither SDK reads one (firecrawl-py's ActiveCrawl: id, team_id, url, options)",
  },
  {
    operation: /^v[12] POST \/scrape 200$/,
    problem: /^#\/data\/changeTracking\/diff: /,
    side: 'clients',
    why: 'the v2 document gives `diff` as a string; firecrawl-py v1 (V1ChangeTrackingData.diff: Dict) and firecrawl-js v1 (`diff: {text, json}`) read an object, `{text}` with the git diff',
  },
  {
    operation: /^v[12] DELETE \/(crawl|batch\/scrape)\/\{id\} 200$/,
    problem: /^#\/status: Instance does not match any of \["cancelled"\]/,
    side: 'edgecrawl',
    why: 'cancelling a crawl that had already completed answers `completed` (Firecrawl says `cancelled`); the SDKs then return false, "not cancelled"',
  },
];

/** What a check found: `operation` null when the documents do not describe the answer (an undocumented status). */
export interface Verdict {
  operation: string | null;
  problems: string[];
  /** Differences from the document that DIFFERENCES accepts. */
  accepted: string[];
}

function validate(conf: FirecrawlConformance, name: string, schema: JsonObject, defs: JsonObject, body: unknown) {
  let validator = conf.validators.get(schema);
  if (!validator) {
    validator = new Validator({ ...schema, $defs: defs } as Schema, '2020-12', false);
    conf.validators.set(schema, validator);
  }
  const result = validator.validate(body);
  const leaves = result.errors.filter((e) => !['properties', '$ref', 'items', 'allOf'].includes(e.keyword));
  const verdict: Verdict = { operation: name, problems: [], accepted: [] };
  for (const e of leaves) {
    const line = `${e.instanceLocation}: ${e.error}`;
    const known = DIFFERENCES.some((d) => d.operation.test(name) && d.problem.test(line));
    (known ? verdict.accepted : verdict.problems).push(line);
  }
  return verdict;
}

/** Checks the JSON answer of `method path` (path without its query) with `status` against Firecrawl's document. */
export function checkFirecrawlAnswer(
  conf: FirecrawlConformance,
  method: string,
  path: string,
  status: number,
  body: unknown,
): Verdict {
  const doc = path.startsWith('/v1/') ? conf.v1 : conf.v2;
  const matching = (doc.operations.get(method) ?? []).filter((op) => op.pattern.test(path));
  const op = matching.sort((a, b) => a.params - b.params)[0];
  const answer = op?.responses[String(status)];
  const media = isObject(answer) && isObject(answer.content) ? answer.content['application/json'] : undefined;
  if (!op || !isObject(media) || !isObject(media.schema)) return { operation: null, problems: [], accepted: [] };
  const schema = asJson(toJsonSchema(media.schema));
  return validate(conf, `${op.name} ${status}`, schema, doc.defs, body);
}

/** Checks a webhook body in Firecrawl's format against its event in Firecrawl's webhooks document. */
export function checkFirecrawlWebhook(conf: FirecrawlConformance, body: unknown): Verdict {
  const type = isObject(body) ? body.type : undefined;
  const schema = typeof type === 'string' ? conf.events.get(type) : undefined;
  if (!schema || typeof type !== 'string') return { operation: null, problems: [], accepted: [] };
  return validate(conf, `webhook ${type}`, schema, conf.eventDefs, body);
}
