/**
 * The docs bench's figures (lib/docs-eval.ts): one row per documentation set and two for all pages (pooled, and the
 * mean of the sets so that no set weighs more for having more pages), and a JSON file of each set's worst pages.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PageScore } from './docs-score.ts';
import { median } from './local.ts';

interface Row {
  name: string;
  pages: number;
  precision: number;
  recall: number;
  f1: number;
  codeVerbatim: number;
  languageKept: number;
  tablesKept: number;
  linksKept: number;
  h1First: number;
  navLeaking: number;
  permalinkSigns: number;
  cpuMedian: number;
  cpuP90: number;
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const sum = (scores: PageScore[], f: (s: PageScore) => number) => scores.reduce((n, s) => n + f(s), 0);
/** A share in %, NaN when nothing was there to keep. */
const pct = (part: number, whole: number) => (whole === 0 ? Number.NaN : (100 * part) / whole);

function rowOf(name: string, scores: PageScore[]): Row {
  const cpu = scores.map((s) => s.cpuMs).sort((a, b) => a - b);
  const titled = scores.filter((s) => s.h1First !== null);
  return {
    name,
    pages: scores.length,
    precision: mean(scores.map((s) => s.precision)),
    recall: mean(scores.map((s) => s.recall)),
    f1: mean(scores.map((s) => s.f1)),
    codeVerbatim: pct(
      sum(scores, (s) => s.codesVerbatim),
      sum(scores, (s) => s.codes),
    ),
    languageKept: pct(
      sum(scores, (s) => s.languagesKept),
      sum(scores, (s) => s.codesWithLanguage),
    ),
    tablesKept: pct(
      sum(scores, (s) => s.tablesKept),
      sum(scores, (s) => s.tables),
    ),
    linksKept: pct(
      sum(scores, (s) => s.linksKept),
      sum(scores, (s) => s.links),
    ),
    h1First: pct(titled.filter((s) => s.h1First).length, titled.length),
    navLeaking: pct(scores.filter((s) => s.navLeaked.length > 0).length, scores.length),
    permalinkSigns: pct(scores.filter((s) => s.permalinkSigns).length, scores.length),
    cpuMedian: cpu.length ? median(cpu) : 0,
    cpuP90: cpu[Math.floor(cpu.length * 0.9)] ?? 0,
  };
}

/** The mean of the sets' rows (each set weighs the same; shares with nothing to keep left out). */
function meanRow(rows: Row[]): Row {
  const avg = (f: (r: Row) => number) => {
    const values = rows.map(f).filter((v) => !Number.isNaN(v));
    return values.length ? mean(values) : Number.NaN;
  };
  return {
    ...(Object.fromEntries(
      Object.keys(rows[0] ?? {}).map((k) => [k, avg((r) => r[k as keyof Row] as number)]),
    ) as unknown as Row),
    name: 'all (mean of sets)',
    pages: rows.reduce((n, r) => n + r.pages, 0),
  };
}

const f3 = (x: number) => x.toFixed(3);
const p1 = (x: number) => (Number.isNaN(x) ? '–' : x.toFixed(1));

export function printSummary(label: string, scores: PageScore[]): void {
  const sets = [...new Set(scores.map((s) => s.set))];
  const rows = sets.map((set) =>
    rowOf(
      set,
      scores.filter((s) => s.set === set),
    ),
  );
  console.log(`\n${label}`);
  console.log(
    '| set | pages | P | R | F1 | code verbatim % | language kept % | tables kept % | links kept % | h1 first % | nav leaking % | permalink signs in headings % | CPU ms median | p90 |',
  );
  console.log(`|${' --- |'.repeat(14)}`);
  for (const r of [...rows, rowOf('all (pages pooled)', scores), meanRow(rows)])
    console.log(
      `| ${r.name} | ${r.pages} | ${f3(r.precision)} | ${f3(r.recall)} | ${f3(r.f1)} | ${p1(r.codeVerbatim)} | ${p1(r.languageKept)} | ${p1(r.tablesKept)} | ${p1(r.linksKept)} | ${p1(r.h1First)} | ${p1(r.navLeaking)} | ${p1(r.permalinkSigns)} | ${r.cpuMedian.toFixed(1)} | ${r.cpuP90.toFixed(1)} |`,
    );
}

/** Each set's worst pages: lowest F1, code missing, tables or links lost, title not the first heading, nav leaked. */
function worstOf(scores: PageScore[]) {
  const page = (s: PageScore) => ({
    url: s.url,
    file: s.file,
    f1: +f3(s.f1),
    precision: +f3(s.precision),
    recall: +f3(s.recall),
  });
  const sets = [...new Set(scores.map((s) => s.set))];
  return Object.fromEntries(
    sets.map((set) => {
      const of = scores.filter((s) => s.set === set);
      return [
        set,
        {
          lowestF1: [...of]
            .sort((a, b) => a.f1 - b.f1)
            .slice(0, 8)
            .map(page),
          missingCode: of
            .filter((s) => s.missingCodes.length > 0)
            .slice(0, 8)
            .map((s) => ({ ...page(s), missing: s.missingCodes.slice(0, 3), of: s.codes })),
          lostTables: of
            .filter((s) => s.lostTables.length > 0)
            .slice(0, 8)
            .map((s) => ({ ...page(s), lost: s.lostTables })),
          lostLinks: of
            .filter((s) => s.lostLinks.length > 0)
            .sort((a, b) => b.lostLinks.length - a.lostLinks.length)
            .slice(0, 8)
            .map((s) => ({ ...page(s), lost: s.lostLinks.slice(0, 10), of: s.links, lostCount: s.lostLinks.length })),
          missingH1: of
            .filter((s) => s.h1First === false)
            .slice(0, 8)
            .map((s) => ({ ...page(s), h1: s.h1, firstHeading: s.firstHeading })),
          navLeaked: of
            .filter((s) => s.navLeaked.length > 0)
            .slice(0, 8)
            .map((s) => ({ ...page(s), leaked: s.navLeaked })),
        },
      ];
    }),
  );
}

/** Writes the worst pages of each Worker to a temporary JSON file; its path. */
export function writeWorst(runs: { label: string; scores: PageScore[] }[]): string {
  const path = join(mkdtempSync(join(tmpdir(), 'edgecrawl-docs-')), 'worst.json');
  writeFileSync(path, JSON.stringify(Object.fromEntries(runs.map((r) => [r.label, worstOf(r.scores)])), null, 2));
  return path;
}
