/**
 * npm run measure:hostile -- the CPU each hostile page (test/support/hostile-pages.ts) costs extraction in Node, per
 * step: decode, parse, the reads of readDocument (JSON-LD, metadata, fields, links, images), selectContent, markdown, text
 * and html, then extractPage as a whole. Each page runs in a child process of its own, killed after TIMEOUT seconds
 * of wall time (default 30): a page that stalls shows the step it stalled in. ONLY=name,... measures some pages.
 * CPU is process.cpuUsage() (user + system) around each step.
 */
import { spawn } from 'node:child_process';
import { register } from 'node:module';
import { createInterface } from 'node:readline';
import { HOSTILE_PAGES } from '../test/support/hostile-pages.ts';

const STEPS = [
  'decode',
  'parse',
  'jsonLd',
  'metadata',
  'fields',
  'links',
  'images',
  'content',
  'markdown',
  'text',
  'html',
];
const URL_ = 'https://hostile.example/page.html';
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/** In the child: one page, each step timed, one line per step as it ends (so a stall shows where). */
async function measurePage(name: string): Promise<void> {
  register('./lib/ts-resolve.mjs', import.meta.url);
  const { decodeHtml } = await import('../src/domain/html/charset.ts');
  const { parseBounded, baseUrlOf } = await import('../src/domain/extract/dom.ts');
  const { readJsonLd, linkedFacts } = await import('../src/domain/extract/json-ld.ts');
  const { readMetadata } = await import('../src/domain/extract/metadata.ts');
  const { readFields, readImages } = await import('../src/domain/extract/fields.ts');
  const { readPage } = await import('../src/domain/html/page.ts');
  const { selectContent, cleanHtml } = await import('../src/domain/extract/content.ts');
  const { toMarkdown } = await import('../src/domain/extract/markdown.ts');
  const { extractPage } = await import('../src/domain/extract/index.ts');
  const hostile = HOSTILE_PAGES.find((p) => p.name === name);
  if (!hostile) throw new Error(`no page ${name}`);
  const body = hostile.body();
  const step = <T>(label: string, run: () => T): T => {
    const start = cpuMs();
    const value = run();
    console.log(JSON.stringify({ step: label, ms: cpuMs() - start }));
    return value;
  };
  const spec = {
    formats: ['markdown', 'text', 'html', 'metadata', 'jsonLd', 'links', 'images'] as const,
    mainContent: true,
    include: [],
    exclude: [],
    fields: { heading: { selector: 'h1' }, cells: { selector: 'td', list: true } },
  };
  const warnings: string[] = [];
  const { text: html } = step('decode', () => decodeHtml(body, 'text/html; charset=utf-8'));
  if (body.byteLength <= 4 * 1024 * 1024) {
    const { document } = step('parse', () => parseBounded(html, warnings));
    const base = baseUrlOf(document, URL_);
    const jsonLd = step('jsonLd', () => readJsonLd(document, warnings));
    step('metadata', () => readMetadata(document, base, linkedFacts(jsonLd)));
    step('fields', () => readFields(document.documentElement, spec.fields, { baseUrl: base, errors: {} }));
    step('links', () => readPage(document, URL_));
    step('images', () => readImages(document.documentElement, base));
    const { root } = step('content', () => selectContent(document, { ...spec, formats: [...spec.formats] }, warnings));
    step('markdown', () => toMarkdown(root, base));
    step('text', () => toMarkdown(root, base, 'text'));
    step('html', () => cleanHtml(root, base));
  }
  const start = cpuMs();
  const result = await extractPage(body, 'text/html; charset=utf-8', URL_, { ...spec, formats: [...spec.formats] });
  const total = cpuMs() - start;
  console.log(JSON.stringify({ step: 'extractPage', ms: total, warnings: result.record.warnings }));
}

interface Row {
  name: string;
  bytes: number;
  steps: Record<string, number>;
  warnings: string[];
  stalled: string | null;
}

function runChild(name: string, bytes: number, timeoutS: number): Promise<Row> {
  const row: Row = { name, bytes, steps: {}, warnings: [], stalled: null };
  const child = spawn(process.execPath, [new URL(import.meta.url).pathname, name], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutS * 1000);
  let error = '';
  child.stderr.on('data', (chunk: Buffer) => {
    error += chunk.toString();
  });
  createInterface({ input: child.stdout }).on('line', (line) => {
    const parsed = JSON.parse(line) as { step: string; ms: number; warnings?: string[] };
    row.steps[parsed.step] = parsed.ms;
    if (parsed.warnings) row.warnings = parsed.warnings;
  });
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (signal) row.stalled = `killed after ${timeoutS} s`;
      else if (code !== 0) row.stalled = `failed: ${error.trim().split('\n').slice(-3).join(' ').slice(0, 200)}`;
      resolve(row);
    });
  });
}

const fmt = (ms: number | undefined) => (ms === undefined ? '-' : ms < 10 ? ms.toFixed(1) : String(Math.round(ms)));

async function main(): Promise<void> {
  const only = process.env.ONLY?.split(',');
  const timeoutS = Number(process.env.TIMEOUT ?? 30);
  const pages = HOSTILE_PAGES.filter((p) => !only || only.includes(p.name));
  console.log(`| page | KB | ${STEPS.join(' | ')} | extractPage | warnings |`);
  console.log(`| --- | ---: |${' ---: |'.repeat(STEPS.length + 1)} --- |`);
  for (const page of pages) {
    const row = await runChild(page.name, page.body().byteLength, timeoutS);
    const steps = STEPS.map((s) => fmt(row.steps[s]));
    const total = row.stalled ? `**${row.stalled}**` : fmt(row.steps.extractPage);
    const notes = row.warnings.map((w) => w.slice(0, 90)).join('; ');
    console.log(`| ${page.name} | ${Math.round(row.bytes / 1024)} | ${steps.join(' | ')} | ${total} | ${notes} |`);
  }
}

const child = process.argv[2];
if (child) await measurePage(child);
else await main();
