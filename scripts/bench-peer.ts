/**
 * npm run bench:peer -- edgecrawl beside Crawlee's CheerioCrawler, on the same synthetic loopback site, at
 * the same concurrency, in the same run. Crawlee (@crawlee/cheerio 3) is installed into a temporary folder
 * on first use, never as a dependency of edgecrawl.
 *
 * Concurrency C means, for edgecrawl, FETCH_CONCURRENCY=C (requests in flight per consumer invocation; its
 * batches stay at 100 messages); for Crawlee, maxConcurrency C. The site records how many requests were
 * really in flight at once, and the table shows it. Crawlee is given its best chance: storage in memory
 * (persistStorage: false, faster here than its default on-disk storage), and two runs per round, one with its
 * autoscaling up to C and one fixed at C (minConcurrency = C); the faster of the two counts. edgecrawl runs
 * with every feature on: robots.txt, the host gate, bodies to R2, pages and links to D1.
 *
 * Env: CONCURRENCY (comma list, 20), PAGES (5000), PAGE_KB (40), LINKS (20), LATENCY_MS (0), RUNS (3),
 * PLOT (write an SVG of pages/s against concurrency to this path), PLOT_TITLE, EXTRACT (formats edgecrawl extracts
 * from each page, e.g. markdown,metadata; Crawlee still reads only the title).
 */
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HostLogEntry } from '../test/support/host-log.ts';
import { crawlToEnd, median, startSites, startWorker } from './lib/local.ts';
import { cpuSeconds, processGroup } from './lib/proc.ts';
import { lineChart } from './lib/svg.ts';

const CONCURRENCY = (process.env.CONCURRENCY ?? '20').split(',').map(Number);
const PAGES = Number(process.env.PAGES ?? 5000);
const PAGE_KB = Number(process.env.PAGE_KB ?? 40);
const LINKS = Number(process.env.LINKS ?? 20);
const LATENCY_MS = Number(process.env.LATENCY_MS ?? 0);
const RUNS = Number(process.env.RUNS ?? 3);
const CRAWLEE = '@crawlee/cheerio@3.18.1';
const EXTRACT = process.env.EXTRACT ? { extract: { formats: process.env.EXTRACT.split(',') } } : {};

const root = new URL('../', import.meta.url).pathname;
const node = join(root, 'node_modules/.bin/node');

/** The peer's own folder: @crawlee/cheerio installed once, and the runner script beside it. */
function preparePeer(): string {
  const dir = join(tmpdir(), 'edgecrawl-peer-crawlee');
  if (!existsSync(join(dir, 'node_modules/@crawlee/cheerio'))) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'edgecrawl-peer', private: true, type: 'module' }));
    console.log(`installing ${CRAWLEE} into ${dir} ...`);
    const npm = spawnSync('npm', ['install', '--no-audit', '--no-fund', CRAWLEE], { cwd: dir, stdio: 'inherit' });
    if (npm.status !== 0) throw new Error('npm install of the peer failed');
  }
  copyFileSync(join(root, 'scripts/peer/crawlee.mjs'), join(dir, 'crawlee.mjs'));
  return dir;
}

interface Result {
  pagesPerSecond: number;
  cpuMsPerPage: number;
  /** Most requests of the run in flight at the site at once. */
  inFlight: number;
}

/** The most requests of a namespace the site had in flight at once. */
async function peakInFlight(site: string, ns: string): Promise<number> {
  const log = (await (await fetch(`${site}/__hostlog`)).json()) as { entries: HostLogEntry[] };
  return Math.max(0, ...log.entries.filter((e) => e.path.startsWith(`/t/${ns}/`)).map((e) => e.concurrent));
}

async function runCrawlee(dir: string, seed: string, concurrency: number, fixed: boolean): Promise<Result> {
  const child = spawn(node, ['crawlee.mjs', seed, String(concurrency)], {
    cwd: dir,
    env: { ...process.env, PERSIST: '0', FIXED: fixed ? '1' : '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  let cpu = 0;
  // The child's CPU, sampled until it exits (its /proc entry is gone after).
  const sampler = setInterval(() => (cpu = Math.max(cpu, cpuSeconds([child.pid as number]))), 100);
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  clearInterval(sampler);
  if (code !== 0) throw new Error(`crawlee exited with ${code}: ${out}`);
  const { pages, seconds } = JSON.parse(out.trim().split('\n').at(-1) as string) as { pages: number; seconds: number };
  if (pages !== PAGES + 1) throw new Error(`crawlee crawled ${pages} of ${PAGES + 1} pages`);
  const ns = /\/t\/([^/]+)\//.exec(seed)?.[1] as string;
  return {
    pagesPerSecond: pages / seconds,
    cpuMsPerPage: (cpu * 1000) / pages,
    inFlight: await peakInFlight(new URL(seed).origin, ns),
  };
}

const variant = `bench-${PAGES}-${PAGE_KB}-${LINKS}${LATENCY_MS ? `-d${LATENCY_MS}` : ''}`;
const peerDir = preparePeer();
const sites = await startSites(0);
const rows: { concurrency: number; edgecrawl: Result; auto: Result; fixed: Result; best: Result }[] = [];
try {
  for (const concurrency of CONCURRENCY) {
    const worker = await startWorker(
      { HOST_MIN_INTERVAL_MS: '0', HOST_MAX_CONCURRENCY: '1000', FETCH_CONCURRENCY: String(concurrency) },
      process.env.BATCH_TIMEOUT ? { batchTimeout: Number(process.env.BATCH_TIMEOUT) } : {},
    );
    const pgid = worker.process.pid as number;
    const ours: Result[] = [];
    const auto: Result[] = [];
    const fixed: Result[] = [];
    try {
      for (let run = 0; run < RUNS; run++) {
        const ns = `peer${concurrency}r${run}${Date.now().toString(36)}`;
        const cpuBefore = cpuSeconds(processGroup(pgid));
        const started = performance.now();
        const crawl = await crawlToEnd(
          worker,
          { seeds: [`${sites.siteA}/t/${ns}e/${variant}/`], ...EXTRACT },
          1_800_000,
          200,
        );
        const seconds = (performance.now() - started) / 1000;
        if (crawl.counts.stored !== PAGES + 1)
          throw new Error(`edgecrawl stored ${crawl.counts.stored} of ${PAGES + 1}`);
        ours.push({
          pagesPerSecond: crawl.counts.stored / seconds,
          cpuMsPerPage: ((cpuSeconds(processGroup(pgid)) - cpuBefore) * 1000) / crawl.counts.stored,
          inFlight: await peakInFlight(sites.siteA, `${ns}e`),
        });
        auto.push(await runCrawlee(peerDir, `${sites.siteA}/t/${ns}a/${variant}/`, concurrency, false));
        fixed.push(await runCrawlee(peerDir, `${sites.siteA}/t/${ns}f/${variant}/`, concurrency, true));
        console.log(
          `C=${concurrency} run ${run + 1}: edgecrawl ${ours.at(-1)!.pagesPerSecond.toFixed(1)}, Crawlee autoscaled ${auto.at(-1)!.pagesPerSecond.toFixed(1)}, Crawlee fixed ${fixed.at(-1)!.pagesPerSecond.toFixed(1)} pages/s`,
        );
      }
    } finally {
      await worker.stop();
    }
    const med = (results: Result[]): Result => ({
      pagesPerSecond: median(results.map((r) => r.pagesPerSecond)),
      cpuMsPerPage: median(results.map((r) => r.cpuMsPerPage)),
      inFlight: Math.max(...results.map((r) => r.inFlight)),
    });
    const [a, f] = [med(auto), med(fixed)];
    rows.push({
      concurrency,
      edgecrawl: med(ours),
      auto: a,
      fixed: f,
      best: a.pagesPerSecond >= f.pagesPerSecond ? a : f,
    });
  }
} finally {
  await sites.stop();
}

console.log(
  `\n${PAGES + 1} pages of ~${PAGE_KB} KB with ${LINKS} links, ${LATENCY_MS} ms latency per response, median of ${RUNS} runs`,
);
console.log('(pages/s, CPU ms per page, most requests in flight at once as the site saw them):');
console.log(
  'concurrency | bound   | edgecrawl            | Crawlee autoscaled   | Crawlee fixed        | vs Crawlee best',
);
for (const { concurrency, edgecrawl, auto, fixed, best } of rows) {
  const bound = LATENCY_MS > 0 ? ((concurrency * 1000) / LATENCY_MS).toFixed(0) : '-';
  const cell = (r: Result) =>
    `${r.pagesPerSecond.toFixed(1).padStart(6)} (${r.cpuMsPerPage.toFixed(2)}, ${r.inFlight})`.padEnd(20);
  console.log(
    `${String(concurrency).padStart(11)} | ${bound.padStart(7)} | ${cell(edgecrawl)} | ${cell(auto)} | ${cell(fixed)} | ${(edgecrawl.pagesPerSecond / best.pagesPerSecond).toFixed(2).padStart(14)}x`,
  );
  if (LATENCY_MS > 0) {
    const share = (r: Result) => `${((100 * r.pagesPerSecond * LATENCY_MS) / (concurrency * 1000)).toFixed(0)}%`;
    console.log(
      `${''.padStart(11)}   of the concurrency bound: edgecrawl ${share(edgecrawl)}, Crawlee best ${share(best)}`,
    );
  }
}
if (process.env.PLOT) {
  const series = [
    {
      name: 'edgecrawl (R2 + D1 writes)',
      color: '#f38020',
      points: rows.map((r) => [r.concurrency, r.edgecrawl.pagesPerSecond] as [number, number]),
    },
    {
      name: 'Crawlee CheerioCrawler, best of autoscaled and fixed, in memory',
      color: '#2b6cb0',
      points: rows.map((r) => [r.concurrency, r.best.pagesPerSecond] as [number, number]),
    },
  ];
  if (LATENCY_MS > 0)
    series.push({
      name: `concurrency bound (C / ${LATENCY_MS} ms)`,
      color: '#999999',
      points: rows.map((r) => [r.concurrency, (r.concurrency * 1000) / LATENCY_MS] as [number, number]),
    });
  const title =
    process.env.PLOT_TITLE ??
    `pages/s vs concurrency: ${PAGES + 1} pages of ~${PAGE_KB} KB, ${LINKS} links, ${LATENCY_MS} ms latency (median of ${RUNS})`;
  writeFileSync(
    process.env.PLOT,
    lineChart({ title, xLabel: 'concurrency (requests in flight)', yLabel: 'pages/s', series }),
  );
  console.log(`\nplot written to ${process.env.PLOT}`);
}
