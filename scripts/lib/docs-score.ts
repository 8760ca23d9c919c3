/**
 * One extraction of a documentation page scored against its truth (lib/docs-page.ts): token F1 of the text, code
 * blocks found verbatim in a fence (and with their language on it), tables kept as GFM tables of the same shape, the
 * title as the first heading, navigation texts leaked, permalink signs left in headings.
 */
import type { DocsCode, DocsPage, DocsTable } from './docs-page.ts';
import { type Fence, markdownParts } from './markdown-parts.ts';
import { tokenF1 } from './token-f1.ts';

export interface Extraction {
  markdown: string;
  text: string;
}

export interface PageScore {
  set: string;
  url: string;
  file: string;
  precision: number;
  recall: number;
  f1: number;
  codes: number;
  codesVerbatim: number;
  /** Code blocks that declare a language, and those whose fence carries it. */
  codesWithLanguage: number;
  languagesKept: number;
  tables: number;
  tablesKept: number;
  /** null when the page has no title heading. */
  h1First: boolean | null;
  h1: string | null;
  firstHeading: string | null;
  /** The main block's link texts, and those found in the extraction's text. */
  links: number;
  linksKept: number;
  lostLinks: string[];
  navLeaked: string[];
  permalinkSigns: boolean;
  missingCodes: string[];
  lostTables: DocsTable[];
  cpuMs: number;
}

/** Permalink signs: pilcrow, section sign, link emoji, icon-font glyphs (private use: sphinx_rtd_theme's U+F0C1). */
const PERMALINK = /[¶§🔗\u{E000}-\u{F8FF}]|\[#\]\([^)]*\)/gu;

/** Code as compared: lines right-trimmed, blank lines at either end dropped. */
const codeNorm = (code: string) =>
  code
    .split('\n')
    .map((l) => l.replace(/\u00a0/g, ' ').replace(/\s+$/, ''))
    .join('\n')
    .replace(/^\n+|\n+$/g, '');

/** A heading as compared: Markdown links, code marks, emphasis, escapes and permalink signs removed. */
const headingNorm = (text: string) =>
  text
    .replace(PERMALINK, '')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\\([\\`*_{}[\]()#+\-.!|<>~])/g, '$1')
    .replace(/[`*_]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();

const oneLine = (text: string) => text.replace(/\s+/g, ' ').toLowerCase();

function codeScore(codes: DocsCode[], fences: Fence[]) {
  const contents = fences.map((f) => ({ info: f.info.toLowerCase(), content: codeNorm(f.content) }));
  let verbatim = 0;
  let withLanguage = 0;
  let kept = 0;
  const missing: string[] = [];
  for (const code of codes) {
    const want = codeNorm(code.text);
    const fence = contents.find((f) => f.content.includes(want));
    if (fence) verbatim++;
    else missing.push(want.split('\n').slice(0, 3).join('\n').slice(0, 160));
    if (code.language === null) continue;
    withLanguage++;
    if (fence?.info === code.language.toLowerCase()) kept++;
  }
  return { verbatim, withLanguage, kept, missing };
}

function tableScore(tables: DocsTable[], found: DocsTable[]) {
  const unused = [...found];
  const lost: DocsTable[] = [];
  for (const table of tables) {
    const i = unused.findIndex((t) => t.rows === table.rows && t.cols === table.cols);
    if (i >= 0) unused.splice(i, 1);
    else lost.push(table);
  }
  return lost;
}

export function scorePage(page: DocsPage, got: Extraction, cpuMs: number): PageScore {
  const parts = markdownParts(got.markdown);
  const code = codeScore(page.codes, parts.fences);
  const lostTables = tableScore(page.tables, parts.tables);
  const firstHeading = parts.headings[0] ?? null;
  const text = oneLine(got.text);
  const lostLinks = page.links.filter((link) => !text.includes(oneLine(link)));
  return {
    set: page.set,
    url: page.url,
    file: page.file,
    ...tokenF1(got.text, page.text),
    codes: page.codes.length,
    codesVerbatim: code.verbatim,
    codesWithLanguage: code.withLanguage,
    languagesKept: code.kept,
    tables: page.tables.length,
    tablesKept: page.tables.length - lostTables.length,
    h1First: page.h1 === null ? null : firstHeading !== null && headingNorm(firstHeading) === headingNorm(page.h1),
    h1: page.h1,
    firstHeading,
    links: page.links.length,
    linksKept: page.links.length - lostLinks.length,
    lostLinks,
    navLeaked: page.navTexts.filter((t) => text.includes(oneLine(t))),
    permalinkSigns: parts.headings.some((h) => /[¶§\u{E000}-\u{F8FF}]/u.test(h)),
    missingCodes: code.missing,
    lostTables,
    cpuMs,
  };
}
