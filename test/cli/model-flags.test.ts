/**
 * The language model's flags of `edgecrawl crawl` and `edgecrawl scrape` (cli/model-flags.ts): the extract spec they
 * send (formats json and summary added to those the command otherwise sends, extract.json and extract.summary), the
 * errors of a schema file, and a scrape's summary and json printed after its markdown. Against a stand-in fetch;
 * runs in Node (project "repo").
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { makeClient } from '../../cli/client.ts';
import { crawl } from '../../cli/commands/crawl.ts';
import { scrape } from '../../cli/commands/scrape.ts';
import { CliError, UsageError } from '../../cli/errors.ts';

const ID = '00000000-0000-4000-8000-000000000000';
const SCHEMA = { type: 'object', properties: { price: { type: 'number' } }, required: ['price'] };

let dir = '';
let schemaFile = '';
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'edgecrawl-model-'));
  schemaFile = join(dir, 'schema.json');
  writeFileSync(schemaFile, JSON.stringify(SCHEMA));
});

/** Runs `command` against a fetch that answers `answer`; what it sent, and what it wrote to stdout and stderr. */
async function run(
  command: typeof crawl,
  args: string[],
  answer: unknown = { id: ID, status: 'running' },
): Promise<{ body: Record<string, unknown>; out: string; err: string }> {
  let body: unknown = null;
  const fetchStandIn: typeof fetch = async (input, init) => {
    body = await new Request(input, init).json();
    return Response.json(answer, { status: 200 });
  };
  const [out, err] = [[] as string[], [] as string[]];
  const [write, writeErr] = [process.stdout.write, process.stderr.write];
  process.stdout.write = (chunk: string | Uint8Array) => out.push(String(chunk)) > 0;
  process.stderr.write = (chunk: string | Uint8Array) => err.push(String(chunk)) > 0;
  try {
    await command(args, makeClient({ url: 'http://edgecrawl.test', token: 't' }, fetchStandIn));
  } finally {
    process.stdout.write = write;
    process.stderr.write = writeErr;
  }
  return { body: body as unknown as Record<string, unknown>, out: out.join(''), err: err.join('') };
}

const crawlBody = async (...args: string[]) => (await run(crawl, ['https://example.com/', ...args])).body;

describe('edgecrawl crawl, the model flags', () => {
  it('adds json to the default formats, with the schema read from its file and the prompt', async () => {
    const body = await crawlBody('--json-schema', schemaFile, '--prompt', 'the price in euros');
    expect(body.extract).toEqual({
      formats: ['markdown', 'metadata', 'json'],
      json: { schema: SCHEMA, prompt: 'the price in euros' },
    });
  });

  it('asks for JSON by prompt alone, and a summary with or without its prompt', async () => {
    expect((await crawlBody('--prompt', 'who wrote it')).extract).toEqual({
      formats: ['markdown', 'metadata', 'json'],
      json: { prompt: 'who wrote it' },
    });
    expect((await crawlBody('--summary')).extract).toEqual({
      formats: ['markdown', 'metadata', 'summary'],
      summary: {},
    });
    expect((await crawlBody('--summary-prompt', 'one line')).extract).toEqual({
      formats: ['markdown', 'metadata', 'summary'],
      summary: { prompt: 'one line' },
    });
  });

  it('adds to the formats --extract gives, keeping the rest of its spec', async () => {
    expect((await crawlBody('--extract', 'text', '--summary')).extract).toEqual({
      formats: ['text', 'summary'],
      summary: {},
    });
    const spec = '{"formats":["markdown","json"],"mainContent":false,"json":{"prompt":"old"}}';
    expect((await crawlBody('--extract', spec, '--json-schema', schemaFile)).extract).toEqual({
      formats: ['markdown', 'json'],
      mainContent: false,
      json: { prompt: 'old', schema: SCHEMA },
    });
  });

  it('sends learnSelectors and maxModelPages', async () => {
    const body = await crawlBody('--json-schema', schemaFile, '--learn-selectors', '--max-model-pages', '50');
    expect(body.maxModelPages).toBe(50);
    expect(body.extract).toMatchObject({ json: { schema: SCHEMA, learnSelectors: true } });
  });

  it('sends the crawl limits and trap rules: a page budget per host, rules turned off, near-duplicates', async () => {
    const body = await crawlBody(
      '--max-pages-per-host',
      '40',
      '--no-trap',
      'urlPatterns',
      '--no-trap',
      'soft404',
      '--similar',
      '--max-pages',
      'none',
    );
    expect(body).toMatchObject({
      maxPagesPerHost: 40,
      traps: { urlPatterns: false, soft404: false },
      duplicates: 'similar',
      maxPages: null,
    });
    expect(body).not.toHaveProperty('traps.deepPaths');
    await expect(crawlBody('--no-trap', 'calendars')).rejects.toThrow(/--no-trap must be one of repeatedSegments/);
    expect(await crawlBody()).not.toHaveProperty('traps');
  });

  it('sends nothing of the model without its flags', async () => {
    const body = await crawlBody('--max-pages', '3');
    expect(body).not.toHaveProperty('extract');
    expect(body).not.toHaveProperty('maxModelPages');
  });

  it('refuses --learn-selectors without a schema, the flags on a plain crawl, and a bad --max-model-pages', async () => {
    await expect(crawlBody('--prompt', 'x', '--learn-selectors')).rejects.toThrow(UsageError);
    await expect(crawlBody('--summary', '--extract', 'none')).rejects.toThrow(/--extract none is a plain crawl/);
    await expect(crawlBody('--max-model-pages', 'ten')).rejects.toThrow(UsageError);
  });

  it('names the schema file that cannot be read, is not JSON, or holds no object', async () => {
    await expect(crawlBody('--json-schema', join(dir, 'missing.json'))).rejects.toThrow(
      new RegExp(`--json-schema ${join(dir, 'missing.json')}: ENOENT`),
    );
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, '{"type": "object",');
    await expect(crawlBody('--json-schema', broken)).rejects.toThrow(`--json-schema ${broken} is not valid JSON: `);
    const list = join(dir, 'list.json');
    writeFileSync(list, '[1]');
    await expect(crawlBody('--json-schema', list)).rejects.toThrow(
      `--json-schema ${list} must hold a JSON object (a JSON Schema), not an array`,
    );
    await expect(crawlBody('--json-schema', list)).rejects.toBeInstanceOf(CliError);
  });
});

const PAGE = {
  url: 'https://example.com/p',
  finalUrl: 'https://example.com/p',
  status: 200,
  contentType: 'text/html',
  fetchedAt: '2026-12-05T00:00:00.000Z',
  cached: false,
  rendered: null,
  screenshot: null,
  wordCount: 3,
  contentHash: 'h',
  warnings: [],
  markdown: '# Product\n\nIt costs 12 euros.',
};

describe('edgecrawl scrape, the model flags', () => {
  it('sends the default formats with json and summary, and prints summary and json after the markdown', async () => {
    const answer = { ...PAGE, summary: 'A product.', json: { price: 12 }, model: { name: 'm', answer: 'model' } };
    const { body, out, err } = await run(scrape, [PAGE.url, '--json-schema', schemaFile, '--summary'], answer);
    expect(body).toEqual({
      url: PAGE.url,
      extract: { formats: ['markdown', 'metadata', 'json', 'summary'], json: { schema: SCHEMA }, summary: {} },
    });
    expect(out).toBe(
      '# Product\n\nIt costs 12 euros.\n\n## Summary\n\nA product.\n\n## JSON\n\n```json\n{\n  "price": 12\n}\n```\n',
    );
    expect(err).toBe('');
  });

  it('says on stderr why there is no JSON, and that the model gave no answer', async () => {
    const answer = { ...PAGE, fieldErrors: { json: 'the model timed out' }, model: { name: 'm', answer: 'none' } };
    const { out, err } = await run(scrape, [PAGE.url, '--prompt', 'the price'], answer);
    expect(out).toBe('# Product\n\nIt costs 12 euros.\n');
    expect(err).toBe('no JSON: the model timed out\nmodel m: no answer\n');
  });

  it('sends no extract without the flags, and prints the whole answer with --format json', async () => {
    const answer = { ...PAGE, json: { price: 12 } };
    const { body, out } = await run(scrape, [PAGE.url, '--format', 'json'], answer);
    expect(body).toEqual({ url: PAGE.url });
    expect(JSON.parse(out)).toEqual(answer);
  });
});
