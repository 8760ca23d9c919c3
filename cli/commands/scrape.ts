/** `edgecrawl scrape URL [--format markdown|json] [--render auto|always|never]`: POST /v1/scrape. */
import { oneOf, readArgs, single } from '../args.ts';
import { type Client, expectOk } from '../client.ts';
import { CliError } from '../errors.ts';

const USAGE = `Usage: edgecrawl scrape URL [--format markdown|json] [--render auto|always|never]
  Fetches and extracts one page now (nothing is stored): its markdown on stdout, or with --format json the
  whole answer (record, metadata, markdown).`;

export async function scrape(args: string[], client: Client): Promise<void> {
  const { values, positionals } = readArgs(
    args,
    { format: { type: 'string', short: 'f' }, render: { type: 'string' } },
    USAGE,
  );
  if (values.help) return void process.stdout.write(`${USAGE}\n`);
  const url = single(positionals, 'URL', USAGE);
  const format = oneOf(values.format, ['markdown', 'json'], '--format', USAGE) ?? 'markdown';
  const render = oneOf(values.render, ['auto', 'always', 'never'], '--render', USAGE);
  const res = await expectOk(client.v1.scrape.$post({ json: { url, ...(render ? { render } : {}) } }));
  const page = await res.json();
  if (format === 'json') return void process.stdout.write(`${JSON.stringify(page, null, 2)}\n`);
  if (!('markdown' in page) || typeof page.markdown !== 'string')
    throw new CliError(`no markdown for ${url}: ${page.warnings.join('; ') || 'the page has none'}`);
  process.stdout.write(page.markdown.endsWith('\n') ? page.markdown : `${page.markdown}\n`);
}
