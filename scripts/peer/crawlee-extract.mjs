// Crawlee doing edgecrawl's extraction job, for `npm run bench:peer` with EXTRACT: JSDOMCrawler (@crawlee/jsdom),
// @mozilla/readability for the main content, turndown with turndown-plugin-gfm for its markdown, and the page's
// metadata read from the document, as a user of Crawlee would write it. Runs from the temporary peer folder where
// these are installed (never dependencies of edgecrawl). Prints one JSON line: pages, seconds, failed.
// argv: seed URL, concurrency; env PERSIST=0 keeps Crawlee's storage in memory, FIXED=1 fixes its concurrency.
import { Configuration, JSDOMCrawler } from '@crawlee/jsdom';
import { Readability } from '@mozilla/readability';
import TurndownService from 'turndown';
import { gfm } from 'turndown-plugin-gfm';

const [seed, concurrency] = [process.argv[2], Number(process.argv[3] ?? 20)];
const config = new Configuration({ purgeOnStart: true, persistStorage: process.env.PERSIST !== '0', logLevel: 'off' });
const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
turndown.use(gfm);
turndown.remove(['script', 'style', 'noscript']);

/** What edgecrawl's metadata format holds: title, description, language, canonical, Open Graph, author, dates. */
function metadata(document, url) {
  const meta = (selector) => document.querySelector(selector)?.getAttribute('content')?.trim() || null;
  const href = (selector) => {
    const value = document.querySelector(selector)?.getAttribute('href');
    try {
      return value ? new URL(value, url).href : null;
    } catch {
      return null;
    }
  };
  return {
    title: meta('meta[property="og:title"]') ?? (document.title.trim() || null),
    description: meta('meta[name="description"]') ?? meta('meta[property="og:description"]'),
    language: document.documentElement.getAttribute('lang') ?? meta('meta[http-equiv="content-language"]'),
    canonical: href('link[rel="canonical"]'),
    image: meta('meta[property="og:image"]'),
    siteName: meta('meta[property="og:site_name"]'),
    type: meta('meta[property="og:type"]'),
    author: meta('meta[name="author"]'),
    publishedTime: meta('meta[property="article:published_time"]'),
    keywords: meta('meta[name="keywords"]'),
    favicon: href('link[rel~="icon"]'),
  };
}

let pages = 0;
let failed = 0;
const crawler = new JSDOMCrawler(
  {
    ...(process.env.FIXED === '1' ? { minConcurrency: concurrency } : {}),
    maxConcurrency: concurrency,
    maxRequestRetries: 3,
    // Pages of megabytes take seconds each in JSDOM and Readability, blocking the event loop for every other request
    // in flight: the default 60 s made a few of them fail; a user would raise it.
    requestHandlerTimeoutSecs: 300,
    async requestHandler({ request, window, enqueueLinks, pushData }) {
      pages++;
      const url = request.loadedUrl ?? request.url;
      const { document } = window;
      // Links and metadata first: Readability changes the document it reads.
      await enqueueLinks({ strategy: 'same-hostname' });
      const meta = metadata(document, url);
      const article = new Readability(document).parse();
      const markdown = turndown.turndown(article?.content ?? document.body?.innerHTML ?? '');
      await pushData({ url, metadata: meta, markdown });
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
