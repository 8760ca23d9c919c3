import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cronsOf } from '../../scripts/lib/cron-driver.ts';
import { migrationsLine, scheduledWarningFilter } from '../../scripts/lib/start-output.ts';

describe('the local cron driver', () => {
  it('reads the crons wrangler.toml declares', () => {
    expect(cronsOf(readFileSync(new URL('../../wrangler.toml', import.meta.url), 'utf8'))).toEqual(['* * * * *']);
  });

  it('reads only the [triggers] table, with any quoting and several crons', () => {
    const toml = `crons = ["0 0 * * *"]\n[vars]\nX = "1"\n\n[triggers]\ncrons = [ "*/5 * * * *", '0 3 * * 1' ]\n\n[observability]\nenabled = true\n`;
    expect(cronsOf(toml)).toEqual(['*/5 * * * *', '0 3 * * 1']);
    expect(cronsOf('[vars]\nA = "b"\n')).toEqual([]);
  });
});

describe("npm start's output", () => {
  // What wrangler 4 prints (colors and all) for the warning npm start drops, between lines it keeps.
  const warning = [
    '\u001b[33m▲ \u001b[43;33m[\u001b[43;30mWARNING\u001b[43;33m]\u001b[0m \u001b[1mScheduled Workers are not automatically triggered during local development.\u001b[0m',
    '',
    '  To manually trigger a scheduled event, run:',
    '    curl "http://localhost:8787/cdn-cgi/local/scheduled"',
    '  For more details, see \u001b[4mhttps://developers.cloudflare.com/workers/configuration/cron-triggers/#test-cron-triggers-locally\u001b[0m',
    '',
    '',
  ];

  it("drops wrangler's scheduled-workers warning and nothing else", () => {
    const keep = scheduledWarningFilter();
    const lines = ['before', ...warning, '\u001b[31m✘ [ERROR]\u001b[0m something failed', '    at frame', '', 'after'];
    expect(lines.filter(keep)).toEqual([
      'before',
      '\u001b[31m✘ [ERROR]\u001b[0m something failed',
      '    at frame',
      '',
      'after',
    ]);
  });

  it('keeps what follows a warning cut short', () => {
    const keep = scheduledWarningFilter();
    expect([warning[0] as string, '', 'Error: boom', '  at x'].filter(keep)).toEqual(['Error: boom', '  at x']);
  });

  it('sums the migrations up in one line, and in none when they failed', () => {
    expect(migrationsLine(0, 'Migrations to be applied:\n┌──┐\n? About to apply 8 migration(s)\n┌──┐')).toBe(
      'edgecrawl: local D1: 8 migrations applied',
    );
    expect(migrationsLine(0, '✅ No migrations to apply!')).toBe('edgecrawl: local D1: up to date');
    expect(migrationsLine(1, '✘ [ERROR] ENOTDIR')).toBeNull();
    expect(migrationsLine(null, '')).toBeNull();
  });
});
