/** `edgecrawl cancel ID`: DELETE /v1/crawls/:id. */
import { readArgs, single } from '../args.ts';
import { type Client, expectOk } from '../client.ts';

const USAGE = `Usage: edgecrawl cancel ID
  Cancels a crawl: no new fetch starts, its unfetched URLs end skipped; what it stored stays.`;

export async function cancel(args: string[], client: Client): Promise<void> {
  const { values, positionals } = readArgs(args, {}, USAGE);
  if (values.help) return void process.stdout.write(`${USAGE}\n`);
  const id = single(positionals, 'crawl ID', USAGE);
  const res = await expectOk(client.v1.crawls[':id'].$delete({ param: { id }, query: { purge: 'false' } }));
  const body = await res.json();
  if (!('status' in body)) return void process.stdout.write(`crawl ${body.id}: purged\n`);
  const { stored, failed, skipped } = body.counts;
  process.stdout.write(`crawl ${body.id}: ${body.status} (${stored} stored, ${failed} failed, ${skipped} skipped)\n`);
}
