/**
 * This tree's extraction in Node, timed page by page as measure:extract times it (process CPU, user + system, around
 * extractPage with formats text and main content): the figure the extraction goals are stated in.
 */
import { readFileSync } from 'node:fs';
import { register } from 'node:module';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { median } from './local.ts';
import type { EvalPage, Outcome } from './shared-report.ts';

const SPEC = { formats: ['text' as const], mainContent: true, include: [], exclude: [], fields: {} };

/** Every page `runs` times after a warm-up of 20 pages; each page's CPU is the median of its runs. */
export async function nodeCpu(corpus: string, pages: EvalPage[], runs: number): Promise<Outcome> {
  // src/ imports without extensions, as the bundler resolves them (ts-resolve.mjs adds `.ts` or `/index.ts`).
  register('./ts-resolve.mjs', import.meta.url);
  const { extractPage } = await import('../../src/domain/extract/index.ts');
  const outcome: Outcome = { label: 'this tree, in Node', texts: new Map(), cpuMs: new Map() };
  const html = (page: EvalPage) => gunzipSync(readFileSync(join(corpus, 'html', `${page.file}.gz`)));
  for (const page of pages.slice(0, 20)) await extractPage(html(page), 'text/html', page.url, SPEC);
  for (const page of pages) {
    const bytes = html(page);
    const ms: number[] = [];
    for (let r = 0; r < runs; r++) {
      const start = process.cpuUsage();
      const result = await extractPage(bytes, 'text/html', page.url, SPEC);
      const used = process.cpuUsage(start);
      ms.push((used.user + used.system) / 1000);
      outcome.texts.set(page.file, result.outputs.text ?? '');
    }
    outcome.cpuMs.set(page.file, median(ms));
  }
  return outcome;
}
