/**
 * npm run bench:parse -- link discovery on the crawl's hot path: linkedom (DOM) against Workers' native
 * HTMLRewriter, both inside workerd (`wrangler dev`), on bench pages of several sizes. Timed from outside the
 * Worker (its clocks stand still during CPU work): each request parses one page N times; medians of RUNS.
 * VARIANTS=1 also times HTMLRewriter with one handler (rewriter-min) and with none matching (rewriter-none),
 * which separates its native parse from the cost of each call into JavaScript.
 */
import { benchPage } from '../test/support/site.ts';
import { median, startBenchWorker } from './lib/local.ts';

const N = Number(process.env.N ?? 200);
const RUNS = Number(process.env.RUNS ?? 7);
const root = new URL('../', import.meta.url).pathname;

const worker = await startBenchWorker(`${root}scripts/parse/wrangler.toml`);
try {
  console.log(`link discovery inside workerd, ${N} parses per request, median of ${RUNS} (ms per page):`);
  console.log('page                      linkedom   HTMLRewriter   speed-up');
  for (const [kb, links] of [
    [10, 20],
    [40, 20],
    [40, 200],
    [200, 500],
  ] as const) {
    const html = benchPage(10_000, kb, links, 7);
    const time = async (parser: string) => {
      const runs: number[] = [];
      for (let r = 0; r < RUNS; r++) {
        const started = performance.now();
        const res = await fetch(`${worker.url}/?parser=${parser}&n=${N}`, { method: 'POST', body: html });
        const { links: found } = (await res.json()) as { links: number };
        if (found < N) throw new Error(`${parser} found ${found} links`);
        runs.push((performance.now() - started) / N);
      }
      return median(runs);
    };
    await time('linkedom'); // warm up both
    await time('rewriter');
    const [dom, rewriter] = [await time('linkedom'), await time('rewriter')];
    if (process.env.VARIANTS)
      console.log('  min', (await time('rewriter-min')).toFixed(3), 'none', (await time('rewriter-none')).toFixed(3));
    const label = `${(html.length / 1024).toFixed(0)} KB, ${links} links`;
    console.log(
      `${label.padEnd(24)}  ${dom.toFixed(3).padStart(8)}   ${rewriter.toFixed(3).padStart(12)}   ${(dom / rewriter).toFixed(1).padStart(7)}x`,
    );
  }
} finally {
  worker.stop();
}
