/**
 * npm run bench:map -- POST /v1/map on a site whose robots.txt names one gzipped sitemap of N URLs (the test site's
 * atlas-<N> variant), under `wrangler dev`, timed from outside (Node). Baseline, in the same run: Node alone
 * downloading that sitemap from the same site, gunzipping it and reading its <loc>s with a regular expression (the
 * floor: the bytes have to come and be read). Also timed: the same map ranked by `search`, and with a `limit` of 100
 * (reading stops once enough URLs are found).
 * Env: N (50000), RUNS (5).
 */
import { gunzipSync } from 'node:zlib';
import { api, median, startSites, startWorker } from './lib/local.ts';

const N = Number(process.env.N ?? 50_000);
const RUNS = Number(process.env.RUNS ?? 5);

interface MapAnswer {
  total: number;
  truncated: boolean;
  urls: { url: string }[];
}

const sites = await startSites(0);
const worker = await startWorker({ HOST_MIN_INTERVAL_MS: '0', HOST_MAX_CONCURRENCY: '1000' });

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; result: T }> {
  const started = performance.now();
  const result = await work();
  return { ms: performance.now() - started, result };
}

async function baseline(sitemap: string): Promise<number> {
  const res = await fetch(sitemap);
  const xml = gunzipSync(new Uint8Array(await res.arrayBuffer())).toString('utf8');
  return [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].length;
}

try {
  const start = `${sites.siteA}/t/bench${Date.now()}/atlas-${N}/`;
  await fetch(`${sites.siteA}/__robots`, { method: 'PUT', body: `User-agent: *\nSitemap: ${start}big.xml.gz\n` });
  const size = (await (await fetch(`${start}big.xml.gz`)).arrayBuffer()).byteLength; // built once, before the clock
  const map = (body: Record<string, unknown>) =>
    api<MapAnswer>(worker, '/v1/map', { method: 'POST', body: JSON.stringify({ url: start, ...body }) });
  await map({ limit: 10 }); // robots.txt read and cached, the isolate warm
  const rows: Record<string, number[]> = { baseline: [], map: [], search: [], limit100: [] };
  for (let run = 0; run < RUNS; run++) {
    const base = await timed(() => baseline(`${start}big.xml.gz`));
    const all = await timed(() => map({ limit: 100_000 }));
    const searched = await timed(() => map({ limit: 100_000, search: 'pricing plans' }));
    const few = await timed(() => map({ limit: 100 }));
    if (base.result !== N || all.result.total < N)
      throw new Error(`expected ${N} URLs: ${base.result}, ${all.result.total}`);
    rows.baseline?.push(base.ms);
    rows.map?.push(all.ms);
    rows.search?.push(searched.ms);
    rows.limit100?.push(few.ms);
    console.log(
      `run ${run + 1}: baseline ${base.ms.toFixed(0)} ms, map ${all.ms.toFixed(0)} ms (${all.result.total} URLs), search ${searched.ms.toFixed(0)} ms, limit 100 ${few.ms.toFixed(0)} ms`,
    );
  }
  const base = median(rows.baseline ?? []);
  console.log(
    `\nPOST /v1/map, one gzipped sitemap of ${N} URLs (${(size / 1e6).toFixed(1)} MB gzipped), median of ${RUNS}:`,
  );
  for (const [name, values] of Object.entries(rows)) {
    const ms = median(values);
    console.log(`  ${name.padEnd(9)} ${ms.toFixed(0).padStart(6)} ms  (${(ms / base).toFixed(1)}x baseline)`);
  }
} finally {
  await worker.stop();
  await sites.stop();
}
