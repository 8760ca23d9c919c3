/** Following a crawl to its end: GET /v1/crawls/:id/stats about once a second, drawn as progress on stderr. */
import { setTimeout as sleep } from 'node:timers/promises';
import { type Client, expectOk } from './client.ts';
import { CliError } from './errors.ts';
import { type Progress, progressLine } from './progress.ts';

/** bar: one line redrawn in place (a terminal); lines: a plain line now and then (a log); none: quiet. */
export type ProgressMode = 'bar' | 'lines' | 'none';
export const PROGRESS_MODES = ['bar', 'lines', 'none'] as const;

const POLL_MS = 1000;
const LINE_EVERY_MS = 5000;
const BAR_WIDTH = 24;

/** The crawl's progress once it is no longer running. Ctrl-C stops the waiting (exit 130), not the crawl. */
export async function waitForCrawl(
  client: Client,
  id: string,
  mode: ProgressMode,
  out: NodeJS.WriteStream = process.stderr,
): Promise<Progress> {
  const interrupt = new AbortController();
  const onSigint = () => interrupt.abort();
  process.once('SIGINT', onSigint);
  const draw = drawer(mode, out);
  try {
    for (;;) {
      const res = await expectOk(
        client.v1.crawls[':id'].stats.$get(
          { param: { id }, query: { window: '10' } },
          { init: { signal: interrupt.signal } },
        ),
      );
      const stats = await res.json();
      const progress: Progress = {
        status: stats.status,
        counts: stats.counts,
        pending: stats.pending,
        pagesPerSecond: stats.rate.pagesPerSecond,
      };
      draw(progress, stats.status !== 'running');
      if (stats.status !== 'running') return progress;
      await sleep(POLL_MS, undefined, { signal: interrupt.signal });
    }
  } catch (error) {
    if (!interrupt.signal.aborted) throw error;
    if (mode === 'bar') out.write('\n');
    throw new CliError(
      `stopped waiting: crawl ${id} goes on; follow it with \`npx edgecrawl status ${id}\`, stop it with \`npx edgecrawl cancel ${id}\``,
      130,
    );
  } finally {
    process.off('SIGINT', onSigint);
  }
}

/** Draws one state of progress: in place (bar), as a line at most every 5 s and at the end (lines), or not at all. */
function drawer(mode: ProgressMode, out: NodeJS.WriteStream): (p: Progress, last: boolean) => void {
  let lastLineAt = 0;
  return (progress, last) => {
    if (mode === 'bar') {
      const line = progressLine(progress, BAR_WIDTH);
      const columns = out.columns > 0 ? out.columns - 1 : line.length;
      out.write(`\r${line.slice(0, columns)}\x1b[K${last ? '\n' : ''}`);
    } else if (mode === 'lines' && (last || Date.now() - lastLineAt >= LINE_EVERY_MS)) {
      lastLineAt = Date.now();
      out.write(`${progressLine(progress, 0)}\n`);
    }
  };
}
