/**
 * The pages measure:similarity compares: the main text of every page of the shared corpora (../shared/corpora:
 * trafilatura-eval, web-content-2025, readability-test-pages) and of the documentation sets installed on this machine
 * (lib/docs-sets.ts, a sample of each spread over its tree), each extracted by extractPage with the default crawl spec
 * (text, main content), as a crawl extracts it. CACHE=<file.jsonl> keeps the texts between runs (written when absent).
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { register } from 'node:module';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { installedSets, sampleSet } from './docs-truth.ts';
import { classifyPage, type PageType } from './page-type.ts';

/** One page's main text, with the set it belongs to and a name to show (its file). */
export interface TextPage {
  set: string;
  name: string;
  url: string;
  text: string;
  /** What the page says it is (lib/page-type.ts): the corpora's product pages are reported apart. */
  type: PageType;
}

const SPEC = { formats: ['text' as const], mainContent: true, include: [], exclude: [], fields: {} };

type Extract = (html: Uint8Array, url: string, type?: string) => Promise<string>;

// The markers the classifier reads are ASCII: UTF-8 decoding reads them alike whatever the page's charset.
const typeOf = (html: Uint8Array, url: string) => classifyPage(new TextDecoder().decode(html), url).type;

async function extractor(): Promise<Extract> {
  // src/ imports without extensions, as the bundler resolves them (ts-resolve.mjs adds `.ts` or `/index.ts`).
  register('./ts-resolve.mjs', import.meta.url);
  const { extractPage } = await import('../../src/domain/extract/index.ts');
  return async (html, url, type = 'text/html') => (await extractPage(html, type, url, SPEC)).outputs.text ?? '';
}

/** A corpus of evaldata.json ({url: {file}}) and html/FILE.gz. */
async function evalCorpus(extract: Extract, dir: string, set: string): Promise<TextPage[]> {
  const data = JSON.parse(readFileSync(join(dir, 'evaldata.json'), 'utf8')) as Record<string, { file: string }>;
  const pages: TextPage[] = [];
  for (const [url, item] of Object.entries(data)) {
    const html = gunzipSync(readFileSync(join(dir, 'html', `${item.file}.gz`)));
    pages.push({ set, name: item.file, url, text: await extract(html, url), type: typeOf(html, url) });
  }
  return pages;
}

async function readability(extract: Extract, dir: string): Promise<TextPage[]> {
  const pages: TextPage[] = [];
  // As measure:extract reads them: declared UTF-8, at Readability's own test address.
  const url = 'http://fakehost/test/page.html';
  for (const name of readdirSync(dir).sort()) {
    if (!existsSync(join(dir, name, 'source.html'))) continue;
    const html = readFileSync(join(dir, name, 'source.html'));
    const text = await extract(html, url, 'text/html; charset=utf-8');
    pages.push({ set: 'readability', name, url, text, type: typeOf(html, url) });
  }
  return pages;
}

async function docs(extract: Extract, perSet: number, log: (line: string) => void): Promise<TextPage[]> {
  const pages: TextPage[] = [];
  for (const set of installedSets(log).filter((s) => s.name !== 'fixtures')) {
    for (const page of sampleSet(set, perSet)) {
      const name = page.file.slice(set.root.length + 1);
      const text = await extract(readFileSync(page.file), page.url);
      pages.push({ set: `docs:${set.name}`, name, url: page.url, text, type: 'docs' });
    }
  }
  return pages;
}

/** Every page's text, from CACHE when it is there; docs sets sampled `perSet` pages each. */
export async function loadPages(corpora: string, perSet: number, log = console.log): Promise<TextPage[]> {
  const cache = process.env.CACHE;
  if (cache && existsSync(cache))
    return readFileSync(cache, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as TextPage);
  const extract = await extractor();
  const pages = [
    ...(await evalCorpus(extract, join(corpora, 'trafilatura-eval'), 'trafilatura')),
    ...(await evalCorpus(extract, join(corpora, 'web-content-2025'), 'web-content')),
    ...(await readability(extract, join(corpora, 'readability-test-pages'))),
    ...(await docs(extract, perSet, log)),
  ];
  if (cache) writeFileSync(cache, `${pages.map((p) => JSON.stringify(p)).join('\n')}\n`);
  return pages;
}
