// Crawlee's CheerioCrawler on the bench site, for `npm run bench:peer`. Runs from a temporary folder where
// @crawlee/cheerio is installed (never a dependency of edgecrawl). Prints one JSON line: pages, seconds and failed
// requests.
// argv: seed URL, concurrency; env PERSIST=0 keeps Crawlee's storage in memory, FIXED=1 fixes its concurrency. Every page is parsed (cheerio), its title and URL pushed to the default
// dataset, and its same-hostname links enqueued, as a user of Crawlee would write it.
import { CheerioCrawler, Configuration } from '@crawlee/cheerio';

const [seed, concurrency] = [process.argv[2], Number(process.argv[3] ?? 20)];
const config = new Configuration({ purgeOnStart: true, persistStorage: process.env.PERSIST !== '0', logLevel: 'off' });
let pages = 0;
let failed = 0;
const crawler = new CheerioCrawler(
  {
    // FIXED=1: the same concurrency from the first request; otherwise Crawlee's autoscaling up to it.
    ...(process.env.FIXED === '1' ? { minConcurrency: concurrency } : {}),
    maxConcurrency: concurrency,
    maxRequestRetries: 3,
    requestHandlerTimeoutSecs: 30,
    async requestHandler({ request, $, enqueueLinks, pushData }) {
      pages++;
      await pushData({ url: request.loadedUrl ?? request.url, title: $('title').text() });
      await enqueueLinks({ strategy: 'same-hostname' });
    },
    failedRequestHandler() {
      failed++;
    },
  },
  config,
);
const started = performance.now();
await crawler.run([seed]);
const seconds = (performance.now() - started) / 1000;
const { user, system } = process.cpuUsage();
console.log(JSON.stringify({ pages, seconds, failed, cpuMs: (user + system) / 1000 }));
