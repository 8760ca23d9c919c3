import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cronsOf } from '../../scripts/lib/cron-driver.ts';

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
