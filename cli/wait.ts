/** Following a crawl to its end: GET /v1/crawls/:id/stats about once a second, drawn as progress on stderr. */
import { setTimeout as sleep } from 'node:timers/promises';
import { type Client, expectOk } from './client.ts';
import { CliError, TransientError } from './errors.ts';
import { type Progress, progressLine } from './progress.ts';

/** bar: one line redrawn in place (a terminal); lines: a plain line now and then (a log); none: quiet. */
export type ProgressMode = 'bar' | 'lines' | 'none';
export const PROGRESS_MODES = ['bar', 'lines', 'none'] as const;

const POLL_MS = 1000;
const LINE_EVERY_MS = 5000;
const BAR_WIDTH = 24;
/** Polls in a row that may fail (edgecrawl not reached, a 5xx) before the waiting gives up. */
const TRIES = 5;

/** The crawl's progress once it is no longer running. Ctrl-C stops the waiting (exit 130), not the crawl. */
export async function waitForCrawl(
  client: Client,
  id: string,
  mode: ProgressMode,
  {
    out = process.stderr,
    pollMs = POLL_MS,
  }: { out?: Pick<NodeJS.WriteStream, 'write' | 'columns'>; pollMs?: number } = {},
): Promise<Progress> {
  const interrupt = new AbortController();
  const onSigint = () => interrupt.abort();
  process.once('SIGINT', onSigint);
  const draw = drawer(mode, out);
  try {
    for (let failures = 0; ; ) {
      const stats = await poll(client, id, interrupt.signal).catch((error: unknown) => {
        if (error instanceof TransientError && !interrupt.signal.aborted && ++failures < TRIES) return null;
        throw error;
      });
      if (stats !== null) {
        failures = 0;
        draw(stats, stats.status !== 'running');
        if (stats.status !== 'running') return stats;
      }
      await sleep(pollMs, undefined, { signal: interrupt.signal });
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

async function poll(client: Client, id: string, signal: AbortSignal): Promise<Progress> {
  const res = await expectOk(
    client.v1.crawls[':id'].stats.$get({ param: { id }, query: { window: '10' } }, { init: { signal } }),
  );
  const stats = await res.json();
  return {
    status: stats.status,
    counts: stats.counts,
    pending: stats.pending,
    pagesPerSecond: stats.rate.pagesPerSecond,
  };
}

/** Draws one state of progress: in place (bar), as a line at most every 5 s and at the end (lines), or not at all. */
function drawer(
  mode: ProgressMode,
  out: Pick<NodeJS.WriteStream, 'write' | 'columns'>,
): (p: Progress, last: boolean) => void {
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
