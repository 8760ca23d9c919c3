/**
 * What `edgecrawl crawl` asks the API to extract (cli/commands/crawl.ts), against a stand-in fetch: nothing said, the
 * API's default (markdown and metadata); `--extract none`, a plain crawl (extract: null). Runs in Node (project "repo").
 */
import { describe, expect, it } from 'vitest';
import { makeClient } from '../../cli/client.ts';
import { crawl } from '../../cli/commands/crawl.ts';
import { CliError } from '../../cli/errors.ts';

const ID = '00000000-0000-4000-8000-000000000000';

/** The body of the POST /v1/crawls the command sends with `args`. */
async function requestOf(args: string[]): Promise<Record<string, unknown>> {
  let body: unknown = null;
  const fetchStandIn: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    body = await request.json();
    return Response.json({ id: ID, status: 'running' }, { status: 201 });
  };
  const write = process.stdout.write;
  process.stdout.write = () => true;
  try {
    await crawl(args, makeClient({ url: 'http://edgecrawl.test', token: 't' }, fetchStandIn));
  } finally {
    process.stdout.write = write;
  }
  return body as unknown as Record<string, unknown>;
}

describe('edgecrawl crawl --extract', () => {
  it("leaves extract to the API's default (markdown and metadata) when not given", async () => {
    expect(await requestOf(['https://example.com/'])).not.toHaveProperty('extract');
  });

  it('asks for a plain crawl with --extract none', async () => {
    expect((await requestOf(['https://example.com/', '--extract', 'none'])).extract).toBeNull();
    await expect(requestOf(['https://example.com/', '--extract', 'none', '--out', '/tmp/x'])).rejects.toThrow(CliError);
  });

  it('sends the formats given', async () => {
    expect((await requestOf(['https://example.com/', '--extract', 'text'])).extract).toEqual({ formats: ['text'] });
  });
});
