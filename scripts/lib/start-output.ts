/**
 * What `npm start` shows of wrangler's output: the migrations step as one line (all of wrangler's output when it
 * fails), and `wrangler dev`'s stderr without its "Scheduled Workers are not automatically triggered" warning,
 * which is not true under `npm start` (scripts/lib/cron-driver.ts fires the cron triggers).
 */

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
