/**
 * npm run bench:extract -- extraction quality and cost, inside workerd (`wrangler dev`), on corpora beside the project
 * (../shared/corpora; a corpus not there is skipped with a message):
 * - CORPUS=shared (the default): both shared sets in one run, trafilatura-eval then web-content-2025, each as below,
 *   then a summary: each set's snippet F1, token F1 and collapses per Worker and after - before. With BASELINE, the
 *   one command for before and after: `BASELINE=main npm run bench:extract`.
 * - CORPUS=trafilatura: trafilatura's evaluation set, 990 pages with human-labelled snippets; CORPUS=web:
 *   web-content-2025, 604 modern pages with snippets and each page's main text. Each scored by its score.py (its
 *   lines), then by half (dev: even index, held-out: odd, as measure:extract splits them) and by page type (article,
 *   docs, product, forum, listing: lib/page-type.ts, from each page's own markup), per Worker and after - before;
 *   snippet P, R, F1 and, on web, score.py's token F1 against the main text; the collapses (lib/collapse.ts: pages
 *   whose text lost the main text), per Worker with the pages; workerd CPU ms per page (each request's, from
 *   schedstat: mean, median, p90, p99, max, slowest pages) and, unless NODE_CPU=0, this tree's CPU in Node as
 *   measure:extract takes it. RUNS passes (each page's CPU: the median), PAGES the first n pages only. See
 *   lib/shared-eval.ts.
 * - CORPUS=readability: Mozilla Readability's test pages. Each source.html is extracted, timed from outside the Worker
 *   (its clocks stand still during CPU work); main-content text is scored against Readability's expected.html by
 *   token F1, metadata against its expected-metadata.json. VARIANTS=edgecrawl,body compares variants; RUNS per page
 *   (median).
 * - CORPUS=docs: documentation sets installed from Debian packages (python3.11-doc, python-django-doc,
 *   postgresql-doc-15, rust-doc, nodejs-doc, mkdocs, ...; lib/docs-sets.ts), up to SAMPLE pages each (default 100), scored
 *   against each generator's own main block: text token F1, code blocks, languages, tables, title, navigation leaks,
 *   workerd CPU per page (median, p90). Sets not installed are skipped. See lib/docs-eval.ts.
 * BASELINE=<git rev> also runs a Worker built from that revision's src/ (lib/baseline-worker.ts), in the same run,
 * and compares: before and after on the same machine at the same time.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseHTML } from 'linkedom';
import { startBaselineWorker } from './lib/baseline-worker.ts';
import { benchDocs } from './lib/docs-eval.ts';
import { installedSets } from './lib/docs-truth.ts';
import { type BenchWorker, median, startBenchWorker } from './lib/local.ts';
import { benchSharedSet } from './lib/shared-eval.ts';
import type { Summary } from './lib/shared-report.ts';
import { tokenF1 } from './lib/token-f1.ts';

const root = new URL('../', import.meta.url).pathname;
const corpora = join(root, '../shared/corpora');
/** The shared sets (evaldata.json with snippets, html/, score.py), by the names CORPUS takes. */
const SHARED: Record<string, string[]> = {
  shared: ['trafilatura-eval', 'web-content-2025'],
  trafilatura: ['trafilatura-eval'],
  web: ['web-content-2025'],
};
const corpusName = process.env.CORPUS ?? 'shared';
const corpus = join(corpora, corpusName === 'readability' ? 'readability-test-pages' : corpusName);
const present = (dir: string) => {
  if (!existsSync(dir)) console.log(`bench:extract: no corpus at ${dir}; skipped.`);
  return existsSync(dir);
};
const sharedSets = (SHARED[corpusName] ?? (existsSync(join(corpus, 'evaldata.json')) ? [corpusName] : null))
  ?.map((name) => join(corpora, name))
  .filter(present);
const RUNS = Number(process.env.RUNS ?? 3);
const VARIANTS = (process.env.VARIANTS ?? 'edgecrawl,body').split(',');
if (corpusName === 'docs' && installedSets(() => {}).length === 0) {
  console.log('bench:extract: no documentation set installed (see scripts/lib/docs-sets.ts); nothing to measure.');
  process.exit(0);
}
if (sharedSets?.length === 0 || (!sharedSets && corpusName !== 'docs' && !existsSync(corpus))) {
  console.log(
    `bench:extract: no corpus at ${corpus} (corpora are beside the project in ${corpora}); nothing to measure.`,
  );
  process.exit(0);
}

const norm = (v: unknown) => (typeof v === 'string' ? v.replace(/\s+/g, ' ').trim().toLowerCase() : null);
/** Readability's metadata fields, and ours that hold the same thing. */
const METADATA: [string, string][] = [
  ['title', 'headline'],
  ['byline', 'author'],
  ['excerpt', 'description'],
  ['siteName', 'siteName'],
  ['publishedTime', 'publishedTime'],
  ['lang', 'language'],
];

interface PageScore {
  name: string;
  f1: number;
  precision: number;
  recall: number;
  ms: number;
  metadata: Record<string, boolean | null>;
}

async function scorePage(base: string, variant: string, dir: string): Promise<PageScore> {
  const source = readFileSync(join(dir, 'source.html'));
  const expectedText =
    parseHTML(readFileSync(join(dir, 'expected.html'), 'utf8')).document.documentElement.textContent ?? '';
  const expectedMeta = JSON.parse(readFileSync(join(dir, 'expected-metadata.json'), 'utf8')) as Record<string, unknown>;
  const times: number[] = [];
  let result = { text: '', metadata: null as Record<string, unknown> | null };
  for (let r = 0; r < RUNS + 1; r++) {
    const started = performance.now();
    const res = await fetch(`${base}/?variant=${variant}&n=1`, { method: 'POST', body: source });
    result = (await res.json()) as typeof result;
    if (r > 0) times.push(performance.now() - started); // the first is a warm-up
  }
  const metadata: Record<string, boolean | null> = {};
  for (const [theirs, ours] of METADATA) {
    const want = norm(expectedMeta[theirs]);
    metadata[theirs] = want === null ? null : norm(result.metadata?.[ours]) === want;
    // DETAIL=field prints the misses of that field.
    if (process.env.DETAIL === theirs && metadata[theirs] === false)
      console.log(
        `  ${dir.split('/').at(-1)}: want ${JSON.stringify(want)} got ${JSON.stringify(norm(result.metadata?.[ours]))}`,
      );
  }
  return { name: dir.split('/').at(-1) ?? dir, ...tokenF1(result.text, expectedText), ms: median(times), metadata };
}

function summarize(variant: string, scores: PageScore[]): void {
  const f1s = scores.map((s) => s.f1);
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  const ms = scores.map((s) => s.ms).sort((a, b) => a - b);
  console.log(`\n${variant}: ${scores.length} pages`);
  console.log(
    `  token F1  mean ${mean(f1s).toFixed(3)}  median ${median(f1s).toFixed(3)}  precision ${mean(scores.map((s) => s.precision)).toFixed(3)}  recall ${mean(scores.map((s) => s.recall)).toFixed(3)}`,
  );
  console.log(
    `  pages with F1 >= 0.9: ${scores.filter((s) => s.f1 >= 0.9).length}, < 0.5: ${scores.filter((s) => s.f1 < 0.5).length}`,
  );
  console.log(
    `  ms per page (request round trip, extraction inside workerd): median ${median(ms).toFixed(1)}  p90 ${(ms[Math.floor(ms.length * 0.9)] ?? 0).toFixed(1)}  max ${(ms.at(-1) ?? 0).toFixed(1)}`,
  );
  for (const [field] of METADATA) {
    const judged = scores.map((s) => s.metadata[field]).filter((v): v is boolean => v !== null && v !== undefined);
    console.log(`  metadata ${field.padEnd(14)} ${judged.filter(Boolean).length}/${judged.length} exact`);
  }
  const worst = [...scores].sort((a, b) => a.f1 - b.f1).slice(0, 5);
  console.log(`  lowest F1: ${worst.map((s) => `${s.name} ${s.f1.toFixed(2)}`).join(', ')}`);
}

async function benchReadability(workers: { label: string; worker: BenchWorker }[]): Promise<void> {
  const dirs = readdirSync(corpus)
    .map((d) => join(corpus, d))
    .filter((d) => existsSync(join(d, 'source.html')) && existsSync(join(d, 'expected.html')));
  for (const { label, worker } of workers) {
    for (const variant of VARIANTS) {
      const scores: PageScore[] = [];
      for (const dir of dirs) scores.push(await scorePage(worker.url, variant, dir));
      summarize(workers.length > 1 ? `${label}, ${variant}` : variant, scores);
    }
  }
}

/** The shared sets one after the other through the same Workers; then, for more than one, each set's headline. */
async function benchShared(sets: string[], workers: { label: string; worker: BenchWorker }[], runs: number) {
  const summaries: [string, Summary[]][] = [];
  for (const dir of sets) summaries.push([dir.split('/').at(-1) ?? dir, await benchSharedSet(dir, workers, runs)]);
  if (summaries.length < 2) return;
  console.log('\nsummary: snippet F1, token F1 (main text) and collapses, per set and Worker');
  console.log(`  ${'set'.padEnd(18)} ${'worker'.padEnd(24)}     F1    tF1  collapses`);
  const f = (x: number | null, sign = false) =>
    (x === null ? '-' : `${sign && x >= 0 ? '+' : ''}${x.toFixed(3)}`).padStart(6);
  for (const [name, rows] of summaries) {
    for (const [i, r] of rows.entries())
      console.log(
        `  ${(i ? '' : name).padEnd(18)} ${r.label.padEnd(24)} ${f(r.f1)} ${f(r.tokenF1)} ${String(r.collapses).padStart(10)}`,
      );
    const [a, b] = rows;
    if (!a || !b) continue;
    const dt = a.tokenF1 === null || b.tokenF1 === null ? null : a.tokenF1 - b.tokenF1;
    const dc = a.collapses - b.collapses;
    console.log(
      `  ${''.padEnd(18)} ${'after - before'.padEnd(24)} ${f(a.f1 - b.f1, true)} ${f(dt, true)} ${`${dc > 0 ? '+' : ''}${dc}`.padStart(10)}`,
    );
  }
}

const workers: { label: string; worker: BenchWorker }[] = [];
try {
  workers.push({ label: 'this tree', worker: await startBenchWorker(`${root}scripts/extract-bench/wrangler.toml`) });
  if (process.env.BASELINE) {
    const baseline = await startBaselineWorker(root, process.env.BASELINE);
    workers.push({ label: `baseline ${baseline.rev}`, worker: baseline });
  }
  if (sharedSets) await benchShared(sharedSets, workers, Number(process.env.RUNS ?? 1));
  else if (corpusName === 'docs') await benchDocs(workers, Number(process.env.RUNS ?? 1));
  else await benchReadability(workers);
} finally {
  for (const { worker } of workers) worker.stop();
}
