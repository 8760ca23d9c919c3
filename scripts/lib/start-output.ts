/**
 * What `npm start` shows of wrangler's output: the migrations step as one line (all of wrangler's output when it
 * fails), `wrangler dev`'s stderr without its "Scheduled Workers are not automatically triggered" warning, which is
 * not true under `npm start` (scripts/lib/cron-driver.ts fires the cron triggers), and each thing said once, offline
 * too (quietWranglerEnv).
 */

/**
 * The environment `wrangler dev` runs in under `npm start` and the local scripts: `env` with two of wrangler's and
 * miniflare's variables set, unless `env` sets them itself.
 * - CLOUDFLARE_CF_FETCH_ENABLED=false: each Miniflare that wrangler dev starts (its proxy's and the Worker's) fetches
 *   a sample `Request.cf` object from workers.cloudflare.com, cached 30 days in node_modules/.mf; offline both print
 *   a `getaddrinfo ENOTFOUND` stack trace. The Worker reads no `request.cf`, so miniflare's placeholder does as well.
 * - WRANGLER_REGISTRY_PATH empty: no dev registry. The Worker has queues, so miniflare watches the machine-wide
 *   registry of local Workers, and wrangler prints its bindings table again on each change: once when this Worker
 *   registers itself, and whenever any other `wrangler dev` on the machine starts or stops. edgecrawl binds no other
 *   local Worker, and its queues' consumers are its own.
 */
export function quietWranglerEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const cf = 'CLOUDFLARE_CF_FETCH_ENABLED' in env || 'CLOUDFLARE_CF_FETCH_PATH' in env;
  return {
    ...(cf ? {} : { CLOUDFLARE_CF_FETCH_ENABLED: 'false' }),
    ...('WRANGLER_REGISTRY_PATH' in env ? {} : { WRANGLER_REGISTRY_PATH: '' }),
    ...env,
  };
}

/** `wrangler d1 migrations apply` summed up in one line, or null when it failed (then show all it printed). */
export function migrationsLine(status: number | null, output: string): string | null {
  if (status !== 0) return null;
  if (/No migrations to apply/.test(output)) return 'edgecrawl: local D1: up to date';
  const count = /About to apply (\d+) migration/.exec(output)?.[1];
  return count === undefined
    ? 'edgecrawl: local D1: migrations applied'
    : `edgecrawl: local D1: ${count} migrations applied`;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI color codes are control characters.
const ANSI = /\u001b\[[0-9;]*m/g;
const SCHEDULED_WARNING = /Scheduled Workers are not automatically triggered during local development/;
/** The warning's last line (its link), after which only blank lines still belong to it. */
const SCHEDULED_WARNING_END = /cron-triggers\/#test-cron-triggers-locally/;

/**
 * A line filter that drops wrangler's scheduled-workers warning (its title, its indented notes and the blank lines
 * after it) and passes every other line as it is, colors included. Feed it lines without their newline.
 */
export function scheduledWarningFilter(): (line: string) => boolean {
  let state: 'out' | 'in' | 'trailing' = 'out';
  return (line) => {
    const plain = line.replace(ANSI, '');
    if (state === 'out' && SCHEDULED_WARNING.test(plain)) {
      state = 'in';
      return false;
    }
    if (state === 'in') {
      if (SCHEDULED_WARNING_END.test(plain)) state = 'trailing';
      else if (plain.trim() !== '' && !plain.startsWith(' ')) state = 'out';
      return state === 'out';
    }
    if (state === 'trailing' && plain.trim() === '') return false;
    state = 'out';
    return true;
  };
}
