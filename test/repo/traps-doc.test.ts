/** docs/crawling.md's "Traps" says what the code does: its lists and figures are the code's constants. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_PAGES } from '../../src/domain/crawl/settings.ts';
import { DEEP_FLOOR, DEEP_MARGIN } from '../../src/domain/traps/paths.ts';
import { PARAM_SAME, PATTERN_SIMILAR, PATTERN_WINDOW } from '../../src/domain/traps/patterns.ts';
import { TRAP_RULES } from '../../src/domain/traps/rules.ts';
import { PARAM_PREFIXES, SESSION_PARAMS, TRACKING_PARAMS } from '../../src/domain/url/session-params.ts';

const doc = readFileSync(new URL('../../docs/crawling.md', import.meta.url), 'utf8');
const section = doc.slice(doc.indexOf('## Traps'), doc.indexOf('## Duplicates'));
const row = (rule: string) => section.split('\n').find((line) => line.startsWith(`| \`${rule}\` |`)) ?? '';

describe('docs/crawling.md, "Traps"', () => {
  it('has a row for every rule, and no other', () => {
    const rows = section.split('\n').filter((line) => /^\| `[a-zA-Z0-9]+` \|/.test(line));
    expect(rows.map((line) => /^\| `([a-zA-Z0-9]+)`/.exec(line)?.[1])).toEqual([
      'sessionParams',
      'repeatedSegments',
      'deepPaths',
      'pathEchoes',
      'urlPatterns',
      'soft404',
    ]);
    expect(new Set(rows.map((line) => /^\| `([a-zA-Z0-9]+)`/.exec(line)?.[1]))).toEqual(new Set(TRAP_RULES));
  });

  it('lists every parameter stripped, and gives the figures the rules use', () => {
    for (const name of [...SESSION_PARAMS, ...TRACKING_PARAMS, ...PARAM_PREFIXES])
      expect(row('sessionParams'), name).toContain(`\`${name}\``);
    expect(row('deepPaths')).toContain(`max(${DEEP_FLOOR},`);
    expect(row('deepPaths')).toContain(`+ ${DEEP_MARGIN})`);
    expect(row('urlPatterns')).toContain(`when ${PATTERN_SIMILAR} of the group's last ${PATTERN_WINDOW} pages`);
    expect(row('urlPatterns')).toContain(`that ${PARAM_SAME} pairs of pages`);
    expect(section).toContain(`at most ${DEFAULT_MAX_PAGES.toLocaleString('en-US')} URLs`);
  });
});
