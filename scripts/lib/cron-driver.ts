/**
 * Drives a local Worker's cron triggers the way Cloudflare does in production: `wrangler dev` never fires them by
 * itself, it only serves a route that runs the scheduled handler once. At every minute one of the config's cron
 * expressions matches, this calls that route with the expression and the trigger's scheduled time.
 */
import { readFileSync } from 'node:fs';
import { parseCron } from '../../src/domain/crawl/cron.ts';

/** The route `wrangler dev` (Miniflare) serves to run the scheduled handler: ?cron=...&time=<epoch ms>. */
const SCHEDULED_ROUTE = '/cdn-cgi/local/scheduled';

/** The `crons` of the `[triggers]` table of a wrangler.toml. */
export function cronsOf(toml: string): string[] {
  const table = /^\[triggers\]\s*$([\s\S]*?)(?=^\[|(?![\s\S]))/m.exec(toml)?.[1] ?? '';
  const list = /^\s*crons\s*=\s*\[([^\]]*)\]/m.exec(table)?.[1] ?? '';
  return [...list.matchAll(/"([^"]*)"|'([^']*)'/g)].map((m) => m[1] ?? m[2] ?? '').filter((c) => c.trim() !== '');
}

export interface CronDriver {
  stop(): void;
}

/** Fires each cron of `configPath` against the Worker at `baseUrl` until stopped. */
export function driveCrons(configPath: string, baseUrl: string, log: (line: string) => void = console.log): CronDriver {
  const crons = cronsOf(readFileSync(configPath, 'utf8')).map((expression) => ({
    expression,
    cron: parseCron(expression),
  }));
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  const schedule = () => {
    if (stopped || crons.length === 0) return;
    const now = new Date();
    const next = Math.min(...crons.map(({ cron }) => cron.next(now).getTime()));
    timer = setTimeout(() => void fire(next).finally(schedule), Math.max(0, next - Date.now()));
  };
  const fire = async (at: number) => {
    for (const { expression, cron } of crons) {
      if (cron.next(new Date(at - 60_000)).getTime() !== at) continue;
      const url = `${baseUrl}${SCHEDULED_ROUTE}?cron=${encodeURIComponent(expression)}&time=${at}`;
      try {
        const res = await fetch(url);
        if (!res.ok)
          log(`edgecrawl: cron "${expression}" at ${new Date(at).toISOString()}: ${res.status} ${await res.text()}`);
      } catch (error) {
        log(
          `edgecrawl: cron "${expression}" not delivered (${error instanceof Error ? error.message : String(error)})`,
        );
      }
    }
  };
  if (crons.length > 0)
    log(
      `edgecrawl: npm start fires the cron triggers (${crons.map((c) => c.expression).join(', ')}) on schedule, ` +
        `as deployed (wrangler dev alone does not; --no-crons leaves them to you)`,
    );
  schedule();
  return {
    stop() {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
    },
  };
}
