/**
 * npm run bench:coordinator -- how many pages per second one crawl's Durable Object (CrawlCoordinator, the seen-set)
 * sustains, driven as consumers drive it: batches of BATCH URLs claimed in one call and completed in chunks of 50,
 * each page reporting LINKS links, CONCURRENCY consumers at once. Timed from outside (Node), medians of RUNS crawls
 * of PAGES pages, under `wrangler dev` (one thread for the Worker and the object, SQLite on disk).
 * Env: PAGES (20000), BATCH (100), LINKS (20), CONCURRENCY (8), RUNS (3).
 */

import { fileURLToPath } from 'node:url';
import { median, startBenchWorker } from './lib/local.ts';

const PAGES = Number(process.env.PAGES ?? 20_000);
const BATCH = Number(process.env.BATCH ?? 100);
const LINKS = Number(process.env.LINKS ?? 20);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 8);
const RUNS = Number(process.env.RUNS ?? 3);

const worker = await startBenchWorker(fileURLToPath(new URL('./coordinator-bench/wrangler.toml', import.meta.url)));

async function post<T>(path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${worker.url}${path}`, {
    method: 'POST',
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** One crawl of PAGES pages: consumers take batches from the frontier until it is empty and none is working. */
async function crawl(): Promise<{ seconds: number; completed: number; rowsWrittenPerPage: number; requests: number }> {
  const id = crypto.randomUUID();
  const frontier: string[] = (await post<{ accepted: string[] }>(`/start?crawl=${id}&pages=${PAGES}`)).accepted;
  let completed = 0;
  let working = 0;
  const started = performance.now();
  const consumer = async () => {
    for (;;) {
      const batch = frontier.splice(0, BATCH);
      if (batch.length === 0) {
        if (working === 0) return;
        await new Promise((r) => setTimeout(r, 2));
        continue;
      }
      working++;
      const result = await post<{ accepted: string[]; completed: number }>(`/step?crawl=${id}&links=${LINKS}`, batch);
      working--;
      completed += result.completed;
      frontier.push(...result.accepted);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, consumer));
  const seconds = (performance.now() - started) / 1000;
  const { usage } = (await (await fetch(`${worker.url}/usage?crawl=${id}`)).json()) as {
    usage: { usage: { operations: Record<string, number> } };
  };
  return {
    seconds,
    completed,
    rowsWrittenPerPage: (usage.usage.operations.durableObjectRowsWritten ?? 0) / completed,
    requests: usage.usage.operations.durableObjectRequests ?? 0,
  };
}

try {
  const runs: Awaited<ReturnType<typeof crawl>>[] = [];
  for (let run = 0; run < RUNS; run++) {
    const result = await crawl();
    runs.push(result);
    console.log(
      `run ${run + 1}: ${result.completed} pages in ${result.seconds.toFixed(2)} s, ${(result.completed / result.seconds).toFixed(0)} pages/s, ` +
        `${(result.requests / result.seconds).toFixed(0)} requests/s, ${result.rowsWrittenPerPage.toFixed(2)} rows written/page`,
    );
  }
  const pagesPerSecond = median(runs.map((r) => r.completed / r.seconds));
  console.log(
    `\none crawl's Durable Object, ${PAGES} pages, batches of ${BATCH}, ${LINKS} links/page, ${CONCURRENCY} consumers, median of ${RUNS}:`,
  );
  console.log(
    `  pages/s             ${pagesPerSecond.toFixed(0)} (target >= 5000: ${pagesPerSecond >= 5000 ? 'met' : 'NOT met'})`,
  );
  console.log(`  requests/s          ${median(runs.map((r) => r.requests / r.seconds)).toFixed(0)}`);
  console.log(`  rows written/page   ${median(runs.map((r) => r.rowsWrittenPerPage)).toFixed(2)}`);
} finally {
  worker.stop();
}
