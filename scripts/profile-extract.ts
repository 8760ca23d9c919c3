/**
 * npm run profile:extract -- where extraction's CPU goes, step by step, on a real documentation set: every HTML page
 * of DOCS_DIR (default /usr/share/doc/python3.11/html, Debian's python3.11-doc; skipped with a message when absent)
 * through extractPage's steps (scripts/lib/extract-steps.ts) in Node, RUNS times each (median per page), after a
 * warm-up pass. Prints per step the median, p90 and max ms per page and its share of the total, and how each step
 * grows with the page: the slope of log(ms) against log(bytes) over the pages (1 is linear, 2 quadratic), and ms
 * per 100 KB on small, middle and large pages. PAGES=n takes the first n pages only.
 * Node's V8 is the engine workerd runs, but not the same build: compare steps with each other, not with workerd's ms.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { register } from 'node:module';
import { join, relative } from 'node:path';
import { median } from './lib/local.ts';

register('./lib/ts-resolve.mjs', import.meta.url);
const { STEPS, timeSteps } = await import('./lib/extract-steps.ts');
type Step = (typeof STEPS)[number];

const DOCS_DIR = process.env.DOCS_DIR ?? '/usr/share/doc/python3.11/html';
const RUNS = Number(process.env.RUNS ?? 3);
const LIMIT = Number(process.env.PAGES ?? Number.POSITIVE_INFINITY);
if (!existsSync(DOCS_DIR)) {
  console.log(
    `profile:extract: no documentation set at ${DOCS_DIR} (Debian's python3.11-doc, or DOCS_DIR); nothing to do.`,
  );
  process.exit(0);
}

function htmlFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.html'))
    .map((f) => join(dir, f))
    .filter((f) => statSync(f).isFile())
    .sort();
}

interface Page {
  path: string;
  bytes: number;
  elements: number;
  source: string;
  ms: Partial<Record<Step, number>>;
}

async function measure(path: string): Promise<Page> {
  const body = new Uint8Array(readFileSync(path));
  const url = `http://127.0.0.1:8000/${relative(DOCS_DIR, path)}`;
  const passes = [];
  for (let run = 0; run < RUNS; run++) passes.push(await timeSteps(body, url));
  const ms: Partial<Record<Step, number>> = {};
  for (const step of STEPS) {
    const values = passes.map((p) => p.times[step]).filter((v): v is number => v !== undefined);
    if (values.length > 0) ms[step] = median(values);
  }
  return { path, bytes: body.byteLength, elements: passes[0]?.elements ?? 0, source: passes[0]?.source ?? '', ms };
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
};

/** Least-squares slope of log(ms) against log(bytes): how a step grows with the page. */
function slope(points: [number, number][]): number {
  const xs = points.map(([x]) => Math.log(x));
  const ys = points.map(([, y]) => Math.log(y));
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  let num = 0;
  let den = 0;
  for (let i = 0; i < xs.length; i++) {
    num += ((xs[i] as number) - mx) * ((ys[i] as number) - my);
    den += ((xs[i] as number) - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

/** The steps a crawl with markdown+metadata runs (images only with the images format; sc: parts of selectContent). */
const TOTAL: Step[] = [
  'decode',
  'parse',
  'jsonLd',
  'metadata',
  'links',
  'selectContent',
  'text',
  'markdown',
  'words+hash',
];
const total = (p: Page) => TOTAL.reduce((sum, s) => sum + (p.ms[s] ?? 0), 0);

function report(pages: Page[]): void {
  const sum = pages.reduce((a, p) => a + total(p), 0);
  const bands: [string, (p: Page) => boolean][] = [
    ['<50KB', (p) => p.bytes < 50_000],
    ['50-200KB', (p) => p.bytes >= 50_000 && p.bytes < 200_000],
    ['>=200KB', (p) => p.bytes >= 200_000],
  ];
  const counts = bands.map(([name, test]) => `${name}: ${pages.filter(test).length}`).join(', ');
  console.log(
    `\n${pages.length} pages (${counts}), median of ${RUNS} passes per page; ms per page (Node ${process.version})`,
  );
  console.log(
    'step            | median |    p90 |     max | share of sum | log-log slope | ms/100KB <50KB | 50-200KB | >=200KB',
  );
  for (const step of [...STEPS, 'total' as const]) {
    const of = (p: Page) => (step === 'total' ? total(p) : p.ms[step]);
    const has = pages.filter((p) => of(p) !== undefined);
    const values = has.map((p) => of(p) as number);
    const stepSum = values.reduce((a, b) => a + b, 0);
    const perKb = bands.map(([, test]) => {
      const band = has.filter(test);
      const ms = band.reduce((a, p) => a + (of(p) as number), 0);
      const kb = band.reduce((a, p) => a + p.bytes, 0) / 100_000;
      return kb > 0 ? (ms / kb).toFixed(2) : '-';
    });
    const fit = slope(has.filter((p) => (of(p) as number) > 0).map((p) => [p.bytes, of(p) as number]));
    const share = step.startsWith('sc:') || step === 'images*' ? '' : `${((100 * stepSum) / sum).toFixed(1)}%`;
    console.log(
      `${step.padEnd(15)} | ${median(values).toFixed(2).padStart(6)} | ${quantile(values, 0.9).toFixed(2).padStart(6)} | ${Math.max(
        ...values,
      )
        .toFixed(1)
        .padStart(
          7,
        )} | ${share.padStart(12)} | ${fit.toFixed(2).padStart(13)} | ${perKb[0]?.padStart(14)} | ${perKb[1]?.padStart(8)} | ${perKb[2]?.padStart(7)}`,
    );
  }
}

function largest(pages: Page[]): void {
  console.log('\nlargest pages (ms per step; source of the content):');
  for (const p of [...pages].sort((a, b) => b.bytes - a.bytes).slice(0, 8)) {
    const steps = STEPS.filter((s) => p.ms[s] !== undefined).map((s) => `${s} ${(p.ms[s] as number).toFixed(1)}`);
    console.log(
      `${relative(DOCS_DIR, p.path)} ${(p.bytes / 1000).toFixed(0)} KB, ${p.elements} elements, ${p.source}: total ${total(p).toFixed(1)} | ${steps.join(', ')}`,
    );
  }
}

const files = htmlFiles(DOCS_DIR).slice(0, LIMIT);
for (const file of files.slice(0, 20)) await timeSteps(new Uint8Array(readFileSync(file)), 'http://127.0.0.1:8000/');
const pages: Page[] = [];
for (const file of files) pages.push(await measure(file));
report(pages);
largest(pages);
