/**
 * npm run bench:broad -- a broad crawl against its politeness bound.
 *
 * Serves a simulated web (test/support/sim-web.ts: HOSTS sites of 12 pages, each on its own loopback address
 * 127.1.x.y, in a child process) and crawls it under `wrangler dev` as a user would: one crawl seeded with every
 * home page, the defaults (HOST_MIN_INTERVAL_MS 1000, default extraction). In the same run it measures what the
 * machine can fetch: the same crawl on a second Worker with politeness lifted (HOST_MIN_INTERVAL_MS=0). Reports, per
 * crawl and as medians of RUNS: pages/s over the crawl and over its steady middle (the middle 80% of the requests,
 * by arrival at the server), the bound min(hosts x 1/interval, capacity) and the ratio to it, the smallest gap
 * between two requests to one host at the server, when hosts got their first and last requests (the slowest host
 * against the median one), and queue operations per page and $ per million pages from GET /v1/crawls/:id/usage.
 *
 *   HOSTS=1000 RUNS=1 npm run bench:broad
 *   HOSTS=205 BASELINE=main npm run bench:broad     (also the polite crawl on main's src/, in the same run)
 *
 * With TRAPS=1 the web also has a host for each crawler trap of test/support/trap-sites.ts (a calendar, a query
 * calendar, facets, a relative-link loop, session ids, a session parameter no list names, soft 404s), each beside
 * twelve pages of its own, seeded with the rest and crawled with the defaults a user gets (no maxPages: the default
 * budget): for each, the requests spent in its trap and whether every real page was stored.
 *
 * HOSTS (default 1000, at most 1,000: the seeds of one crawl), RUNS (default 1), INTERVAL_MS (default 1000),
 * BASELINE (git revisions, comma-separated: each one's Worker crawls too, from a temporary worktree), CAPACITY=0 (skip
 * the unpaced crawl; the bound is then hosts x 1/interval), LOG_DIR (wrangler's output per crawl).
 */
import { join } from 'node:path';
import { type HostLogEntry, PAGES_PER_SITE, readAllLogs, spawnSimWeb } from '../test/support/sim-web.ts';
import { BROAD_TRAPS, trapAddress } from '../test/support/trap-hosts.ts';
import { realPaths, spentInTrap } from '../test/support/trap-sites.ts';
import { baselineTree } from './lib/baseline-tree.ts';
import { api, median, startWorker, type Worker } from './lib/local.ts';

const HOSTS = Number(process.env.HOSTS ?? 1000);
const RUNS = Number(process.env.RUNS ?? 1);
const INTERVAL_MS = Number(process.env.INTERVAL_MS ?? 1000);
const BASELINES = (process.env.BASELINE ?? '').split(',').filter((rev) => rev !== '');
const CAPACITY = process.env.CAPACITY !== '0';
const LOG_DIR = process.env.LOG_DIR;
const TRAPS = process.env.TRAPS === '1';
const SEEDS = HOSTS + (TRAPS ? BROAD_TRAPS.length : 0);
if (!(HOSTS >= 1 && SEEDS <= 1000)) throw new Error('HOSTS: 1 to 1,000 with the trap hosts (the seeds of one crawl)');

const root = new URL('../', import.meta.url).pathname;

interface Figures {
  label: string;
  seconds: number;
  pages: number;
  pagesPerSecond: number;
  middlePagesPerSecond: number;
  smallestGapMs: number;
  gapsUnder990: number;
  firstRequestMedianS: number;
  firstRequestMaxS: number;
  finishMedianS: number;
  finishMaxS: number;
  queueOpsPerPage: number;
  usdPerMillion: number;
}

interface CrawlState {
  status: string;
  counts: { discovered: number; stored: number; failed: number; skipped: number };
}

interface UsageView {
  pages: number;
  operations: { queueOperations: number };
  estimate: { usdPerMillionPages: number | null };
}

/** The crawl's usage once its last consumer has reported (the queue count stops moving). */
async function settledUsage(worker: Worker, id: string): Promise<UsageView> {
  let usage = await api<UsageView>(worker, `/v1/crawls/${id}/usage`);
  for (let i = 0; i < 20; i++) {
    await new Promise((r) => setTimeout(r, 500));
    const again = await api<UsageView>(worker, `/v1/crawls/${id}/usage`);
    if (again.operations.queueOperations === usage.operations.queueOperations && i >= 2) return again;
    usage = again;
  }
  return usage;
}

/** Requests to each host at the server: arrivals sorted, per host. */
function arrivals(logs: Record<string, HostLogEntry[]>): number[][] {
  return Object.values(logs).map((entries) => entries.map((e) => e.at).sort((a, b) => a - b));
}

/** The middle 80% of the requests, by arrival: their count over their span, per second. */
function middleRate(all: number[]): number {
  const sorted = [...all].sort((a, b) => a - b);
  const [lo, hi] = [Math.floor(sorted.length * 0.1), Math.floor(sorted.length * 0.9)];
  const span = ((sorted[hi] as number) - (sorted[lo] as number)) / 1000;
  return span > 0 ? (hi - lo) / span : 0;
}

/** The smallest gap between two requests to one host, and how many gaps were under 990 ms. */
function gaps(byHost: number[][]): { smallest: number; under990: number } {
  let smallest = Number.POSITIVE_INFINITY;
  let under990 = 0;
  for (const times of byHost)
    for (let i = 1; i < times.length; i++) {
      const gap = (times[i] as number) - (times[i - 1] as number);
      smallest = Math.min(smallest, gap);
      if (gap < 990) under990 += 1;
    }
  return { smallest, under990 };
}

/** One crawl of every home page on `worker`, measured at the server and by its usage. */
async function crawlOnce(label: string, worker: Worker, web: Web): Promise<Figures> {
  await fetch(`${web.control}/__reset`, { method: 'POST' });
  const seeds = [...web.hosts, ...web.extra].map((h) => `${h}/`);
  const started = performance.timeOrigin + performance.now();
  // With the traps, the defaults a user gets (the default budget); without, a budget the web cannot reach.
  const budget = TRAPS ? {} : { maxPages: seeds.length * PAGES_PER_SITE + 100 };
  const { id } = await api<{ id: string }>(worker, '/v1/crawls', {
    method: 'POST',
    body: JSON.stringify({ seeds, ...budget }),
  });
  let crawl: CrawlState;
  for (;;) {
    crawl = await api<CrawlState>(worker, `/v1/crawls/${id}`);
    if (crawl.status !== 'running') break;
    if (performance.timeOrigin + performance.now() - started > 3_600_000) throw new Error(`${label}: over an hour`);
    await new Promise((r) => setTimeout(r, 250));
  }
  const ended = performance.timeOrigin + performance.now();
  const expected = web.hosts.length * PAGES_PER_SITE;
  if (!TRAPS && crawl.counts.stored !== expected)
    console.log(`  ${label}: ${crawl.status}, stored ${crawl.counts.stored} of ${expected}`, crawl.counts);
  const logs = await readAllLogs(web.control);
  if (TRAPS) await reportTraps(label, worker, id, { logs, web, started });
  const slowest = Object.entries(logs)
    .map(([host, entries]) => ({ host, n: entries.length, last: Math.max(...entries.map((e) => e.at)) }))
    .sort((a, b) => b.last - a.last)
    .slice(0, 3)
    .map((h) => `${h.host} (${h.n} requests, the last at ${((h.last - started) / 1000).toFixed(1)} s)`);
  console.log(`  ${label}: the hosts asked last: ${slowest.join(', ')}`);
  const byHost = arrivals(logs);
  const { smallest, under990 } = gaps(byHost);
  const since = (t: number | undefined) => ((t ?? started) - started) / 1000;
  const usage = await settledUsage(worker, id);
  const seconds = (ended - started) / 1000;
  return {
    label,
    seconds,
    pages: crawl.counts.stored,
    pagesPerSecond: crawl.counts.stored / seconds,
    middlePagesPerSecond: middleRate(byHost.flat()),
    smallestGapMs: smallest,
    gapsUnder990: under990,
    firstRequestMedianS: median(byHost.map((t) => since(t[0]))),
    firstRequestMaxS: Math.max(...byHost.map((t) => since(t[0]))),
    finishMedianS: median(byHost.map((t) => since(t.at(-1)))),
    finishMaxS: Math.max(...byHost.map((t) => since(t.at(-1)))),
    queueOpsPerPage: usage.operations.queueOperations / Math.max(1, usage.pages),
    usdPerMillion: usage.estimate.usdPerMillionPages ?? 0,
  };
}

interface Web {
  hosts: string[];
  extra: string[];
  control: string;
}

/** For each trap host: the requests spent in its trap, and the real pages of it the crawl did not store. */
async function reportTraps(
  label: string,
  worker: Worker,
  id: string,
  { logs, web, started }: { logs: Record<string, HostLogEntry[]>; web: Web; started: number },
) {
  const stored = new Set<string>();
  for (let cursor: string | null = null, first = true; first || cursor; first = false) {
    const page: { pages: { url: string; status: number; duplicateOf: string | null }[]; cursor: string | null } =
      await api(worker, `/v1/crawls/${id}/pages?limit=1000${cursor ? `&cursor=${cursor}` : ''}`);
    for (const p of page.pages) if (p.status === 200) stored.add(p.url);
    cursor = page.cursor;
  }
  for (const kind of BROAD_TRAPS) {
    const address = trapAddress(kind);
    const base = web.extra.find((h) => new URL(h).hostname === address) ?? '';
    const entries = logs[address] ?? [];
    const paths = entries.map((e) => e.path.slice(1));
    const last = Math.max(started, ...entries.map((e) => e.at));
    const spent = paths.filter((path) => spentInTrap(kind, path)).length;
    const missing = realPaths(kind).filter(
      (path) => ![...stored].some((u) => u === `${base}/${path}` || u.startsWith(`${base}/${path}?`)),
    );
    console.log(
      `  ${label} trap ${kind}: ${spent} requests in the trap (${paths.length} in all, the last at ${((last - started) / 1000).toFixed(1)} s), real pages missing: ${missing.length === 0 ? 'none' : missing.join(' ')}`,
    );
  }
}

interface Variant {
  label: string;
  vars: Record<string, string>;
  args?: string[];
}

async function measure(variant: Variant, run: number, web: Web): Promise<Figures> {
  const logFile = LOG_DIR ? join(LOG_DIR, `${variant.label}-${run}.log`) : undefined;
  const worker = await startWorker(
    { ALLOW_PRIVATE_NETWORKS: '127.1.0.0/16,127.2.0.0/16', ...variant.vars },
    { ...(variant.args ? { args: variant.args } : {}), ...(logFile ? { logFile } : {}) },
  );
  try {
    return await crawlOnce(variant.label, worker, web);
  } finally {
    await worker.stop();
  }
}

const fmt = (n: number, digits = 1) => n.toFixed(digits);

function report(all: Figures[], label: string, bound: number): void {
  const runs = all.filter((f) => f.label === label);
  if (runs.length === 0) return;
  const m = (pick: (f: Figures) => number) => median(runs.map(pick));
  console.log(
    `| ${label} | ${fmt(m((f) => f.seconds))} | ${fmt(m((f) => f.pagesPerSecond))} | ${fmt(m((f) => f.middlePagesPerSecond))} | ${fmt(bound)} | ${fmt(m((f) => f.pagesPerSecond) / bound, 2)} | ${fmt(Math.min(...runs.map((f) => f.smallestGapMs)))} (${Math.max(...runs.map((f) => f.gapsUnder990))}) | ${fmt(m((f) => f.firstRequestMaxS))} | ${fmt(m((f) => f.finishMedianS))} / ${fmt(m((f) => f.finishMaxS))} | ${fmt(
      m((f) => f.queueOpsPerPage),
      2,
    )} | ${fmt(
      m((f) => f.usdPerMillion),
      2,
    )} |`,
  );
}

const web = await spawnSimWeb({
  hosts: HOSTS,
  ...(TRAPS ? { extraModule: join(root, 'test/support/trap-hosts.ts') } : {}),
});
const baselines = BASELINES.map((rev) => baselineTree(root, rev, 'edgecrawl-broad-baseline-'));
const polite = { HOST_MIN_INTERVAL_MS: String(INTERVAL_MS) };
const variants: Variant[] = [
  ...baselines.map((baseline) => ({
    label: `polite@${baseline.sha}`,
    vars: polite,
    args: ['--config', join(baseline.dir, 'wrangler.toml')],
  })),
  { label: 'polite', vars: polite },
  ...(CAPACITY ? [{ label: 'capacity', vars: { HOST_MIN_INTERVAL_MS: '0' } }] : []),
];
const all: Figures[] = [];
try {
  console.log(`bench:broad: ${HOSTS} hosts x ${PAGES_PER_SITE} pages, one crawl of every home page, ${RUNS} run(s)`);
  for (let run = 0; run < RUNS; run++) {
    // Each run in another order, so that neither variant always crawls on a machine warmed (or tired) by the other.
    const order = run % 2 === 0 ? variants : [...variants].reverse();
    for (const variant of order) {
      const figures = await measure(variant, run, web);
      all.push(figures);
      console.log(
        `  run ${run + 1} ${figures.label}: ${figures.pages} pages in ${fmt(figures.seconds)} s, ${fmt(figures.pagesPerSecond)} pages/s (middle ${fmt(figures.middlePagesPerSecond)}), smallest gap ${fmt(figures.smallestGapMs)} ms, slowest host done at ${fmt(figures.finishMaxS)} s (median ${fmt(figures.finishMedianS)}), ${fmt(figures.queueOpsPerPage, 2)} queue ops/page, $${fmt(figures.usdPerMillion, 2)}/M`,
      );
    }
  }
  const capacity = median(all.filter((f) => f.label === 'capacity').map((f) => f.pagesPerSecond));
  const paceBound = (HOSTS * 1000) / INTERVAL_MS;
  const bound = CAPACITY ? Math.min(paceBound, capacity) : paceBound;
  console.log(
    `\nbound: min(${HOSTS} hosts x ${fmt(1000 / INTERVAL_MS, 2)} requests/s = ${fmt(paceBound)}, capacity ${CAPACITY ? fmt(capacity) : 'not measured'}) = ${fmt(bound)} pages/s; medians of ${RUNS}\n`,
  );
  console.log(
    '| crawl | s | pages/s | middle pages/s | bound | ratio | smallest gap ms (gaps < 990) | last host first asked, s | hosts done, median / slowest s | queue ops/page | $/M pages |',
  );
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const variant of variants) report(all, variant.label, variant.label === 'capacity' ? capacity : bound);
} finally {
  await web.stop();
  for (const baseline of baselines) baseline.remove();
}
