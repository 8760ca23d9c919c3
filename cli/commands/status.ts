/** `edgecrawl status ID [--json]`: GET /v1/crawls/:id. */
import { readArgs, single } from '../args.ts';
import { type Client, expectOk } from '../client.ts';

const USAGE = `Usage: edgecrawl status ID [--json]
  A crawl's status and counts (--json: the API's whole answer).`;

export async function status(args: string[], client: Client): Promise<void> {
  const { values, positionals } = readArgs(args, { json: { type: 'boolean' } }, USAGE);
  if (values.help) return void process.stdout.write(`${USAGE}\n`);
  const id = single(positionals, 'crawl ID', USAGE);
  const res = await expectOk(client.v1.crawls[':id'].$get({ param: { id } }));
  const crawl = await res.json();
  if (values.json) return void process.stdout.write(`${JSON.stringify(crawl, null, 2)}\n`);
  const { discovered, fetched, stored, failed, skipped, duplicates } = crawl.counts;
  const lines = [
    `crawl ${crawl.id}: ${crawl.status}`,
    `  seeds: ${crawl.config.seeds.join(' ')}`,
    `  discovered ${discovered} · fetched ${fetched} · stored ${stored} · failed ${failed} · skipped ${skipped} · duplicates ${duplicates} · pending ${crawl.pending}`,
    `  created ${crawl.createdAt}`,
  ];
  // A crawl behind a login whose pages were refused: what happened (the session expired, the login failed).
  if (crawl.access) lines.push(`  access: ${crawl.access.message}`);
  if (crawl.extraction)
    lines.push(`  re-extraction: ${crawl.extraction.status} (${crawl.extraction.done}/${crawl.extraction.total})`);
  process.stdout.write(`${lines.join('\n')}\n`);
}
