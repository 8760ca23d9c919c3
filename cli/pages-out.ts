/** `crawl --out DIR`: each stored page's markdown in a file of its own under DIR, and DIR/index.jsonl. */
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
  error?: string;
}

/** Writes the crawl's pages under `dir`; answers how many markdown files it wrote and how many pages it listed. */
export async function writePages(client: Client, id: string, dir: string): Promise<{ files: number; pages: number }> {
  const root = resolve(dir);
  await mkdir(root, { recursive: true });
  const index = createWriteStream(join(root, 'index.jsonl'));
  const claims = new PathClaims();
  let files = 0;
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
      const markdown = await fetchMarkdown(client, id, page.url);
      if (typeof markdown !== 'string') return { ...line, error: markdown.error };
      const file = claims.claim(markdownPath(page.url));
      await writeInside(root, file, markdown);
      files++;
      return { ...line, file };
    });
    for (const line of lines) index.write(`${JSON.stringify(indexLine(line))}\n`);
    pages += lines.length;
    cursor = batch.cursor;
  } while (cursor !== null);
  await new Promise<void>((done, fail) => index.end((error?: Error | null) => (error ? fail(error) : done())));
  return { files, pages };
}

/** The index's fields, in a stable order. */
function indexLine(line: IndexLine): IndexLine {
  const { url, file, status, title, contentType, depth, fetchedAt, error } = line;
  return { url, file, status, title, contentType, depth, fetchedAt, ...(error === undefined ? {} : { error }) };
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
