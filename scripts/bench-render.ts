/**
 * npm run bench:render -- edgecrawl with `render: "auto"` beside Crawlee's PlaywrightCrawler (renders every page)
 * and AdaptivePlaywrightCrawler (renders the pages it predicts need it), on the same mixed loopback site
 * (scripts/lib/mixed-site.ts: a share of the pages client-rendered, some pages linked only from them), at the same
 * concurrency, in the same run, every browser the Chromium inside @sparticuz/chromium. Crawlee
 * (@crawlee/playwright 3, with playwright-core) is installed into a temporary folder on first use, never as a
 * dependency of edgecrawl; its runner is scripts/peer/crawlee-playwright.mjs.
 *
 * Reported per crawler, medians of RUNS: pages/s and renders/s (wall time, from outside), the share of pages
 * rendered, browser seconds per render: busy (at least one page open in the browser: edgecrawl's usage,
 * operations.browserSeconds, counts it so; Crawlee's from its browser pool's pageCreated to pageClosed) and, for
 * Crawlee, open (its browsers' lifetimes), and "text correct": pages crawled whose text holds the page's token
 * (N/N is every page crawled, with the right text). Ratios are against Crawlee's crawlers in the same run.
 *
 * Concurrency C: edgecrawl's FETCH_CONCURRENCY and RENDER_TABS (pages a consumer invocation renders at once, as
 * tabs of its browser), Crawlee's maxConcurrency. Crawlee gets its best chance, as in
 * bench:peer: storage in memory, no fingerprints, and one run autoscaled up to C and one fixed at C
 * (minConcurrency = C) per round; the faster of the two counts.
 *
 * Env: PAGES (300), CLIENT_SHARE (0.3), LINKS (extra links per page, 3), RENDER_DELAY_MS (50-200: a
 * client-rendered page's script writes it after this long), LATENCY_MS (0), CONCURRENCY (8), RUNS (3),
 * CRAWLERS (edgecrawl,playwright,adaptive), CRAWLEE_MODES (auto,fixed), RENDER (edgecrawl's render, auto),
 * WAIT_FOR (edgecrawl's waitFor: ms, or a selector such as 'main p.text', which Crawlee's handlers wait for; unset:
 * edgecrawl waits for the page to settle), DETECTION_RATIO (the adaptive crawler's renderingTypeDetectionRatio;
 * its default 0.1), WORKER_VARS (more Worker vars, NAME=value,...), CHROMIUM_PATH (another Chromium than
 * @sparticuz/chromium's), CHROMIUM_FLAGS (packaged: Crawlee's browser with @sparticuz/chromium's flags).
 */
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import packagedChromium from '@sparticuz/chromium';
import { api, crawlToEnd, median, startWorker, type Worker } from './lib/local.ts';
import { type MixedSite, startMixedSite } from './lib/mixed-site.ts';

const PAGES = Number(process.env.PAGES ?? 300);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 8);
const RUNS = Number(process.env.RUNS ?? 3);
const CRAWLERS = (process.env.CRAWLERS ?? 'edgecrawl,playwright,adaptive').split(',');
const MODES = (process.env.CRAWLEE_MODES ?? 'auto,fixed').split(',') as ('auto' | 'fixed')[];
const RENDER = process.env.RENDER ?? 'auto';
const WAIT_FOR = process.env.WAIT_FOR;
const [DELAY_MIN, DELAY_MAX] = (process.env.RENDER_DELAY_MS ?? '50-200').split('-').map(Number);
const PEER = ['@crawlee/playwright@3.18.1', 'playwright-core@1.65.1'];

const root = new URL('../', import.meta.url).pathname;
const node = join(root, 'node_modules/.bin/node');

interface Result {
  seconds: number;
  pages: number;
  renders: number;
  /** Seconds the browsers were busy (a page open in them) per rendered page (null: not known). */
  busyPerRender: number | null;
  /** Crawlee: seconds its browsers were open (up to closed), per rendered page. */
  openPerRender: number | null;
  textCorrect: number;
  /** What the site served the crawl: its HTML and script requests, and the most it had in flight at once. */
  site: { html: number; scripts: number; peak: number };
}

/** The peer's own folder: @crawlee/playwright and playwright-core installed once, and the runner beside them. */
function preparePeer(): string {
  const dir = join(tmpdir(), 'edgecrawl-peer-crawlee-playwright');
  if (
    !existsSync(join(dir, 'node_modules/@crawlee/playwright')) ||
    !existsSync(join(dir, 'node_modules/playwright-core'))
  ) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'edgecrawl-peer', private: true, type: 'module' }));
    console.log(`installing ${PEER.join(' ')} into ${dir} ...`);
    const npm = spawnSync('npm', ['install', '--no-audit', '--no-fund', ...PEER], { cwd: dir, stdio: 'inherit' });
    if (npm.status !== 0) throw new Error('npm install of the peer failed');
  }
  copyFileSync(join(root, 'scripts/peer/crawlee-playwright.mjs'), join(dir, 'crawlee-playwright.mjs'));
  return dir;
}

/**
 * Chromium for Crawlee: @sparticuz/chromium's binary (unpacked to /tmp on first use) with Playwright's own flags and
 * --no-sandbox (root here), as the Worker's local Browser Rendering runs the same binary with miniflare's flags and
 * --no-sandbox (scripts/lib/browser-setup.ts). The package's own flags are made for AWS Lambda (--single-process
 * closes the browser with its first page, software GL, no site isolation); CHROMIUM_FLAGS=packaged uses them
 * anyway, less --single-process.
 */
async function chromium(): Promise<{ path: string; args: string[] }> {
  const path = process.env.CHROMIUM_PATH ?? (await packagedChromium.executablePath());
  if (process.env.CHROMIUM_FLAGS !== 'packaged') return { path, args: ['--no-sandbox'] };
  return { path, args: packagedChromium.args.filter((flag) => flag !== '--single-process') };
}

/** Pages of `found` (URL to text) that are the site's, and how many of them have text that holds their token. */
function check(expected: Map<string, string>, found: Map<string, string>): { pages: number; textCorrect: number } {
  let [pages, textCorrect] = [0, 0];
  for (const [url, text] of found) {
    const token = expected.get(new URL(url).pathname);
    if (token === undefined) continue;
    pages++;
    if (text.includes(token)) textCorrect++;
  }
  return { pages, textCorrect };
}

async function runCrawlee(
  peer: { dir: string; browser: { path: string; args: string[] } },
  kind: 'playwright' | 'adaptive',
  fixed: boolean,
  site: MixedSite,
  ns: string,
): Promise<Result> {
  const out = join(mkdtempSync(join(tmpdir(), 'edgecrawl-render-')), 'out.json');
  const env = {
    ...process.env,
    FIXED: fixed ? '1' : '0',
    CHROMIUM_PATH: peer.browser.path,
    CHROMIUM_ARGS: JSON.stringify(peer.browser.args),
  };
  const args = ['crawlee-playwright.mjs', kind, site.seed(ns), String(CONCURRENCY), out];
  // In a process group of its own, with its browsers, so that an interrupted bench ends them all (see below).
  const child = spawn(node, args, { cwd: peer.dir, env, stdio: ['ignore', 'inherit', 'inherit'], detached: true });
  running.add(child.pid as number);
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  running.delete(child.pid as number);
  if (code !== 0) throw new Error(`crawlee ${kind} exited with ${code}`);
  const run = JSON.parse(readFileSync(out, 'utf8')) as {
    seconds: number;
    renders: number;
    browserSeconds: number;
    busySeconds: number;
    items: { url: string; text: string }[];
  };
  rmSync(join(out, '..'), { recursive: true, force: true });
  const found = new Map(run.items.map((item) => [item.url, item.text]));
  return {
    seconds: run.seconds,
    ...check(site.expected(ns), found),
    renders: run.renders,
    busyPerRender: run.renders > 0 ? run.busySeconds / run.renders : null,
    openPerRender: run.renders > 0 ? run.browserSeconds / run.renders : null,
    site: site.counts(ns),
  };
}

/** Every number in `value` under a key that `key` matches, by its path ("operations.renders"). */
function numbersUnder(value: unknown, key: RegExp, path = ''): Map<string, number> {
  const found = new Map<string, number>();
  if (value === null || typeof value !== 'object') return found;
  for (const [k, v] of Object.entries(value)) {
    const at = path ? `${path}.${k}` : k;
    if (typeof v === 'number' && key.test(k)) found.set(at, v);
    else for (const [p, n] of numbersUnder(v, key, at)) found.set(p, n);
  }
  return found;
}

/** The crawl's records, as its JSONL export streams them. */
async function exportedRecords(worker: Worker, id: string): Promise<Record<string, unknown>[]> {
  const res = await fetch(`${worker.url}/v1/crawls/${id}/export?format=jsonl`, {
    headers: { authorization: `Bearer ${worker.token}` },
  });
  if (!res.ok) throw new Error(`export: ${res.status} ${await res.text()}`);
  return (await res.text())
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

async function runEdgecrawl(worker: Worker, site: MixedSite, ns: string): Promise<Result> {
  const started = performance.now();
  const request = {
    seeds: [site.seed(ns)],
    render: RENDER,
    ...(WAIT_FOR ? { waitFor: /^\d+$/.test(WAIT_FOR) ? Number(WAIT_FOR) : WAIT_FOR } : {}),
    extract: { formats: ['text'] },
  };
  const crawl = await crawlToEnd(worker, request, 1_800_000, 200);
  const seconds = (performance.now() - started) / 1000;
  const records = await exportedRecords(worker, crawl.id);
  const found = new Map(records.map((r) => [String(r.url), String(r.text ?? '')]));
  // A record's `rendered` says why the page was rendered (null: it was not).
  const why = records.map((r) => r.rendered).filter((r) => r !== null && r !== undefined && r !== false);
  const rendered = why.length;
  const reasons = Object.fromEntries(
    [...new Set(why.map(String))].map((w) => [w, why.filter((x) => String(x) === w).length]),
  );
  // The render figures of the usage, whatever they are named (read tolerantly while the feature settles).
  const usage = await api<Record<string, unknown>>(worker, `/v1/crawls/${crawl.id}/usage`);
  const figures = numbersUnder(usage, /render|browser/i);
  for (const path of figures.keys()) if (path.startsWith('estimate.')) figures.delete(path);
  console.log(
    `  edgecrawl: ${crawl.counts.stored} stored, ${rendered} records rendered ${JSON.stringify(reasons)}; ` +
      `usage: ${JSON.stringify(Object.fromEntries(figures))}`,
  );
  const pick = (name: RegExp) => [...figures].find(([path]) => name.test(path.split('.').at(-1) as string))?.[1];
  const renders = pick(/^renders?$/i) ?? rendered;
  const browserSeconds = pick(/^browserSeconds$/i) ?? (pick(/^browserMs$/i) ?? Number.NaN) / 1000;
  return {
    seconds,
    ...check(site.expected(ns), found),
    renders,
    busyPerRender: renders > 0 && Number.isFinite(browserSeconds) ? browserSeconds / renders : null,
    openPerRender: null,
    site: site.counts(ns),
  };
}

/** Starts the Worker for edgecrawl's runs (startWorker puts the local Browser Rendering's Chromium in place). */
async function startRenderingWorker(): Promise<Worker> {
  const extra = (process.env.WORKER_VARS ?? '')
    .split(',')
    .filter(Boolean)
    .map((pair) => pair.split('=') as [string, string]);
  return startWorker({
    HOST_MIN_INTERVAL_MS: '0',
    HOST_MAX_CONCURRENCY: '1000',
    FETCH_CONCURRENCY: String(CONCURRENCY),
    RENDER_TABS: String(CONCURRENCY),
    ...Object.fromEntries(extra),
  });
}

const NAMES: Record<string, string> = {
  edgecrawl: `edgecrawl, render: "${RENDER}"`,
  'playwright-auto': 'Crawlee PlaywrightCrawler, autoscaled',
  'playwright-fixed': 'Crawlee PlaywrightCrawler, fixed',
  'adaptive-auto': 'Crawlee AdaptivePlaywrightCrawler, autoscaled',
  'adaptive-fixed': 'Crawlee AdaptivePlaywrightCrawler, fixed',
};

/** One round: each crawler once, on a namespace of its own. */
async function round(
  run: number,
  site: MixedSite,
  worker: Worker | null,
  peer: Parameters<typeof runCrawlee>[0] | null,
): Promise<Map<string, Result>> {
  const results = new Map<string, Result>();
  const base = `r${run}${Date.now().toString(36)}`;
  if (worker) results.set('edgecrawl', await runEdgecrawl(worker, site, `${base}e`));
  for (const kind of ['playwright', 'adaptive'] as const) {
    if (!peer || !CRAWLERS.includes(kind)) continue;
    for (const mode of MODES)
      results.set(
        `${kind}-${mode}`,
        await runCrawlee(peer, kind, mode === 'fixed', site, `${base}${kind[0]}${mode[0]}`),
      );
  }
  console.log(
    `run ${run + 1}: ${[...results].map(([name, r]) => `${name} ${(r.pages / r.seconds).toFixed(1)} pages/s (${r.textCorrect}/${PAGES} correct)`).join(', ')}`,
  );
  return results;
}

const f = (n: number | null, digits = 2) => (n === null || !Number.isFinite(n) ? '-' : n.toFixed(digits));

/** The medians of the runs of one crawler (null where a run has no figure). */
function medians(rounds: Map<string, Result>[], name: string) {
  const runs = rounds.map((r) => r.get(name)).filter((r) => r !== undefined);
  const med = (of: (r: Result) => number | null) => {
    const values = runs.map(of);
    return values.some((v) => v === null) ? null : median(values as number[]);
  };
  return {
    pagesPerSecond: med((r) => r.pages / r.seconds) as number,
    rendersPerSecond: med((r) => r.renders / r.seconds),
    share: med((r) => r.renders / PAGES),
    busyPerRender: med((r) => r.busyPerRender),
    openPerRender: med((r) => r.openPerRender),
    requestsPerPage: med((r) => (r.site.html + r.site.scripts) / Math.max(1, r.pages)),
    peak: Math.max(...runs.map((r) => r.site.peak)),
    /** The worst run's. */
    textCorrect: Math.min(...runs.map((r) => r.textCorrect)),
  };
}

/** The report: one markdown row per crawler, medians of the runs, ratios against Crawlee's crawlers' best modes. */
function report(site: MixedSite, rounds: Map<string, Result>[]): void {
  const names = Object.keys(NAMES).filter((name) => rounds[0]?.has(name));
  const rows = new Map(names.map((name) => [name, medians(rounds, name)]));
  const best = (kind: string) =>
    Math.max(...[...rows].filter(([name]) => name.startsWith(kind)).map(([, m]) => m.pagesPerSecond));
  const [playwright, adaptive] = [best('playwright'), best('adaptive')];
  const ratio = (pps: number, of: number) => (Number.isFinite(of) ? `${f(pps / of)}x` : '-');
  console.log(
    `\n${PAGES} pages, ${site.clientRendered} client-rendered (their script writes them ${DELAY_MIN}-${DELAY_MAX} ms ` +
      `after it runs), ${site.scriptOnly} linked only from those; concurrency ${CONCURRENCY}; median of ${RUNS} runs\n`,
  );
  console.log(
    '| crawler | pages/s | renders/s | share rendered | browser busy s / render | browser open s / render ' +
      '| text correct (worst run) | site requests / page (peak in flight) | vs PlaywrightCrawler | vs Adaptive |',
  );
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const [name, m] of rows) {
    const cells = [
      NAMES[name],
      f(m.pagesPerSecond, 1),
      f(m.rendersPerSecond, 1),
      m.share === null ? '-' : `${f(100 * m.share, 0)}%`,
      f(m.busyPerRender),
      f(m.openPerRender),
      `${m.textCorrect}/${PAGES}`,
      `${f(m.requestsPerPage)} (${m.peak})`,
      ratio(m.pagesPerSecond, playwright),
      ratio(m.pagesPerSecond, adaptive),
    ];
    console.log(`| ${cells.join(' | ')} |`);
  }
  const ours = rows.get('edgecrawl');
  if (ours && Number.isFinite(playwright) && Number.isFinite(adaptive))
    console.log(
      `\ntarget (>= 2x PlaywrightCrawler, >= Adaptive, ${PAGES}/${PAGES} text): ` +
        (ours.pagesPerSecond >= 2 * playwright && ours.pagesPerSecond >= adaptive && ours.textCorrect === PAGES
          ? 'met'
          : 'NOT met'),
    );
}

const site = await startMixedSite({
  pages: PAGES,
  clientShare: Number(process.env.CLIENT_SHARE ?? 0.3),
  links: Number(process.env.LINKS ?? 3),
  delayMs: [DELAY_MIN ?? 50, DELAY_MAX ?? DELAY_MIN ?? 200],
  latencyMs: Number(process.env.LATENCY_MS ?? 0),
});
/** Process groups of the Crawlee runs under way, killed with their browsers if the bench is interrupted. */
const running = new Set<number>();
let worker: Worker | null = null;
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, async () => {
    for (const pgid of running) process.kill(-pgid, 'SIGKILL');
    await worker?.stop();
    process.exit(130);
  });
const crawlee = CRAWLERS.some((c) => c !== 'edgecrawl');
const peer = crawlee ? { dir: preparePeer(), browser: await chromium() } : null;
worker = CRAWLERS.includes('edgecrawl') ? await startRenderingWorker() : null;
const rounds: Map<string, Result>[] = [];
try {
  for (let run = 0; run < RUNS; run++) rounds.push(await round(run, site, worker, peer));
} finally {
  await worker?.stop();
  await site.stop();
}
report(site, rounds);
