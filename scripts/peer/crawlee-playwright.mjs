// Crawlee's PlaywrightCrawler or AdaptivePlaywrightCrawler on the mixed site of `npm run bench:render`. Runs from a
// temporary folder where @crawlee/playwright and playwright-core are installed (never dependencies of edgecrawl).
// argv: playwright|adaptive, seed URL, concurrency, output file (JSON: pages, seconds, renders, browser open and busy
// seconds, each page's URL and text). Env: FIXED=1 fixes the concurrency (minConcurrency = maxConcurrency);
// CHROMIUM_PATH and CHROMIUM_ARGS (a JSON array): the browser, from @sparticuz/chromium; DETECTION_RATIO: the
// adaptive crawler's renderingTypeDetectionRatio (its default, 0.1, unless set).
// Each page: wait for its text (client-rendered pages write it after their script runs), push its URL and the text
// of <main> to the default dataset, enqueue its same-hostname links, as a user of Crawlee would write it.
import { writeFileSync } from 'node:fs';
import { AdaptivePlaywrightCrawler, Configuration, PlaywrightCrawler } from '@crawlee/playwright';
import { chromium } from 'playwright-core';

const [kind, seed, concurrency, out] = [
  process.argv[2],
  process.argv[3],
  Number(process.argv[4] ?? 8),
  process.argv[5],
];
const config = new Configuration({ purgeOnStart: true, persistStorage: false, logLevel: 'off' });
const CONTENT = 'main p.text';

const common = {
  ...(process.env.FIXED === '1' ? { minConcurrency: concurrency } : {}),
  maxConcurrency: concurrency,
  maxRequestRetries: 3,
  launchContext: {
    launcher: chromium,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH,
      args: JSON.parse(process.env.CHROMIUM_ARGS ?? '[]'),
      headless: true,
    },
  },
  // Fingerprints change nothing on this site and cost time on every page: off, to give Crawlee its best chance.
  browserPoolOptions: { useFingerprints: false },
};

const crawler =
  kind === 'adaptive'
    ? new AdaptivePlaywrightCrawler(
        {
          ...common,
          renderingTypeDetectionRatio: Number(process.env.DETECTION_RATIO ?? 0.1),
          // parseWithCheerio(selector) throws in plain HTTP when the selector is not in the HTML (a client-rendered
          // page's empty root): the crawler then renders the page. In a browser it waits for the selector.
          async requestHandler({ request, parseWithCheerio, enqueueLinks, pushData }) {
            const $ = await parseWithCheerio(CONTENT);
            await pushData({ url: request.url, text: $('main').text() });
            await enqueueLinks({ strategy: 'same-hostname' });
          },
        },
        config,
      )
    : new PlaywrightCrawler(
        {
          ...common,
          async requestHandler({ request, page, enqueueLinks, pushData }) {
            await page.waitForSelector(CONTENT);
            await pushData({ url: request.url, text: (await page.textContent('main')) ?? '' });
            await enqueueLinks({ strategy: 'same-hostname' });
          },
        },
        config,
      );

/**
 * Seconds the browsers were open (from when each is up to its close), and seconds the browsers were busy: at least
 * one page open (from the pool's pageCreated to its pageClosed), as edgecrawl counts its browser time.
 */
const open = { browser: 0, busy: 0 };
const browsers = new Map();
crawler.browserPool.on('browserLaunched', (controller) => {
  browsers.set(controller, performance.now());
  // A retired browser can be closed twice (retired, then again when the pool is destroyed): the first counts.
  controller.on('browserClosed', () => {
    if (browsers.has(controller)) open.browser += (performance.now() - browsers.get(controller)) / 1000;
    browsers.delete(controller);
  });
});
const pages = new Set();
let busySince = 0;
crawler.browserPool.on('pageCreated', (page) => {
  if (pages.size === 0) busySince = performance.now();
  pages.add(page);
});
crawler.browserPool.on('pageClosed', (page) => {
  if (!pages.delete(page)) return;
  if (pages.size === 0) open.busy += (performance.now() - busySince) / 1000;
});

const started = performance.now();
await crawler.run([seed]);
const ended = performance.now();
const seconds = (ended - started) / 1000;
// Browsers the pool had not closed by the end count until then.
for (const launched of browsers.values()) open.browser += (ended - launched) / 1000;
const { items } = await crawler.getData();
const state = crawler.stats.state;
const renders = kind === 'adaptive' ? (state.browserRequestHandlerRuns ?? 0) : items.length;
writeFileSync(
  out,
  JSON.stringify({
    pages: items.length,
    seconds,
    renders,
    httpOnly: state.httpOnlyRequestHandlerRuns ?? 0,
    mispredictions: state.renderingTypeMispredictions ?? 0,
    browserSeconds: open.browser,
    busySeconds: open.busy,
    items,
  }),
);
