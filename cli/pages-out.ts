/**
 * `crawl --out DIR`: each stored page's markdown in a file of its own under DIR, and DIR/index.jsonl. A duplicate's
 * line names the file of the page its content is stored under (duplicateOf): each content is one file.
 */
import { createWriteStream } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { type Client, expectOk } from './client.ts';
import { CliError } from './errors.ts';
import { markdownPath, PathClaims } from './paths.ts';
import { mapLimit } from './pool.ts';

/** Page contents fetched at once. */
const CONCURRENCY = 4;
const PAGE_SIZE = '100';

interface IndexLine {
  url: string;
  file: string | null;
  status: number;
  title: string | null;
  contentType: string | null;
  depth: number;
  fetchedAt: string;
  duplicateOf?: string | null;
  error?: string;
  /** With the model's formats: what the page's record holds of them. */
  summary?: string;
  json?: unknown;
  model?: { name: string; answer: string };
  jsonError?: string;
}

/** What a page's record says of the model, as its index line carries it. */
type ModelLine = Pick<IndexLine, 'summary' | 'json' | 'model' | 'jsonError'>;

/** A content's file under DIR, once written (with the model's part of its record), or why it has none. */
type Written = { file: string; model?: ModelLine } | { error: string };

/**
 * Writes the crawl's pages under `dir`; answers how many markdown files it wrote and how many pages it listed.
 * `model`: the crawl asked for json or a summary, which each written page's index line then carries (its record read).
 */
export async function writePages(
  client: Client,
  id: string,
  dir: string,
  options: { model?: boolean } = {},
): Promise<{ files: number; pages: number }> {
  const root = resolve(dir);
  await mkdir(root, { recursive: true });
  const index = createWriteStream(join(root, 'index.jsonl'));
  const claims = new PathClaims();
  // By the URL whose content it is: a page and its duplicates share one file, written once.
  const written = new Map<string, Promise<Written>>();
  const writeOnce = (owner: string, asked: string): Promise<Written> => {
    const known = written.get(owner);
    if (known) return known;
    const writing = (async (): Promise<Written> => {
      const markdown = await fetchMarkdown(client, id, asked);
      if (typeof markdown !== 'string') return markdown;
      const file = claims.claim(markdownPath(owner));
      await writeInside(root, file, markdown);
      return options.model ? { file, model: await fetchModelLine(client, id, asked) } : { file };
    })();
    written.set(owner, writing);
    return writing;
  };
  let pages = 0;
  let cursor: string | null = null;
  do {
    const query: { limit: string; order: 'url'; cursor?: string } = { limit: PAGE_SIZE, order: 'url' };
    if (cursor !== null) query.cursor = cursor;
    const res = await expectOk(client.v1.crawls[':id'].pages.$get({ param: { id }, query }));
    const batch = await res.json();
    const lines = await mapLimit(batch.pages, CONCURRENCY, async (page): Promise<IndexLine> => {
      const line = { ...page, file: null };
      if (page.status < 200 || page.status > 299 || !/html/i.test(page.contentType ?? '')) return line;
      // A duplicate is asked for as itself: the API answers the content of the page it is a duplicate of.
      const done = await writeOnce(page.duplicateOf ?? page.url, page.url);
      return 'file' in done ? { ...line, file: done.file, ...done.model } : { ...line, error: done.error };
    });
    for (const line of lines) index.write(`${JSON.stringify(indexLine(line))}\n`);
    pages += lines.length;
    cursor = batch.cursor;
  } while (cursor !== null);
  await new Promise<void>((done, fail) => index.end((error?: Error | null) => (error ? fail(error) : done())));
  const files = (await Promise.all(written.values())).filter((w) => 'file' in w).length;
  return { files, pages };
}

/** The index's fields, in a stable order. */
function indexLine(line: IndexLine): IndexLine {
  const {
    url,
    file,
    status,
    title,
    contentType,
    depth,
    fetchedAt,
    duplicateOf,
    error,
    summary,
    json,
    model,
    jsonError,
  } = line;
  return {
    url,
    file,
    status,
    title,
    contentType,
    depth,
    fetchedAt,
    ...(duplicateOf ? { duplicateOf } : {}),
    ...(error === undefined ? {} : { error }),
    ...(model === undefined ? {} : { model }),
    ...(summary === undefined ? {} : { summary }),
    ...(json === undefined ? {} : { json }),
    ...(jsonError === undefined ? {} : { jsonError }),
  };
}

/** The model's part of a page's record: its summary, json, how they were had, and why there is no json. */
async function fetchModelLine(client: Client, id: string, url: string): Promise<ModelLine> {
  const res = await expectOk(client.v1.crawls[':id'].record.$get({ param: { id }, query: { url } }));
  const record = await res.json();
  const jsonError = record.fieldErrors?.json;
  return {
    ...(record.model === undefined ? {} : { model: record.model }),
    ...(record.summary === undefined ? {} : { summary: record.summary }),
    ...(record.json === undefined ? {} : { json: record.json }),
    ...(jsonError === undefined ? {} : { jsonError }),
  };
}

async function fetchMarkdown(client: Client, id: string, url: string): Promise<string | { error: string }> {
  try {
    const res = await expectOk(
      client.v1.crawls[':id'].content.$get({ param: { id }, query: { url, format: 'markdown', source: 'stored' } }),
    );
    return await res.text();
  } catch (error) {
    // A page without markdown (no extraction record) is listed in the index with why; other errors stop the run.
    if (error instanceof CliError && /\(404 not_found\)$/.test(error.message)) return { error: error.message };
    throw error;
  }
}

/** Writes `text` at `file` under `root`, refusing any path that would leave it. */
async function writeInside(root: string, file: string, text: string): Promise<void> {
  const path = resolve(root, file);
  if (!path.startsWith(root + sep)) throw new CliError(`refusing to write outside ${root}: ${file}`);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text);
}
