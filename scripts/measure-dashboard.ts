/**
 * npm run measure:dashboard -- what the dashboard costs a browser: the bytes of its scripts and styles (as served, and
 * gzipped as Cloudflare would send them), how many files, and the time from navigation to each view shown (the crawl
 * list with 20 crawls; a crawl with its figures and chart), in headless Chromium against `wrangler dev` on loopback,
 * the median of RUNS runs (default 7). The baseline, measured in the same run, is the same index.html loaded with
 * JavaScript off (HTML and CSS only): what a page with no script at all would take here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser, BrowserContextOptions } from 'playwright-core';
import { launchChromium } from '../test/support/chromium.ts';
import { api, crawlToEnd, median, startSites, startWorker, type Worker } from './lib/local.ts';

const RUNS = Number(process.env.RUNS ?? 7);
const publicDir = new URL('../public/', import.meta.url).pathname;

/** The dashboard's own files (not the API reference's): what index.html loads. */
function assets() {
  const files = readdirSync(publicDir).filter((f) => /\.(js|css|html)$/.test(f) && !f.startsWith('reference'));
  const sizes = files.map((f) => {
    const data = readFileSync(join(publicDir, f));
    return { f, raw: data.length, gzip: gzipSync(data, { level: 9 }).length };
  });
  const sum = (key: 'raw' | 'gzip') => sizes.reduce((n, s) => n + s[key], 0);
  return { files: files.length, raw: sum('raw'), gzip: sum('gzip') };
}

/** Milliseconds for the API calls a view makes, made at once from Node: the part of a view's time that is the API's. */
async function timeCalls(worker: Worker, paths: string[]) {
  const start = performance.now();
  await Promise.all(paths.map((path) => api(worker, path)));
  return performance.now() - start;
}

/** Milliseconds from navigation to `ready` resolving, in a fresh logged-in context. */
async function timeView(
  browser: Browser,
  worker: Worker,
  hash: string,
  selector: string,
  options: BrowserContextOptions = {},
) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
  await context.addInitScript(`sessionStorage.setItem('edgecrawl-token', ${JSON.stringify(worker.token)})`);
  const page = await context.newPage();
  await page.goto(`${worker.url}/${hash}`, { waitUntil: 'commit' });
  await page.locator(selector).first().waitFor({ state: 'visible', timeout: 30_000 });
  const ms = await page.evaluate<number>('performance.now()');
  await context.close();
  return ms;
}

async function main() {
  const sites = await startSites(0);
  const worker = await startWorker({ HOST_MIN_INTERVAL_MS: '0', HOST_MAX_CONCURRENCY: '8' });
  const browser = await launchChromium();
  try {
    const ns = `measure${Date.now().toString(36)}`;
    let crawlId = '';
    for (let i = 0; i < 20; i++)
      crawlId = (await crawlToEnd(worker, { seeds: [`${sites.siteA}/t/${ns}${i}/tree-40-d20/`] })).id;
    await api(worker, '/v1/crawls?limit=1'); // warm
    const times = {
      baseline: [] as number[],
      list: [] as number[],
      crawl: [] as number[],
      listApi: [] as number[],
      crawlApi: [] as number[],
    };
    const crawlCalls = ['', '/stats', '/hosts', '/pages?order=recent&limit=10', '/errors?limit=100', '/usage'].map(
      (p) => `/v1/crawls/${crawlId}${p}`,
    );
    for (let run = 0; run < RUNS; run++) {
      times.baseline.push(await timeView(browser, worker, '', 'header.top', { javaScriptEnabled: false }));
      times.list.push(await timeView(browser, worker, '#/', '#crawls table tbody tr'));
      times.crawl.push(await timeView(browser, worker, `#/crawls/${crawlId}`, '#chart figure'));
      times.listApi.push(await timeCalls(worker, ['/v1/crawls?limit=20', '/v1/schedules?limit=100']));
      times.crawlApi.push(await timeCalls(worker, crawlCalls));
    }
    const base = median(times.baseline);
    const line = (name: string, values: number[]) =>
      `| ${name} | ${median(values).toFixed(0)} ms | ${(median(values) / base).toFixed(1)}x |`;
    const a = assets();
    console.log(
      `dashboard files: ${a.files}, ${(a.raw / 1024).toFixed(1)} KiB as served, ${(a.gzip / 1024).toFixed(1)} KiB gzipped`,
    );
    console.log(`median of ${RUNS} runs\n| view | shown after | vs baseline |\n| --- | ---: | ---: |`);
    console.log(line('baseline: index.html, JavaScript off', times.baseline));
    console.log(line('crawl list (20 crawls)', times.list));
    console.log(line('a crawl: figures, tables and chart', times.crawl));
    console.log(line("the list's API calls alone, from Node", times.listApi));
    console.log(line("the crawl view's API calls alone, from Node", times.crawlApi));
  } finally {
    await browser.close();
    await worker.stop();
    await sites.stop();
  }
}

await main();
