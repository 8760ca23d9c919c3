/** `edgecrawl scrape URL [--format markdown|json] [--render auto|always|never] [model flags]`: POST /v1/scrape. */
import type { InferRequestType } from 'hono/client';
import { oneOf, readArgs, single } from '../args.ts';
import { type Client, expectOk } from '../client.ts';
import { CREDENTIAL_OPTIONS, CREDENTIAL_USAGE, readCredentialFlags } from '../credential-flags.ts';
import { CliError } from '../errors.ts';
import {
  MODEL_OPTIONS,
  MODEL_USAGE,
  type ModelFacts,
  modelMarkdown,
  modelNote,
  readModelFlags,
  withModel,
} from '../model-flags.ts';

const USAGE = `Usage: edgecrawl scrape URL [--format markdown|json] [--render auto|always|never] [options]
  Fetches and extracts one page now (nothing is stored): its markdown on stdout, or with --format json the
  whole answer (record, metadata, markdown). With the model's flags, the markdown is followed by the page's
  summary ("## Summary") and JSON ("## JSON"); why there is no JSON goes to stderr. A page scraped with
  credentials is always fetched, and kept for no one.
${CREDENTIAL_USAGE}
${MODEL_USAGE}`;

type ScrapeRequest = InferRequestType<Client['v1']['scrape']['$post']>['json'];

export async function scrape(args: string[], client: Client): Promise<void> {
  const { values, positionals } = readArgs(
    args,
    { format: { type: 'string', short: 'f' }, render: { type: 'string' }, ...CREDENTIAL_OPTIONS, ...MODEL_OPTIONS },
    USAGE,
  );
  if (values.help) return void process.stdout.write(`${USAGE}\n`);
  const url = single(positionals, 'URL', USAGE);
  const format = oneOf(values.format, ['markdown', 'json'], '--format', USAGE) ?? 'markdown';
  const render = oneOf(values.render, ['auto', 'always', 'never'], '--render', USAGE);
  const ask = readModelFlags(values, USAGE);
  // The spec is sent as built, for the API to validate (the CLI does not restate its schema).
  const extract = ask ? (withModel(undefined, ask) as ScrapeRequest['extract']) : undefined;
  const request: ScrapeRequest = {
    url,
    ...(render ? { render } : {}),
    ...(extract ? { extract } : {}),
    ...readCredentialFlags(values, USAGE),
  };
  const res = await expectOk(client.v1.scrape.$post({ json: request }));
  const page = await res.json();
  if (format === 'json') return void process.stdout.write(`${JSON.stringify(page, null, 2)}\n`);
  const markdown = 'markdown' in page && typeof page.markdown === 'string' ? page.markdown : undefined;
  // A page that is not HTML has no record, hence no json or summary.
  const facts: ModelFacts = 'wordCount' in page ? page : {};
  const more = modelMarkdown(facts);
  if (markdown === undefined && more === '')
    throw new CliError(`no markdown for ${url}: ${page.warnings.join('; ') || 'the page has none'}`);
  const note = modelNote(facts);
  if (note !== '') process.stderr.write(`${note}\n`);
  const text = [markdown, more].filter((t): t is string => t !== undefined && t !== '');
  process.stdout.write(text.map((t) => (t.endsWith('\n') ? t : `${t}\n`)).join('\n'));
}
