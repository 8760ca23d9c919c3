/**
 * npm run measure:release -- what a cancelled crawl leaves on its host (issue 31, item 2), under `wrangler dev` with
 * the deployed pace (HOST_MIN_INTERVAL_MS 1000, HOST_MAX_CONCURRENCY 2). Three hosts of their own, one after the
 * other; on each,
 * a crawl of a wide site (flat-150) is cancelled CANCEL_AFTER_MS after it starts, then:
 *   1. GET /hosts of the cancelled crawl: the host's next free slot; a new crawl of another site on the host: when
 *      its first request reaches the server, and when it completes;
 *   2. the cancelled crawl purged, then POST /v1/scrape of the host: its status, and how long it took;
 *   3. a crawl of a closed port of the host (its robots.txt is a request to the host like any other): when it ends.
 * Times are taken at the server (its request log) and counted from the cancel.
 */
import type { HostLogEntry } from '../test/support/host-log.ts';
import { api, type CrawlView, startSites, startWorker, type Worker } from './lib/local.ts';

const CANCEL_AFTER_MS = Number(process.env.CANCEL_AFTER_MS ?? 14_000);
const TIMEOUT_MS = 240_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

async function until<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + TIMEOUT_MS;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

async function hostLog(base: string): Promise<HostLogEntry[]> {
  return ((await (await fetch(`${base}/__hostlog`)).json()) as { entries: HostLogEntry[] }).entries;
}

const create = async (worker: Worker, body: Record<string, unknown>) =>
  (await api<{ id: string }>(worker, '/v1/crawls', { method: 'POST', body: JSON.stringify(body) })).id;

const ended = (worker: Worker, id: string) =>
  until(`crawl ${id} to end`, async () => {
    const crawl = await api<CrawlView>(worker, `/v1/crawls/${id}`);
    return crawl.status === 'running' ? undefined : crawl;
  });

/**
 * A wide crawl of the host, cancelled CANCEL_AFTER_MS after it started; returns it, when it was cancelled, and the
 * host's next free slot then, as GET /hosts of the crawl says.
 */
async function cancelled(worker: Worker, base: string, tag: string): Promise<{ id: string; at: number; next: string }> {
  const id = await create(worker, { seeds: [`${base}/t/${tag}a${Date.now().toString(36)}/flat-150/`] });
  await sleep(CANCEL_AFTER_MS);
  await api(worker, `/v1/crawls/${id}`, { method: 'DELETE' });
  const at = Date.now();
  const { hosts } = await api<{ hosts: { nextSlotInMs: number }[] }>(worker, `/v1/crawls/${id}/hosts`);
  return { id, at, next: `next free slot on /hosts right after the cancel: ${seconds(hosts[0]?.nextSlotInMs ?? NaN)}` };
}

async function nextCrawl(worker: Worker, base: string): Promise<string> {
  const crawl = await cancelled(worker, base, 'next');
  const ns = `nextb${Date.now().toString(36)}`;
  const id = await create(worker, { seeds: [`${base}/t/${ns}/pure-3/`] });
  const first = await until('the new crawl to reach the host', async () =>
    (await hostLog(base)).find((e) => e.path.includes(ns)),
  );
  const done = await ended(worker, id);
  const times = (await hostLog(base)).map((e) => e.at).sort((x, y) => x - y);
  const smallest = Math.min(...times.slice(1).map((t, i) => t - (times[i] as number)));
  return [
    `1. ${crawl.next}`,
    `   a new crawl of another site on the host: first request ${seconds(first.at - crawl.at)} after the cancel,` +
      ` ${done.status} (${done.counts.stored} pages) ${seconds(Date.now() - crawl.at)} after it`,
    `   smallest gap between two requests to the host, both crawls: ${Math.round(smallest)} ms`,
  ].join('\n');
}

async function scrapeAfterPurge(worker: Worker, base: string): Promise<string> {
  const crawl = await cancelled(worker, base, 'purge');
  await api(worker, `/v1/crawls/${crawl.id}?purge=true`, { method: 'DELETE' });
  const started = Date.now();
  const res = await fetch(`${worker.url}/v1/scrape`, {
    method: 'POST',
    headers: { authorization: `Bearer ${worker.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url: `${base}/t/scrape${Date.now().toString(36)}/pure-1/` }),
  });
  const body = (await res.json()) as { error?: { code: string } };
  return `2. ${crawl.next}\n   POST /v1/scrape after the purge: ${res.status}${body.error ? ` ${body.error.code}` : ''} in ${seconds(Date.now() - started)}`;
}

async function closedPort(worker: Worker, base: string): Promise<string> {
  const crawl = await cancelled(worker, base, 'closed');
  const id = await create(worker, { seeds: [`http://${new URL(base).hostname}:1/`] });
  const done = await ended(worker, id);
  return `3. ${crawl.next}\n   a crawl of a closed port of the host: ${done.status} (${done.counts.failed} failed) ${seconds(Date.now() - crawl.at)} after the cancel`;
}

const sites = await startSites(3);
const [a, b, c] = sites.hosts as [string, string, string];
const worker = await startWorker({ HOST_MIN_INTERVAL_MS: '1000', HOST_MAX_CONCURRENCY: '2' });
try {
  console.log(`release: crawls of flat-150 at 1 request/s, cancelled ${seconds(CANCEL_AFTER_MS)} after they started\n`);
  // One after the other: local queues deliver one batch at a time, so crawls at once would hold each other up.
  console.log(await nextCrawl(worker, a));
  console.log(await scrapeAfterPurge(worker, b));
  console.log(await closedPort(worker, c));
} finally {
  await worker.stop();
  await sites.stop();
}
