/** `edgecrawl crawl URL... [options]`: POST /v1/crawls, then optionally follow it and write its pages out. */
import { readFileSync } from 'node:fs';
import type { InferRequestType } from 'hono/client';
import { integer, oneOf, readArgs } from '../args.ts';
import { type Client, expectOk } from '../client.ts';
import { CREDENTIAL_OPTIONS, CREDENTIAL_USAGE, readCredentialFlags } from '../credential-flags.ts';
import { CliError, isRecord, UsageError } from '../errors.ts';
import { MODEL_OPTIONS, MODEL_USAGE, type ModelAsk, readModelFlags, withModel } from '../model-flags.ts';
import { writePages } from '../pages-out.ts';
import { PROGRESS_MODES, waitForCrawl } from '../wait.ts';

/** The crawler-trap rules (src/domain/traps/rules.ts): what --no-trap takes. */
const TRAP_RULES = ['repeatedSegments', 'deepPaths', 'pathEchoes', 'urlPatterns', 'sessionParams', 'soft404'] as const;
type TrapRule = (typeof TRAP_RULES)[number];

const USAGE = `Usage: edgecrawl crawl URL... [options]
  Starts a crawl from the seed URLs and prints its id.
  --max-pages N        at most N pages (default 10,000; none: no limit)
  --max-depth N        links at most N hops from a seed
  --max-pages-per-host N  at most N pages of any one host
  --no-trap RULE       turn a crawler-trap rule off (repeatable): repeatedSegments, deepPaths, pathEchoes,
                       urlPatterns, sessionParams, soft404
  --similar            also record pages almost the same as one before as duplicates (duplicates: similar)
  --scope S            same-host (default), same-origin, same-domain, any
  --include P          URL pattern a link must match (repeatable)
  --exclude P          URL pattern of links to drop (repeatable)
  --extract SPEC       what pages are extracted into: formats (default markdown,metadata), a JSON spec, @file.json,
                       or none: a plain crawl (raw body, title and links; no markdown)
  --render MODE        auto (default), always, never
  --wait               follow the crawl to its end, with its progress on stderr
  --out DIR            wait, then write each page's markdown under DIR and DIR/index.jsonl
                       (extracts markdown and metadata unless --extract says otherwise)
  --progress MODE      bar (default on a terminal), lines (default otherwise), none
${CREDENTIAL_USAGE}
${MODEL_USAGE}
  --learn-selectors    with --json-schema: the model writes CSS selectors per page template, which read the
                       template's other pages without a call
  --max-model-pages N  at most N pages read by the model (cached answers and selector pages do not count)
  The model's formats are added to those --extract asks for (default markdown,metadata); with --out, each
  page's json and summary go in its line of DIR/index.jsonl.`;

const OPTIONS = {
  'max-pages': { type: 'string' },
  'max-depth': { type: 'string' },
  'max-pages-per-host': { type: 'string' },
  'no-trap': { type: 'string', multiple: true },
  similar: { type: 'boolean' },
  scope: { type: 'string' },
  include: { type: 'string', multiple: true },
  exclude: { type: 'string', multiple: true },
  extract: { type: 'string' },
  render: { type: 'string' },
  wait: { type: 'boolean' },
  out: { type: 'string', short: 'o' },
  progress: { type: 'string' },
  ...CREDENTIAL_OPTIONS,
  ...MODEL_OPTIONS,
  'learn-selectors': { type: 'boolean' },
  'max-model-pages': { type: 'string' },
} as const;

type CrawlRequest = InferRequestType<Client['v1']['crawls']['$post']>['json'];

export async function crawl(args: string[], client: Client): Promise<void> {
  const { values, positionals } = readArgs(args, OPTIONS, USAGE);
  if (values.help) return void process.stdout.write(`${USAGE}\n`);
  if (positionals.length === 0) throw new UsageError('missing URL', USAGE);
  const ask = readModelFlags(values, USAGE);
  const extract = withAsk(readExtract(values.extract, values.out !== undefined), ask);
  const maxModelPages = integer(values['max-model-pages'], '--max-model-pages', USAGE);
  const request: CrawlRequest = {
    seeds: positionals,
    maxPages: values['max-pages'] === 'none' ? null : integer(values['max-pages'], '--max-pages', USAGE),
    maxDepth: integer(values['max-depth'], '--max-depth', USAGE),
    maxPagesPerHost: integer(values['max-pages-per-host'], '--max-pages-per-host', USAGE),
    ...readTrapFlags(values['no-trap']),
    ...(values.similar ? { duplicates: 'similar' as const } : {}),
    scope: oneOf(values.scope, ['same-origin', 'same-host', 'same-domain', 'any'], '--scope', USAGE),
    include: values.include,
    exclude: values.exclude,
    render: oneOf(values.render, ['auto', 'always', 'never'], '--render', USAGE),
    ...(maxModelPages === undefined ? {} : { maxModelPages }),
    ...(extract === undefined ? {} : { extract: extract === null ? null : asApiInput(extract) }),
    ...readCredentialFlags(values, USAGE),
  };
  const progress =
    oneOf(values.progress, PROGRESS_MODES, '--progress', USAGE) ?? (process.stderr.isTTY ? 'bar' : 'lines');
  const res = await expectOk(client.v1.crawls.$post({ json: request }));
  const { id } = await res.json();
  process.stdout.write(`${id}\n`);
  if (!values.wait && values.out === undefined) return;
  const end = await waitForCrawl(client, id, progress);
  if (values.out !== undefined) {
    const { files, pages } = await writePages(client, id, values.out, { model: asksModel(extract) });
    process.stderr.write(`wrote ${files} markdown files for ${pages} pages to ${values.out} (index: index.jsonl)\n`);
  }
  if (end.status !== 'completed') throw new CliError(`crawl ${id} ended ${end.status}`);
}

/** The trap rules turned off by --no-trap (each a rule's name), as the API's `traps` object. */
function readTrapFlags(rules: string[] | undefined): { traps?: Partial<Record<TrapRule, boolean>> } {
  if (rules === undefined || rules.length === 0) return {};
  const names = rules.map((rule) => oneOf(rule, TRAP_RULES, '--no-trap', USAGE));
  return { traps: Object.fromEntries(names.map((rule) => [rule, false])) };
}

/**
 * The extract spec: a list of formats (`markdown,metadata`), a JSON object, or @file holding one; `none` is a plain
 * crawl (null). Not given: the API's default, markdown and metadata. With --out it must give markdown.
 */
function readExtract(value: string | undefined, needsMarkdown: boolean): Record<string, unknown> | null | undefined {
  if (value === undefined) return undefined;
  if (value.trim() === 'none') {
    if (needsMarkdown) throw new CliError('--out writes each page as markdown: it cannot be used with --extract none');
    return null;
  }
  let spec: unknown;
  if (value.startsWith('@') || value.trimStart().startsWith('{')) {
    const text = value.startsWith('@') ? readSpecFile(value.slice(1)) : value;
    try {
      spec = JSON.parse(text);
    } catch (error) {
      throw new CliError(`--extract is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
    }
  } else spec = { formats: value.split(',').map((f) => f.trim()) };
  if (!isRecord(spec)) throw new CliError('--extract must be a JSON object (an extract spec)');
  const formats = spec.formats;
  if (needsMarkdown && Array.isArray(formats) && !formats.includes('markdown'))
    throw new CliError('--out writes each page as markdown: --extract must include markdown in its formats');
  return spec;
}

/** Whether the spec asks a language model for json or a summary (given by flags or in --extract). */
function asksModel(extract: Record<string, unknown> | null | undefined): boolean {
  const formats = extract?.formats;
  return Array.isArray(formats) && formats.some((f) => f === 'json' || f === 'summary');
}

/** The spec with the model's formats and parts added; a plain crawl (--extract none) has nothing for them to read. */
function withAsk(
  extract: Record<string, unknown> | null | undefined,
  ask: ModelAsk | null,
): Record<string, unknown> | null | undefined {
  if (ask === null) return extract;
  if (extract === null)
    throw new UsageError(
      '--extract none is a plain crawl: --json-schema, --prompt and --summary need pages extracted',
      USAGE,
    );
  return withModel(extract, ask);
}

function readSpecFile(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new CliError(`--extract @${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * The one unchecked step: the extract spec is sent as the user wrote it, for the API to validate (a bad one is a 400
 * with the API's message); the CLI does not restate the API's schema.
 */
function asApiInput(spec: Record<string, unknown>): NonNullable<CrawlRequest['extract']> {
  return spec as NonNullable<CrawlRequest['extract']>;
}
