/** `edgecrawl export ID --format jsonl|csv|warc [--out FILE]`: the crawl's page records, or its bodies as WARC. */

import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import type { Writable } from 'node:stream';
import { oneOf, readArgs, single } from '../args.ts';
import { type Client, expectOk } from '../client.ts';
import { CliError, UsageError } from '../errors.ts';

const USAGE = `Usage: edgecrawl export ID --format jsonl|csv|warc [--out FILE]
  jsonl, csv: every page record, streamed; warc: every stored body, written to a WARC file by the server
  (R2), then downloaded. To stdout, or FILE with --out.`;

const FORMATS = ['jsonl', 'csv', 'warc'] as const;
type ExportFormat = (typeof FORMATS)[number];

export async function exportCommand(args: string[], client: Client): Promise<void> {
  const { values, positionals } = readArgs(
    args,
    { format: { type: 'string', short: 'f' }, out: { type: 'string', short: 'o' } },
    USAGE,
  );
  if (values.help) return void process.stdout.write(`${USAGE}\n`);
  const id = single(positionals, 'crawl ID', USAGE);
  const format = oneOf(values.format, FORMATS, '--format', USAGE);
  if (format === undefined) throw new UsageError('missing --format jsonl|csv|warc', USAGE);
  if (format === 'warc' && values.out === undefined && process.stdout.isTTY)
    throw new UsageError('a WARC file is binary: give --out FILE or redirect stdout', USAGE);
  const body = await openExport(client, id, format);
  const out = values.out === undefined ? process.stdout : createWriteStream(values.out);
  await copy(body, out);
  if (values.out !== undefined) process.stderr.write(`wrote ${values.out}\n`);
}

/**
 * The export's bytes. The one place that knows each format's route: GET streams jsonl and csv; warc is a POST that
 * writes the file to R2 and answers where to GET it.
 */
async function openExport(client: Client, id: string, format: ExportFormat): Promise<ReadableStream<Uint8Array>> {
  const crawl = client.v1.crawls[':id'];
  const warc = async () => {
    const written = await expectOk(crawl.export.$post({ param: { id }, query: { format: 'warc' } }));
    const { file } = await written.json();
    return expectOk(crawl.exports[':file'].$get({ param: { id, file } }));
  };
  const res =
    format === 'warc' ? await warc() : await expectOk(crawl.export.$get({ param: { id }, query: { format } }));
  if (res.body === null) throw new CliError(`the ${format} export of ${id} came without a body`);
  return res.body;
}

/** Copies the stream to `out`, minding back-pressure; closes `out` unless it is stdout. */
async function copy(body: ReadableStream<Uint8Array>, out: Writable): Promise<void> {
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (!out.write(value)) await once(out, 'drain');
  }
  if (out !== process.stdout) {
    out.end();
    await once(out, 'finish');
  }
}
