/**
 * npm run measure:render-need -- how many real, server-rendered pages the `render: "auto"` decision
 * (src/domain/render/need.ts) would send to a browser: its false positives. Runs on the corpora beside the project
 * (../shared/corpora; skipped with a message when absent): Readability's test pages and trafilatura's evaluation set.
 * Each page is decoded and extracted as a crawl does (extractPage, main content detected), then decided with the
 * extraction's word count; every page sent to the browser is listed with its reason and what the scan saw, for
 * inspection. Also times the decision per page (median µs, in Node) against extraction.
 * Every page is also decided on its HTML alone (as for a crawl that does not extract), and the pages whose text is
 * shortest are listed: how close real pages come to the line. CORPUS=readability|trafilatura runs one corpus only;
 * CLOSEST=n lists n of the closest (default 5).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { register } from 'node:module';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { median } from './lib/local.ts';

// src/ imports without extensions, as the bundler resolves them; Node needs `.ts` added.
const HOOK = `export async function resolve(specifier, context, next) {
  try { return await next(specifier, context); } catch (error) {
    if (/^\\.\\.?\\//.test(specifier) && !/\\.[cm]?[jt]s$/.test(specifier)) return next(specifier + '.ts', context);
    throw error;
  }
}`;
register(`data:text/javascript,${encodeURIComponent(HOOK)}`);
const { decodeHtml } = await import('../src/domain/html/charset.ts');
const { extractPage } = await import('../src/domain/extract/index.ts');
const { CONTENT_WORDS, decideRender, renderNeed, shellFacts } = await import('../src/domain/render/need.ts');

const root = new URL('../', import.meta.url).pathname;
const corpora = join(root, '../shared/corpora');
if (!existsSync(corpora)) {
  console.log(`measure:render-need: no corpora at ${corpora} (beside the project, in ../shared); nothing to measure.`);
  process.exit(0);
}

interface Page {
  name: string;
  url: string;
  bytes: () => Uint8Array;
}

function readabilityPages(): Page[] {
  const dir = join(corpora, 'readability-test-pages');
  return readdirSync(dir)
    .filter((name) => existsSync(join(dir, name, 'source.html')))
    .map((name) => ({
      name,
      url: 'http://fakehost/test/page.html',
      bytes: () => readFileSync(join(dir, name, 'source.html')),
    }));
}

function trafilaturaPages(): Page[] {
  const dir = join(corpora, 'trafilatura-eval');
  const data = JSON.parse(readFileSync(join(dir, 'evaldata.json'), 'utf8')) as Record<string, { file: string }>;
  return Object.entries(data).map(([url, { file }]) => ({
    name: file,
    url,
    bytes: () => gunzipSync(readFileSync(join(dir, 'html', `${file}.gz`))),
  }));
}

const SPEC = { formats: ['text' as const], mainContent: true, include: [], exclude: [], fields: {} };

/** CPU microseconds (user and system) per call of `fn`: calls in rounds of 10 until the process's clock reads 2 ms. */
function micros(fn: () => unknown): number {
  let calls = 0;
  const started = process.cpuUsage();
  let used = 0;
  do {
    for (let i = 0; i < 10; i++) fn();
    calls += 10;
    const { user, system } = process.cpuUsage(started);
    used = user + system;
  } while (used < 2000);
  return used / calls;
}

interface Tally {
  sent: string[];
  scanned: string[];
  signals: { noscript: number; appRoot: number; data: number };
  /** Pages whose word count was too short to decide: read by the scan. */
  few: number;
  closest: { chars: number; line: string }[];
  cost: { extract: number[]; decide: number[]; html: number[]; facts: number[] };
}

/** One page: extracted, decided, and what its HTML would have said on its own. */
async function measurePage(page: Page, tally: Tally): Promise<void> {
  const bytes = page.bytes();
  const { text: html } = decodeHtml(bytes, 'text/html');
  const started = process.cpuUsage();
  const extracted = await extractPage(bytes, 'text/html', page.url, SPEC);
  const { user, system } = process.cpuUsage(started);
  tally.cost.extract.push(user + system);
  const input = { html, contentWords: extracted.record.wordCount };
  tally.cost.decide.push(micros(() => renderNeed(input)));
  tally.cost.html.push(micros(() => renderNeed({ html })));
  tally.cost.facts.push(micros(() => shellFacts(html)));
  const facts = shellFacts(html);
  const line = `${page.name}  words ${input.contentWords}  ${JSON.stringify(facts)}  ${page.url}`;
  const need = renderNeed(input);
  if (need.render) tally.sent.push(`  ${need.reason.padEnd(22)} ${line}`);
  const scan = decideRender(facts);
  if (scan.render && !need.render) tally.scanned.push(`  ${scan.reason.padEnd(22)} ${line}`);
  if (input.contentWords < CONTENT_WORDS) tally.few++;
  if (facts.noscriptAsksForJs) tally.signals.noscript++;
  if (facts.appRoot) tally.signals.appRoot++;
  if (facts.dataBytes >= 1024) tally.signals.data++;
  if (facts.scripts > 0) tally.closest.push({ chars: facts.visibleChars, line });
}

async function measure(label: string, pages: Page[]): Promise<void> {
  const tally: Tally = {
    sent: [],
    scanned: [],
    signals: { noscript: 0, appRoot: 0, data: 0 },
    few: 0,
    closest: [],
    cost: { extract: [], decide: [], html: [], facts: [] },
  };
  for (const page of pages) await measurePage(page, tally);
  console.log(
    `\n${label}: ${pages.length} pages, ${tally.sent.length} sent to the browser ` +
      `(${tally.few} under ${CONTENT_WORDS} words of main content, decided by the scan)`,
  );
  for (const line of tally.sent) console.log(line);
  console.log(`  the HTML alone (no word count) would also send ${tally.scanned.length}`);
  for (const line of tally.scanned) console.log(line);
  const { noscript, appRoot, data } = tally.signals;
  console.log(
    `  signals on these pages, all outweighed by their text: a noscript naming JavaScript ${noscript}, ` +
      `an app root ${appRoot}, 1 KiB or more of inline state, JSON or templates ${data}`,
  );
  console.log('  fewest visible characters among pages that run scripts:');
  for (const { line } of tally.closest.sort((a, b) => a.chars - b.chars).slice(0, Number(process.env.CLOSEST ?? 5)))
    console.log(`    ${line}`);
  const us = (xs: number[], digits = 1) => `${median(xs).toFixed(digits)} µs`;
  const p99 = (xs: number[]) => `${([...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.99)] ?? 0).toFixed(0)} µs`;
  const { extract, decide, html, facts } = tally.cost;
  console.log(
    `  CPU per page, median: extraction ${us(extract)}; decision ${us(decide, 2)} with the word count, ` +
      `${us(html)} on the HTML alone (p99 ${p99(html)}), ${us(facts)} reading every fact (shellFacts)`,
  );
}

/** The decision's cost on the shells of test/fixtures/render: pages it reads to the end, and decides to render. */
function measureShells(): void {
  const dir = join(root, 'test/fixtures/render');
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { file: string; render: boolean }[];
  const shells = manifest.filter((entry) => entry.render).map((entry) => readFileSync(join(dir, entry.file), 'utf8'));
  const decide = (html: string) => micros(() => renderNeed({ html, contentWords: 0 }));
  shells.forEach(decide); // a warm-up: V8 compiles a regular expression to native code after its first runs
  const cost = shells.map(decide);
  console.log(
    `\nthe ${shells.length} shells of test/fixtures/render: decision CPU per page, median ${median(cost).toFixed(1)} µs, ` +
      `at most ${Math.max(...cost).toFixed(1)} µs`,
  );
}

const only = process.env.CORPUS;
if (!only || only === 'readability') await measure('readability-test-pages', readabilityPages());
if (!only || only === 'trafilatura') await measure('trafilatura-eval', trafilaturaPages());
measureShells();
