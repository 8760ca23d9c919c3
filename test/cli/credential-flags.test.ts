/**
 * What `edgecrawl crawl` and `scrape` send for --header, --cookie, --user and --credentials-for
 * (cli/credential-flags.ts), against a stand-in fetch; and that what they print, errors included, never holds a value.
 * Runs in Node (project "repo"); the flags against a real edgecrawl: test/system/cli.test.ts.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeClient } from '../../cli/client.ts';
import { crawl } from '../../cli/commands/crawl.ts';
import { scrape } from '../../cli/commands/scrape.ts';
import { CliError, UsageError } from '../../cli/errors.ts';

const ID = '00000000-0000-4000-8000-000000000000';
const SECRET = 's3cr3t-value';
const dir = mkdtempSync(join(tmpdir(), 'edgecrawl-cli-creds-'));

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The body the command sends with `args`, and what it printed. */
async function run(
  command: typeof crawl,
  args: string[],
  answer: unknown = { id: ID, status: 'running' },
): Promise<{ body: Record<string, unknown>; printed: string }> {
  let body: Record<string, unknown> = {};
  const fetchStandIn: typeof fetch = async (input, init) => {
    body = await new Request(input, init).json();
    return Response.json(answer, { status: 201 });
  };
  let printed = '';
  const [out, err] = [process.stdout.write, process.stderr.write];
  process.stdout.write = process.stderr.write = (chunk: string | Uint8Array) => {
    printed += String(chunk);
    return true;
  };
  try {
    await command(args, makeClient({ url: 'http://edgecrawl.test', token: 't' }, fetchStandIn));
  } finally {
    [process.stdout.write, process.stderr.write] = [out, err];
  }
  return { body, printed };
}

/** The error the command ends with; it must not hold the secret. */
async function failure(command: typeof crawl, args: string[]): Promise<CliError> {
  const error = await run(command, args).then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof CliError)) throw new Error(`expected a CliError, got ${String(error)}`);
  expect(error.message).not.toContain(SECRET);
  return error;
}

describe('edgecrawl crawl and scrape behind a login', () => {
  it('sends --header, --cookie, --user and --credentials-for as the request fields, and prints only the id', async () => {
    const { body, printed } = await run(crawl, [
      'https://wiki.example/',
      '--header',
      `X-Api-Key: ${SECRET}`,
      '-H',
      'Accept-Language:de',
      '--cookie',
      `session=${SECRET}`,
      '-b',
      'a=1; b=2',
      '--user',
      `alice:${SECRET}:x`,
      '--credentials-for',
      'wiki.example',
      '--credentials-for',
      '*.cdn.example',
    ]);
    expect(body).toMatchObject({
      seeds: ['https://wiki.example/'],
      headers: { 'X-Api-Key': SECRET, 'Accept-Language': 'de' },
      cookies: [
        { name: 'session', value: SECRET },
        { name: 'a', value: '1' },
        { name: 'b', value: '2' },
      ],
      authenticate: { username: 'alice', password: `${SECRET}:x` },
      credentialsFor: ['wiki.example', '*.cdn.example'],
    });
    expect(printed).toBe(`${ID}\n`);
  });

  it('sends none of the fields when no flag is given, and the same fields for a scrape', async () => {
    const { body } = await run(crawl, ['https://wiki.example/']);
    for (const key of ['headers', 'cookies', 'authenticate', 'credentialsFor']) expect(body).not.toHaveProperty(key);
    const page = { url: 'https://wiki.example/a', status: 200, markdown: '# A', warnings: [] };
    const scraped = await run(
      scrape,
      ['https://wiki.example/a', '-H', `Authorization: Bearer ${SECRET}`, '-u', `bob:${SECRET}`],
      page,
    );
    expect(scraped.body).toEqual({
      url: 'https://wiki.example/a',
      headers: { Authorization: `Bearer ${SECRET}` },
      authenticate: { username: 'bob', password: SECRET },
    });
    expect(scraped.printed).toBe('# A\n');
  });

  it('makes a Cookie header cookies, and reads @FILE: headers, cookies (pairs or a cookies.txt) and user:password', async () => {
    const headers = join(dir, 'headers.txt');
    writeFileSync(headers, `# the wiki's key\nX-Api-Key: ${SECRET}\n\nCookie: c=3\n`);
    const cookies = join(dir, 'cookies.txt');
    writeFileSync(
      cookies,
      [
        '# Netscape HTTP Cookie File',
        `#HttpOnly_.wiki.example\tTRUE\t/\tTRUE\t0\tsession\t${SECRET}`,
        'wiki.example\tFALSE\t/docs\tFALSE\t0\ttheme\tdark',
        'd=4',
      ].join('\n'),
    );
    const user = join(dir, 'user.txt');
    writeFileSync(user, `carol:${SECRET}\n`);
    const { body } = await run(crawl, [
      'https://wiki.example/',
      '-H',
      `@${headers}`,
      '-b',
      `@${cookies}`,
      '-u',
      `@${user}`,
    ]);
    expect(body).toMatchObject({
      headers: { 'X-Api-Key': SECRET },
      cookies: [
        { name: 'c', value: '3' },
        { name: 'session', value: SECRET, domain: 'wiki.example', path: '/', secure: true },
        { name: 'theme', value: 'dark', domain: 'wiki.example', path: '/docs', secure: false },
        { name: 'd', value: '4' },
      ],
      authenticate: { username: 'carol', password: SECRET },
    });
  });

  it('refuses a header, cookie or user it cannot read, naming the flag and never the value', async () => {
    const url = 'https://wiki.example/';
    expect(await failure(crawl, [url, '--header', SECRET])).toBeInstanceOf(UsageError);
    expect(await failure(crawl, [url, '--cookie', SECRET])).toBeInstanceOf(UsageError);
    expect(await failure(scrape, [url, '--user', SECRET])).toBeInstanceOf(UsageError);
    const twice = await failure(crawl, [url, '-H', `X-Key: ${SECRET}`, '-H', `x-key: ${SECRET}`]);
    expect(twice.message).toBe('--header x-key is given twice');
    const missing = await failure(crawl, [url, '-H', `@${join(dir, 'none.txt')}`]);
    expect(missing.message).toMatch(/^--header @.*none\.txt: ENOENT/);
  });
});
