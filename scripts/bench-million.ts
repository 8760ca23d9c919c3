/**
 * npm run bench:million -- one crawl of PAGES (1,000,000) pages of the synthetic loopback site, in one crawl, under
 * `npm start`'s runtime (wrangler dev, every binding local, politeness lifted), sampled every SAMPLE_MS (5,000):
 * pages stored and pages/s, workerd's resident memory, the Worker isolate's JS heap (Runtime.getHeapUsage through the
 * inspector: the figure Cloudflare's 128 MB applies to; locally the crawl's Durable Objects share that isolate, so it
 * is an upper bound), the local D1 and Durable Object storage per page (their SQLite files), and the crawl's running
 * cost (GET /v1/crawls/:id/usage). At the end: the last tenth's rate against the first tenth's (goal >= 0.9x), the
 * largest heap (goal < 128 MiB), URLs fetched twice (from the site's request log) and lost (counts that do not add
 * up), and the cost per million pages. Writes OUT.json (every sample) and OUT.svg (rate, heap and cost over the crawl).
 * Env: PAGES (1000000), PAGE_KB (4), LINKS (10), SAMPLE_MS (5000), OUT (bench-million), EXTRACT (as npm run bench:
 * unset, a plain crawl). About an hour or two on a 2-core machine; PAGES=20000 checks the script in a few minutes.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type DevtoolsSession, devtools } from './lib/devtools.ts';
import { api, freePort, startSites, startWorker, type Worker } from './lib/local.ts';
import { plotSvg } from './lib/million-plot.ts';
import { type Sample, type Summary, summarize } from './lib/million-summary.ts';
import { processGroup } from './lib/proc.ts';

const PAGES = Number(process.env.PAGES ?? 1_000_000);
const PAGE_KB = Number(process.env.PAGE_KB ?? 4);
const LINKS = Number(process.env.LINKS ?? 10);
const SAMPLE_MS = Number(process.env.SAMPLE_MS ?? 5000);
/** In the crawl's last END_SHARE of pages, how often the status is read between samples (see waitForSample). */
const END_POLL_MS = 250;
const END_SHARE = 0.02;
const OUT = process.env.OUT ?? 'bench-million';
const EXTRACT = process.env.EXTRACT ? { extract: { formats: process.env.EXTRACT.split(',') } } : { extract: null };

interface CrawlView {
  status: string;
  counts: { discovered: number; stored: number; failed: number; skipped: number; duplicates: number };
  pending: number;
}

/** Bytes of the files below `dir` (0 when it does not exist). */
function bytesUnder(dir: string): number {
  let total = 0;
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return 0;
  }
  for (const entry of entries) {
    const path = join(dir, entry);
    const stat = statSync(path, { throwIfNoEntry: false });
    if (stat?.isDirectory()) total += bytesUnder(path);
    else if (stat) total += stat.size;
  }
  return total;
}

/** The current resident memory of workerd, in MiB (VmRSS of the processes whose command line names it). */
function workerdRssMiB(pgid: number): number {
  let kb = 0;
  for (const pid of processGroup(pgid)) {
    try {
      if (!/workerd/.test(readFileSync(`/proc/${pid}/cmdline`, 'utf8'))) continue;
      kb += Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      // gone
    }
  }
  return kb / 1024;
}

async function sample(worker: Worker, session: DevtoolsSession, id: string, started: number): Promise<Sample> {
  const crawl = await api<CrawlView>(worker, `/v1/crawls/${id}`);
  const usage = await api<{ estimate: { usd: number } }>(worker, `/v1/crawls/${id}/usage`);
  const heap = await session.send<{ usedSize: number }>('Runtime.getHeapUsage');
  return {
    seconds: (performance.now() - started) / 1000,
    stored: crawl.counts.stored,
    status: crawl.status,
    rssMiB: workerdRssMiB(worker.process.pid as number),
    heapMiB: heap.usedSize / 1024 / 1024,
    d1Bytes: bytesUnder(join(worker.state, 'v3/d1')),
    doBytes: bytesUnder(join(worker.state, 'v3/do')),
    usd: usage.estimate.usd,
  };
}

/**
 * Waits SAMPLE_MS for the next sample; in the crawl's last END_SHARE of pages it reads the status every END_POLL_MS
 * meanwhile and returns as soon as the crawl has ended, so the last sample comes within END_POLL_MS of the end (else
 * the last tenth's rate would carry up to SAMPLE_MS the crawl did not take).
 */
async function waitForSample(worker: Worker, id: string, stored: number): Promise<void> {
  const until = performance.now() + SAMPLE_MS;
  const nearEnd = stored >= (PAGES + 1) * (1 - END_SHARE);
  while (performance.now() < until) {
    await new Promise((r) => setTimeout(r, nearEnd ? END_POLL_MS : until - performance.now()));
    if (nearEnd && (await api<CrawlView>(worker, `/v1/crawls/${id}`)).status !== 'running') return;
  }
}

/** Requests the site saw more than once for the crawl's namespace. */
async function fetchedTwice(siteUrl: string, ns: string): Promise<number> {
  const { entries } = (await (await fetch(`${siteUrl}/__log/${ns}`)).json()) as { entries: string[] };
  const seen = new Set<string>();
  let twice = 0;
  for (const entry of entries) {
    if (seen.has(entry)) twice++;
    seen.add(entry);
  }
  return twice;
}

function report(summary: Summary, twice: number, lost: number): void {
  console.log(`\nbench:million: ${PAGES + 1} pages of ~${PAGE_KB} KB with ${LINKS} links, one crawl:`);
  console.log(
    `  ${summary.pages} pages in ${summary.seconds.toFixed(0)} s, ${summary.pagesPerSecond.toFixed(1)} pages/s`,
  );
  console.log(
    `  first tenth ${summary.firstTenth.toFixed(1)} pages/s, last tenth ${summary.lastTenth.toFixed(1)}: ${summary.ratio.toFixed(2)}x (goal >= 0.9: ${summary.ratio >= 0.9 ? 'met' : 'NOT met'})`,
  );
  console.log(
    `  isolate heap at most ${summary.maxHeapMiB.toFixed(1)} MiB (goal < 128: ${summary.maxHeapMiB < 128 ? 'met' : 'NOT met'}), workerd RSS at most ${summary.maxRssMiB.toFixed(0)} MiB`,
  );
  console.log(
    `  storage per page: D1 ${summary.d1BytesPerPage.toFixed(0)} B, Durable Objects ${summary.doBytesPerPage.toFixed(0)} B (local SQLite files)`,
  );
  console.log(`  $/million pages ${summary.usdPerMillion.toFixed(2)}; fetched twice ${twice}; lost ${lost}`);
}

const sites = await startSites(0);
const inspector = await freePort();
const worker = await startWorker(
  { HOST_MIN_INTERVAL_MS: '0', HOST_MAX_CONCURRENCY: '1000' },
  { npmStart: true, args: ['--inspector-port', String(inspector)] },
);
try {
  const session = await devtools(inspector);
  const ns = `million${Date.now().toString(36)}`;
  const seed = `${sites.siteA}/t/${ns}/bench-${PAGES}-${PAGE_KB}-${LINKS}/`;
  const started = performance.now();
  const { id } = await api<{ id: string }>(worker, '/v1/crawls', {
    method: 'POST',
    body: JSON.stringify({ seeds: [seed], maxPages: null, ...EXTRACT }),
  });
  const samples: Sample[] = [];
  for (;;) {
    const s = await sample(worker, session, id, started);
    samples.push(s);
    const last = samples.at(-2);
    const rate = last ? (s.stored - last.stored) / (s.seconds - last.seconds) : 0;
    console.log(
      `${s.seconds.toFixed(0)} s: ${s.stored} stored, ${rate.toFixed(0)} pages/s, heap ${s.heapMiB.toFixed(1)} MiB, rss ${s.rssMiB.toFixed(0)} MiB, $${s.usd.toFixed(4)}`,
    );
    // Written as it goes: a run stopped early still leaves its samples and plot.
    writeFileSync(`${OUT}.json`, JSON.stringify({ pages: PAGES + 1, pageKb: PAGE_KB, links: LINKS, samples }));
    writeFileSync(`${OUT}.svg`, plotSvg(samples, `${PAGES + 1} pages, one crawl (${s.stored} stored)`));
    if (s.status !== 'running') break;
    await waitForSample(worker, id, s.stored);
  }
  session.close();
  const crawl = await api<CrawlView>(worker, `/v1/crawls/${id}`);
  const { stored, failed, skipped, duplicates, discovered } = crawl.counts;
  const lost = discovered - stored - failed - skipped - duplicates + (PAGES + 1 - stored);
  const twice = await fetchedTwice(sites.siteA, ns);
  const summary = summarize(samples);
  report(summary, twice, lost);
  writeFileSync(
    `${OUT}.json`,
    JSON.stringify({ pages: PAGES + 1, pageKb: PAGE_KB, links: LINKS, summary, twice, lost, samples }),
  );
  writeFileSync(`${OUT}.svg`, plotSvg(samples, `${PAGES + 1} pages, one crawl`));
  console.log(`  wrote ${OUT}.json and ${OUT}.svg`);
} finally {
  await worker.stop();
  await sites.stop();
}
